import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';

/** Behaviour 4.5 "Sign-in": asks the visitor to sign a message proving they own the connected account. */
export function SIWXSignMessageView() {
  return <SignIn testId="siwx-sign-message" />;
}

/**
 * Behaviour 4.4 ConnectingSiwe: the same sign-in for a wallet paired over WalletConnect, whose request
 * arrives in the wallet's app (often on another device), so the view says where to look.
 */
export function ConnectingSiweView() {
  return <SignIn testId="connecting-siwe" inWalletApp />;
}

function SignIn({ testId, inWalletApp = false }: { testId: string; inWalletApp?: boolean }) {
  const latch = useLatchInstance();
  const { signing, error } = useStore(latch.siwx.store);
  const { connectors, activeConnectorId } = useStore(latch.connection);
  const wallet = connectors.find(({ id }) => id === activeConnectorId);
  // Rendered only in the browser (the modal is a client-side portal), so `location` exists.
  const app = globalThis.location.host;

  return (
    <div className="latch-view latch-siwx" data-testid={testId}>
      {wallet ? (
        <div className="latch-connecting-icon" data-waiting={signing}>
          <img src={wallet.imageUrl} alt={wallet.name} />
        </div>
      ) : null}
      <p className="latch-message">{latch.t('signInBody', { app })}</p>
      {inWalletApp && wallet ? (
        <p className="latch-message" aria-live="polite">
          {latch.t(signing ? 'signInInWalletApp' : 'signInWalletApp', { wallet: wallet.name })}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="latch-message latch-message--error" data-testid="siwx-error">
          {latch.t(error)}
          {error === 'sessionExpired' ? (
            // Behaviour 4.8: the usual cause is a wrong clock on the visitor's device.
            <span className="latch-siwx-hint" data-testid="siwx-error-hint">
              {latch.t('sessionExpiredHint')}
            </span>
          ) : null}
        </p>
      ) : null}
      <div className="latch-siwx-actions">
        <Button onClick={latch.siwx.cancel} data-testid="siwx-cancel">
          {latch.t('cancel')}
        </Button>
        <Button
          variant="primary"
          disabled={signing}
          aria-busy={signing}
          onClick={() => void latch.siwx.signIn()}
          data-testid="siwx-sign"
        >
          {latch.t(signing ? 'signInWaiting' : 'signIn')}
        </Button>
      </div>
    </div>
  );
}
