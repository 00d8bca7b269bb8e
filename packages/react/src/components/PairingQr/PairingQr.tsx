import { Button } from '../Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';
import type { WalletConnectController } from '../../core/walletConnect.js';
import { declinedByUser } from '../../core/walletErrors.js';

/** The quiet zone a scanner needs around a QR code, in modules. */
const QUIET_ZONE = 4;


/**
 * The pairing link of a WalletConnect proposal as a QR code, with a copy button; while it is
 * being made, a placeholder; when making it failed, the reason and a retry.
 */
export function PairingQr({ walletConnect }: { walletConnect: WalletConnectController }) {
  const latch = useLatchInstance();
  const { status, qr, uri, error } = useStore(walletConnect.store);

  async function copy() {
    if (!uri) return;
    try {
      await navigator.clipboard.writeText(uri);
      latch.toasts.show({ variant: 'success', message: 'walletConnectCopied' });
    } catch {
      latch.toasts.show({ variant: 'error', message: 'walletConnectCopyFailed' });
    }
  }

  if (status === 'error') {
    return (
      <div className="latch-pairing">
        <p role="alert" className="latch-message latch-message--error" data-testid="wc-error">
          {latch.t(declinedByUser(error) ? 'walletConnectDeclined' : 'walletConnectFailed')}
        </p>
        <Button variant="primary" data-testid="wc-retry" onClick={() => walletConnect.retry()}>
          {latch.t('retry')}
        </Button>
      </div>
    );
  }

  const side = qr ? qr.size + 2 * QUIET_ZONE : 0;
  return (
    <div className="latch-pairing">
      <div className="latch-qr" data-testid="wc-qr" aria-busy={!qr}>
        {qr ? (
          <svg
            viewBox={`${-QUIET_ZONE} ${-QUIET_ZONE} ${side} ${side}`}
            role="img"
            aria-label={latch.t('walletConnectQr')}
            shapeRendering="crispEdges"
          >
            <rect x={-QUIET_ZONE} y={-QUIET_ZONE} width={side} height={side} className="latch-qr-light" />
            <path d={qr.path} className="latch-qr-dark" />
          </svg>
        ) : (
          <p className="latch-message" aria-live="polite">
            {latch.t('walletConnectPreparing')}
          </p>
        )}
      </div>
      <Button data-testid="wc-copy" disabled={!uri} onClick={() => void copy()}>
        {latch.t('walletConnectCopy')}
      </Button>
    </div>
  );
}
