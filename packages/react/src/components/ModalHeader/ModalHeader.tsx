import { useLatchInstance } from '../../context.js';

export interface ModalHeaderProps {
  titleId: string;
  title: string;
  /** Shows the back button; the first view of the history has nowhere to go back to. */
  canGoBack: boolean;
}

export function ModalHeader({ titleId, title, canGoBack }: ModalHeaderProps) {
  const { modal, t } = useLatchInstance();
  return (
    <header className="latch-header">
      {canGoBack ? (
        <button type="button" className="latch-icon-button" aria-label={t('back')} onClick={modal.back}>
          <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
            <path d="M10 3 5 8l5 5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
        </button>
      ) : (
        <span className="latch-header-spacer" />
      )}
      <h2 id={titleId} className="latch-header-title">
        {title}
      </h2>
      <button
        type="button"
        className="latch-icon-button"
        aria-label={t('close')}
        data-testid="modal-close"
        onClick={modal.close}
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
          <path d="m4 4 8 8m0-8-8 8" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
      </button>
    </header>
  );
}
