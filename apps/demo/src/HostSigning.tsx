import {
  useLatch,
  useLatchNetwork,
  useLatchSendTransaction,
  useLatchSignMessage,
  type Latch,
  type Network,
} from '@latch/react';
import { useState } from 'react';

/** The host API: sign a message and send a transaction through whatever wallet is connected. */
export function HostSigning({ latch, extraNetwork }: { latch: Latch; extraNetwork: Network }) {
  const { status, address } = useLatch();
  const sign = useLatchSignMessage();
  const send = useLatchSendTransaction();
  if (status !== 'connected' || !address) return null;
  return (
    <section aria-label="Host signing">
      <button type="button" data-testid="demo-open-send" onClick={() => latch.modal.open({ view: 'Send' })}>
        Send from the modal
      </button>{' '}
      <button
        type="button"
        data-testid="demo-open-send-prefilled"
        onClick={() => latch.modal.open({ view: 'Send', data: { token: 'ETH', amount: '0.01', receiver: 'latch-dev.eth' } })}
      >
        Send 0.01 ETH to latch-dev.eth
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
      <RuntimeNetwork latch={latch} network={extraNetwork} />
    </section>
  );
}

/** `latch.addNetwork` / `removeNetwork`: the network picker follows. */
function RuntimeNetwork({ latch, network }: { latch: Latch; network: Network }) {
  const { networks } = useLatchNetwork();
  const [result, setResult] = useState('—');
  const listed = networks.some(({ caipNetworkId }) => caipNetworkId === network.caipNetworkId);
  const run = (action: () => Promise<string>) =>
    void action().then(setResult, (error: unknown) => setResult(`error: ${(error as Error).message}`));
  return (
    <p>
      <button
        type="button"
        data-testid="demo-add-network"
        disabled={listed}
        onClick={() => run(async () => ((await latch.addNetwork(network)) ? 'added' : 'already known'))}
      >
        Add {network.name}
      </button>{' '}
      <button
        type="button"
        data-testid="demo-remove-network"
        disabled={!listed}
        onClick={() => run(async () => `removed ${(await latch.removeNetwork(network.caipNetworkId)).name}`)}
      >
        Remove {network.name}
      </button>{' '}
      <output data-testid="demo-network-result">{result}</output>
    </p>
  );
}

