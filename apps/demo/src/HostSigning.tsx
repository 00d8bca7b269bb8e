import { useLatch, useLatchSendTransaction, useLatchSignMessage, type Latch } from '@latch/react';

/** The host API: sign a message and send a transaction through whatever wallet is connected. */
export function HostSigning({ latch }: { latch: Latch }) {
  const { status, address } = useLatch();
  const sign = useLatchSignMessage();
  const send = useLatchSendTransaction();
  if (status !== 'connected' || !address) return null;
  return (
    <section aria-label="Host signing">
      <button type="button" data-testid="demo-open-send" onClick={() => latch.modal.open({ view: 'Send' })}>
        Send from the modal
      </button>{' '}
      <button type="button" data-testid="demo-sign" onClick={() => void sign.signMessage('Hello from the Latch demo').catch(() => {})}>
        Sign a message
      </button>{' '}
      <button
        type="button"
        data-testid="demo-send-self"
        onClick={() => void send.sendTransaction({ to: address, value: '0x1' }).catch(() => {})}
      >
        Send 1 wei to yourself
      </button>
      <dl className="state">
        <dt>signature</dt>
        <dd data-testid="demo-sign-result">{sign.status === 'error' ? `error: ${sign.error?.kind}` : (sign.data ?? sign.status)}</dd>
        <dt>transaction</dt>
        <dd data-testid="demo-send-result">{send.status === 'error' ? `error: ${send.error?.kind}` : (send.data ?? send.status)}</dd>
      </dl>
    </section>
  );
}

