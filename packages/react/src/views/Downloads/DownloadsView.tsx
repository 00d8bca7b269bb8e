import { useLatchInstance } from '../../context.js';
import { useWalletList } from '../../hooks/useWalletList.js';
import type { MessageKey } from '../../locales/index.js';
import type { CatalogueWallet } from '../../core/catalogue.js';
import { WalletHeading } from '../../components/WalletHeading/WalletHeading.js';

/** The catalogue's links a visitor can open without a pairing, in the order shown. */
const LINKS: readonly [keyof CatalogueWallet, MessageKey][] = [
  ['chrome_store', 'linkChromeStore'],
  ['app_store', 'linkAppStore'],
  ['play_store', 'linkPlayStore'],
  ['webapp_link', 'linkWebApp'],
  ['homepage', 'linkHomepage'],
];

/** Only web links: a catalogue entry's text must never become a `javascript:` or other URL. */
function webLink(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The page of a catalogue wallet that is not installed: the wallet's own links from the catalogue
 * (store pages, web app, homepage). Reached from its pairing view, or directly when the host
 * switched WalletConnect off (the page then says the wallet cannot pair).
 */
export function DownloadsView() {
  const latch = useLatchInstance();
  const { selected: wallet } = useWalletList();
  if (!wallet) return null;
  const values = { wallet: wallet.name };
  const links = LINKS.flatMap(([field, label]) => {
    const href = webLink(wallet[field]);
    return href ? [{ field, label, href }] : [];
  });

  return (
    <div className="latch-view latch-downloads" data-testid="wallet-downloads">
      <WalletHeading wallet={wallet} />
      {latch.walletConnect ? null : (
        <p className="latch-message" data-testid="walletconnect-unavailable">
          {latch.t('walletConnectUnavailable', values)}
        </p>
      )}
      {wallet.rdns || wallet.chrome_store ? <p className="latch-message">{latch.t('walletInstallHint', values)}</p> : null}
      {links.length ? (
        <ul className="latch-wallet-list latch-downloads-links" aria-label={latch.t('walletLinks', values)}>
          {links.map(({ field, label, href }) => (
            <li key={field}>
              <a
                className="latch-button latch-button--secondary"
                href={href}
                target="_blank"
                rel="noopener noreferrer"
                data-testid={`wallet-link-${field}`}
              >
                {latch.t(label)}
                <span className="latch-visually-hidden"> {latch.t('opensInNewTab')}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="latch-message">{latch.t('walletNoLinks', values)}</p>
      )}
    </div>
  );
}
