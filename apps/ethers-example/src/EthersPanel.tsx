import { watchLatchSigner } from '@latch/ethers';
import { getLatchWeb3Provider } from '@latch/ethers/v5';
import type { Latch } from '@latch/react';
import { isAddress, parseEther, type JsonRpcSigner } from 'ethers';
import { providers, utils } from 'ethers5';
import { useEffect, useState } from 'react';
import { useActionResults } from '../../shared/results.js';

const describe = (error: unknown) => (error as { shortMessage?: string }).shortMessage ?? String(error);

/** What an ethers app does: a signer, `signMessage`, `sendTransaction`; v6 and v5 side by side. */
export function EthersPanel({ latch }: { latch: Latch }) {
  const [current, setCurrent] = useState<{ signer: JsonRpcSigner; chainId: number }>();
  const [receiver, setReceiver] = useState('');
  const { run, show } = useActionResults('ethers', describe);
  useEffect(() => watchLatchSigner(latch, setCurrent), [latch]);
  const v5Signer = () => getLatchWeb3Provider(latch, providers.Web3Provider).getSigner();

  if (!current) return <p data-testid="ethers-status">Not connected</p>;
  const valid = isAddress(receiver);
  return (
    <section aria-label="ethers">
      <dl className="state">
        <dt>signer (v6)</dt>
        <dd data-testid="ethers-address">{current.signer.address}</dd>
        <dt>chain</dt>
        <dd data-testid="ethers-chain">{current.chainId}</dd>
      </dl>
      <h2>Sign “Hello from ethers”</h2>
      <button type="button" data-testid="ethers-v6-sign-button" onClick={() => run('v6-sign', () => current.signer.signMessage('Hello from ethers'))}>
        Sign with ethers v6
      </button>{' '}
      {show('v6-sign')}
      <br />
      <button type="button" data-testid="ethers-v5-sign-button" onClick={() => run('v5-sign', () => v5Signer().signMessage('Hello from ethers'))}>
        Sign with ethers v5
      </button>{' '}
      {show('v5-sign')}
      <h2>Send 0.1 ETH</h2>
      <label>
        Receiver <input data-testid="ethers-receiver" value={receiver} onChange={(e) => setReceiver(e.target.value)} />
      </label>
      <br />
      <button
        type="button"
        data-testid="ethers-v6-send-button"
        disabled={!valid}
        onClick={() => run('v6-send', async () => (await current.signer.sendTransaction({ to: receiver, value: parseEther('0.1') })).hash)}
      >
        Send with ethers v6
      </button>{' '}
      {show('v6-send')}
      <br />
      <button
        type="button"
        data-testid="ethers-v5-send-button"
        disabled={!valid}
        onClick={() => run('v5-send', async () => (await v5Signer().sendTransaction({ to: receiver, value: utils.parseEther('0.1') })).hash)}
      >
        Send with ethers v5
      </button>{' '}
      {show('v5-send')}
    </section>
  );
}
