import { useId } from 'react';

export interface WalletButtonProps {
  name: string;
  imageUrl?: string;
  /** Short labels beside the name, e.g. Installed; read as the button's description. */
  tags?: readonly string[];
  testId: string;
  onClick(): void;
  /** The pointer is over it or it has focus: a click may follow (for preloading). */
  onIntent?(): void;
}

/** One wallet of a list: its icon and name as the button's name, tags as its description. */
export function WalletButton({ name, imageUrl, tags = [], testId, onClick, onIntent }: WalletButtonProps) {
  const tagsId = useId();
  return (
    <button
      type="button"
      className="latch-wallet"
      data-testid={testId}
      aria-describedby={tags.length ? tagsId : undefined}
      onClick={onClick}
      onPointerEnter={onIntent}
      onFocus={onIntent}
    >
      {imageUrl ? (
        <img className="latch-wallet-icon" src={imageUrl} alt={name} loading="lazy" decoding="async" />
      ) : (
        <span className="latch-wallet-icon latch-wallet-icon--blank" role="img" aria-label={name}>
          {name.slice(0, 1)}
        </span>
      )}
      {/* The icon's alt text already names the button. */}
      <span className="latch-wallet-name" aria-hidden="true">
        {name}
      </span>
      {tags.length ? (
        // Hidden from the name computation; `aria-describedby` still reads it as the description.
        <span id={tagsId} className="latch-wallet-tags" aria-hidden="true">
          {tags.map((tag) => (
            <span key={tag} className="latch-wallet-tag">
              {tag}
            </span>
          ))}
        </span>
      ) : null}
    </button>
  );
}
