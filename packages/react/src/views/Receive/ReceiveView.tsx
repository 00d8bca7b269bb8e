import { parseCaipNetworkId } from '@latch/wasm';
import { useEffect, useId, useState } from 'react';
import { Button } from '../../components/Button/Button.js';
import { QrSvg } from '../../components/PairingQr/QrSvg.js';
import { useLatchInstance } from '../../context.js';
import { loadQrEncoder } from '../../core/qrCode.js';
import type { QrCode } from '../../core/walletConnect.js';
import { useStore } from '../../hooks/useStore.js';
import { receiveViewStyles } from './ReceiveView.styles.js';

/** How the view names a namespace (chain family names, the same in every language). */
const NAMESPACE_NAMES: Record<string, string> = { eip155: 'EVM', solana: 'Solana' };

type QrState = { status: 'loading' } | { status: 'ready'; qr: QrCode } | { status: 'error' };

/**
 * Receive (behaviour 5.7): the account's address as a QR code with copy, the network it is on, the
 * app's networks of the same namespace (the ones that can send to it), and a warning against
 * sending from another namespace. A chunk of its own, with its CSS.
 */
export function ReceiveView() {
  const latch = useLatchInstance();
  const { address, caipNetworkId } = useStore(latch.account);
  const [qr, setQr] = useState<QrState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const networksId = useId();

  useEffect(() => {
    if (!address) return;
    let current = true;
    setQr({ status: 'loading' });
    loadQrEncoder()
      .then((encode) => current && setQr({ status: 'ready', qr: encode(address) }))
      .catch(() => current && setQr({ status: 'error' }));
    return () => {
      current = false;
    };
  }, [address, attempt]);

  if (!address || !caipNetworkId) return null;
  const { namespace } = parseCaipNetworkId(caipNetworkId);
  const network = latch.networks.find((n) => n.caipNetworkId === caipNetworkId);
  const receiving = latch.networks.filter((n) => n.chainNamespace === namespace);

  async function copy() {
    try {
      await navigator.clipboard.writeText(address!);
      latch.toasts.show({ variant: 'success', message: 'receiveCopied' });
    } catch {
      latch.toasts.show({ variant: 'error', message: 'receiveCopyFailed' });
    }
  }

  return (
    <div className="latch-view latch-receive" data-testid="receive-view">
      <style data-latch-receive-styles="">{receiveViewStyles}</style>
      <div className="latch-qr" data-testid="receive-qr" aria-busy={qr.status === 'loading'}>
        {qr.status === 'ready' ? (
          <QrSvg qr={qr.qr} label={latch.t('receiveQr', { address })} />
        ) : qr.status === 'error' ? (
          <p className="latch-message latch-message--error" role="alert">
            {latch.t('receiveQrFailed')}
          </p>
        ) : (
          <p className="latch-message" aria-live="polite">
            {latch.t('receiveQrLoading')}
          </p>
        )}
      </div>
      {qr.status === 'error' ? <Button onClick={() => setAttempt((n) => n + 1)}>{latch.t('retry')}</Button> : null}
      <p className="latch-receive-label">{latch.t('receiveAddressLabel')}</p>
      <p className="latch-receive-address" data-testid="receive-address">
        {address}
      </p>
      <Button variant="primary" data-testid="receive-copy" onClick={() => void copy()}>
        {latch.t('receiveCopy')}
      </Button>
      <p className="latch-receive-network" data-testid="receive-network">
        {latch.t('receiveNetwork', { network: network?.name ?? caipNetworkId })}
      </p>
      <h3 className="latch-receive-heading" id={networksId}>
        {latch.t('receiveNetworks')}
      </h3>
      <ul className="latch-receive-networks" aria-labelledby={networksId} data-testid="receive-networks">
        {receiving.map((n) => (
          <li
            key={n.caipNetworkId}
            data-testid={`receive-network-${n.caipNetworkId}`}
            aria-current={n.caipNetworkId === caipNetworkId ? 'true' : undefined}
          >
            {n.name}
          </li>
        ))}
      </ul>
      <p className="latch-message latch-receive-warning" role="note" data-testid="receive-warning">
        {latch.t('receiveWarning', { namespace: NAMESPACE_NAMES[namespace] ?? namespace })}
      </p>
    </div>
  );
}
