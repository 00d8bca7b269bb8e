import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';

/** Waits for the wallet to answer the connection request; offers a retry when it fails. */
export function ConnectingExternalView() {
  const latch = useLatchInstance();
  const { connectors, activeConnectorId, status, error } = useStore(latch.connection);
  const connector = connectors.find(({ id }) => id === activeConnectorId);
  if (!connector) return null;
  const values = { wallet: connector.name };

  return (
    <div className="latch-view latch-connecting">
      <div className="latch-connecting-icon" data-waiting={status === 'connecting'}>
        <img src={connector.imageUrl} alt={connector.name} />
      </div>
      {error ? (
        <>
          <p role="alert" className="latch-message latch-message--error">
            {latch.t('connectionFailed', values)}
          </p>
          <Button variant="primary" onClick={() => void latch.connect(connector.id)}>
            {latch.t('retry')}
          </Button>
        </>
      ) : (
        <p className="latch-message" aria-live="polite">
          {latch.t('connectingWaiting', values)}
        </p>
      )}
    </div>
  );
}
