import type { LatchSolanaWalletAdapter } from '@latch/solana';
import { Connection, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { useEffect, useMemo, useState } from 'react';
import { useActionResults } from '../../shared/results.js';

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

function validKey(text: string): PublicKey | undefined {
  try {
    return new PublicKey(text);
  } catch {
    return undefined;
  }
}

/** What a web3.js app does with a wallet adapter: connect, `signMessage`, `sendTransaction`, disconnect. */
export function SolanaPanel({ adapter, rpcUrl }: { adapter: LatchSolanaWalletAdapter; rpcUrl: string }) {
  const connection = useMemo(() => new Connection(rpcUrl, 'confirmed'), [rpcUrl]);
  const [publicKey, setPublicKey] = useState(adapter.publicKey);
  const [receiver, setReceiver] = useState('');
  const { run, show } = useActionResults('solana', describe);
  useEffect(() => {
    const onConnect = (key: PublicKey) => setPublicKey(key);
    const onDisconnect = () => setPublicKey(null);
    adapter.on('connect', onConnect);
    adapter.on('disconnect', onDisconnect);
    setPublicKey(adapter.publicKey);
    return () => {
      adapter.off('connect', onConnect);
      adapter.off('disconnect', onDisconnect);
    };
  }, [adapter]);

  if (!publicKey) {
    return (
      <section aria-label="Solana web3.js">
        <p data-testid="solana-status">Not connected</p>
        <button type="button" data-testid="solana-connect-button" onClick={() => run('connect', async () => (await adapter.connect(), 'connected'))}>
          Connect with the wallet adapter
        </button>{' '}
        {show('connect')}
      </section>
    );
  }
  const to = validKey(receiver);
  return (
    <section aria-label="Solana web3.js">
      <dl className="state">
        <dt>adapter</dt>
        <dd data-testid="solana-adapter">{adapter.name}</dd>
        <dt>publicKey</dt>
        <dd data-testid="solana-address">{publicKey.toBase58()}</dd>
      </dl>
      <h2>Sign “Hello from web3.js”</h2>
      <button
        type="button"
        data-testid="solana-sign-button"
        onClick={() => run('sign', async () => hex(await adapter.signMessage(new TextEncoder().encode('Hello from web3.js'))))}
      >
        Sign message
      </button>{' '}
      {show('sign')}
      <h2>Send 0.25 SOL</h2>
      <label>
        Receiver <input data-testid="solana-receiver" value={receiver} onChange={(event) => setReceiver(event.target.value)} />
      </label>
      <br />
      <button
        type="button"
        data-testid="solana-send-button"
        disabled={!to}
        onClick={() =>
          run('send', () =>
            adapter.sendTransaction(
              new Transaction().add(SystemProgram.transfer({ fromPubkey: publicKey, toPubkey: to!, lamports: LAMPORTS_PER_SOL / 4 })),
              connection,
            ),
          )
        }
      >
        Send with sendTransaction
      </button>{' '}
      {show('send')}
      <h2>Disconnect</h2>
      <button type="button" data-testid="solana-disconnect-button" onClick={() => run('disconnect', async () => (await adapter.disconnect(), ''))}>
        Disconnect the adapter
      </button>
    </section>
  );
}
