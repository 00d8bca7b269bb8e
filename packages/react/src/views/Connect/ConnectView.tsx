import { lazy, Suspense } from 'react';
import { WalletButton } from '../../components/WalletButton/WalletButton.js';
import { useLatchInstance } from '../../context.js';
import { useStore, useStoreValue } from '../../hooks/useStore.js';
import { useConnectEntries, useWalletList } from '../../hooks/useWalletList.js';
import type { ConnectEntry } from '../../core/walletOrder.js';

/** A QR-code glyph for the WalletConnect row (the protocol's own logo is a trademark). */
const WALLET_CONNECT_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="6" fill="#4c63f0"/><path fill="#fff" d="M5 5h6v6H5zm2 2v2h2V7zm6-2h6v6h-6zm2 2v2h2V7zM5 13h6v6H5zm2 2v2h2v-2zm6-2h2v2h-2zm2 2h2v2h-2zm2-2h2v2h-2zm0 4h2v2h-2zm-4 0h2v2h-2z"/></svg>',
)}`;

// Behaviour 1.9: the e-mail login is an optional part, a chunk of its own fetched when the view shows.
const EmailLogin = lazy(() => import('../EmailLogin/index.js').then((module) => ({ default: module.EmailLogin })));

/**
 * The wallets in the documented connector order (installed wallets connect at once; catalogue wallets
 * open their page), then the entry to the whole catalogue.
 */
export function ConnectView() {
  const latch = useLatchInstance();
  // Rows that pair start fetching the WalletConnect engine when pointed at or focused, before the click.
  const preloadWalletConnect = () => latch.walletConnect?.preload();
  const { error } = useStore(latch.connection);
  const namespace = useStoreValue(latch.modal.store, (state) => state.namespace);
  const { count } = useWalletList();
  const entries = useConnectEntries();
  const anyInstalled = entries.some((entry) => entry.type === 'connector');

  function tags(entry: ConnectEntry): string[] {
    const list = entry.recent ? [latch.t('walletRecent')] : [];
    if (entry.type === 'connector') list.push(latch.t('walletInstalled'));
    // A wallet may register for Solana and announce itself for EVM too: the rows differ by chain.
    if (entry.type === 'connector' && entry.connector.namespace === 'solana') list.push(latch.t('walletSolanaTag'));
    return list;
  }

  return (
    <div className="latch-view latch-connect">
      {error?.kind === 'rejected' ? (
        <p role="alert" className="latch-message latch-message--error">
          {latch.t('connectionRejected')}
        </p>
      ) : null}
      {/* Behaviour 1.10's default connect-method order: e-mail, then wallets. */}
      {latch.embeddedWallet ? (
        <Suspense fallback={null}>
          <EmailLogin />
        </Suspense>
      ) : null}
      {anyInstalled ? null : (
        <p className="latch-message" data-testid="no-wallets">
          {latch.t('noBrowserWallet')}
        </p>
      )}
      <ul className="latch-wallet-list" aria-label={latch.t('wallets')}>
        {entries.map((entry) =>
          entry.type === 'walletConnect' ? (
            <li key="walletConnect" data-group={entry.group}>
              <WalletButton
                name={latch.t('walletConnect')}
                imageUrl={WALLET_CONNECT_ICON}
                tags={[latch.t('walletConnectTag')]}
                testId="wallet-selector-walletconnect"
                onClick={() => latch.walletConnect?.start()}
                onIntent={preloadWalletConnect}
              />
            </li>
          ) : entry.type === 'connector' ? (
            <li key={`connector-${entry.connector.id}`} data-group={entry.group}>
              <WalletButton
                name={entry.connector.name}
                imageUrl={entry.connector.imageUrl}
                tags={tags(entry)}
                testId={`wallet-selector-${entry.connector.rdns || entry.connector.id}`}
                onClick={() => void latch.connect(entry.connector.id)}
              />
            </li>
          ) : (
            <li key={`wallet-${entry.wallet.id}`} data-group={entry.group}>
              <WalletButton
                name={entry.wallet.name}
                imageUrl={latch.catalogue.walletImageUrl(entry.wallet)}
                tags={tags(entry)}
                testId={`wallet-selector-${entry.wallet.id}`}
                onClick={() => latch.walletList.select(entry.wallet)}
                onIntent={preloadWalletConnect}
              />
            </li>
          ),
        )}
        {/* The catalogue's wallets pair over WalletConnect, eip155 only: not in a Solana-only list. */}
        {namespace === 'solana' || !latch.features.allWallets ? null : (
          <li>
            <button
              type="button"
              className="latch-wallet latch-all-wallets"
              data-testid="all-wallets"
              onClick={() => {
                latch.track({ type: 'CLICK_ALL_WALLETS', data: {} });
                latch.modal.push('AllWallets');
              }}
            >
              <span className="latch-wallet-icon latch-all-wallets-icon" aria-hidden="true">
                <svg viewBox="0 0 16 16" width="16" height="16">
                  <path
                    d="M3 3h4v4H3zm6 0h4v4H9zM3 9h4v4H3zm6 0h4v4H9z"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="1.4"
                  />
                </svg>
              </span>
              <span className="latch-wallet-name">{latch.t('allWallets')}</span>
              {count >= 10 ? (
                <span className="latch-wallet-tags">
                  {/* Rounded down to tens, as wallet kits show it: the catalogue grows. */}
                  <span className="latch-wallet-tag">
                    {latch.t('allWalletsCount', { count: String(Math.floor(count / 10) * 10) })}
                  </span>
                </span>
              ) : null}
            </button>
          </li>
        )}
      </ul>
    </div>
  );
}
