import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';

/** Lists the browser wallets that announced themselves (EIP-6963). */
export function ConnectView() {
  const latch = useLatchInstance();
  const { connectors, error } = useStore(latch.connection);

  return (
    <div className="latch-view latch-connect">
      {error?.kind === 'rejected' ? (
        <p role="alert" className="latch-message latch-message--error">
          {latch.t('connectionRejected')}
        </p>
      ) : null}
      {connectors.length === 0 ? (
        <p className="latch-message" data-testid="no-wallets">
          {latch.t('noBrowserWallet')}
        </p>
      ) : (
        <ul className="latch-wallet-list" aria-label={latch.t('browserWallets')}>
          {connectors.map((connector) => (
            <li key={connector.id}>
              <button
                type="button"
                className="latch-wallet"
                data-testid={`wallet-selector-${connector.rdns || connector.id}`}
                onClick={() => void latch.connect(connector.id)}
              >
                <img className="latch-wallet-icon" src={connector.imageUrl} alt={connector.name} />
                {/* The icon's alt text already names the button. */}
                <span className="latch-wallet-name" aria-hidden="true">
                  {connector.name}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
