import { Button } from '../Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';
import type { WalletConnectController } from '../../core/walletConnect.js';
import { declinedByUser } from '../../core/walletErrors.js';
import { QrSvg } from './QrSvg.js';

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

  return (
    <div className="latch-pairing">
      <div className="latch-qr" data-testid="wc-qr" aria-busy={!qr}>
        {qr ? (
          <QrSvg qr={qr} label={latch.t('walletConnectQr')} />
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
