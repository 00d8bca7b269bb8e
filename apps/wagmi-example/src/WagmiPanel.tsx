import { useState, type FormEvent } from 'react';
import { erc20Abi, formatUnits, isAddress, parseEther, parseUnits, type Address } from 'viem';
import {
  useAccount,
  useBalance,
  useChains,
  useConnect,
  useConnectors,
  useDisconnect,
  useSendTransaction,
  useSignMessage,
  useSwitchChain,
  useWriteContract,
  version,
} from 'wagmi';

/** The devnet's USDC (deterministic: the first contract the fixture deployer creates); `?usdc=` overrides it. */
const USDC: Address =
  (new URLSearchParams(window.location.search).get('usdc') as Address | null) ?? '0x5FbDB2315678afecb367f032d93F642f64180aa3';

const message = (error: Error | null) => (error ? (error as { shortMessage?: string }).shortMessage ?? error.message : '');

/** wagmi's hooks only: what any wagmi app already has, working through the Latch connection. */
export function WagmiPanel() {
  const { address, chainId, status, connector } = useAccount();
  const balance = useBalance({ address });
  const chains = useChains();
  const { switchChainAsync, error: switchError } = useSwitchChain();
  const { disconnect } = useDisconnect();
  const { connect, error: connectError } = useConnect();
  const [latchConnector] = useConnectors();
  const sign = useSignMessage();
  const send = useSendTransaction();
  const write = useWriteContract();
  const [receiver, setReceiver] = useState('');
  const [amount, setAmount] = useState('0.1');
  const validReceiver = isAddress(receiver);

  const sendEth = (event: FormEvent) => {
    event.preventDefault();
    if (validReceiver) send.sendTransaction({ to: receiver, value: parseEther(amount) });
  };
  const sendUsdc = () => {
    if (validReceiver) {
      write.writeContract({ address: USDC, abi: erc20Abi, functionName: 'transfer', args: [receiver, parseUnits(amount, 6)] });
    }
  };

  return (
    <section aria-label="wagmi">
      <dl className="state">
        <dt>wagmi</dt>
        <dd data-testid="wagmi-version">{version}</dd>
        <dt>status</dt>
        <dd data-testid="wagmi-status">{status}</dd>
        <dt>address</dt>
        <dd data-testid="wagmi-address">{address ?? '—'}</dd>
        <dt>chain</dt>
        <dd data-testid="wagmi-chain">{chainId ?? '—'}</dd>
        <dt>connector</dt>
        <dd data-testid="wagmi-connector">{connector?.name ?? '—'}</dd>
        <dt>balance</dt>
        <dd data-testid="wagmi-balance">
          {balance.data ? `${formatUnits(balance.data.value, balance.data.decimals)} ${balance.data.symbol}` : '—'}
        </dd>
      </dl>
      {status === 'disconnected' && latchConnector && (
        <>
          <button type="button" data-testid="wagmi-connect" onClick={() => connect({ connector: latchConnector })}>
            Connect (wagmi&apos;s useConnect)
          </button>
          <p data-testid="wagmi-connect-error" role="status">{message(connectError)}</p>
        </>
      )}
      {status === 'connected' && (
        <>
          <h2>Network</h2>
          {chains.map((chain) => (
            <button
              key={chain.id}
              type="button"
              data-testid={`wagmi-switch-${chain.id}`}
              disabled={chain.id === chainId}
              onClick={() => void switchChainAsync({ chainId: chain.id }).catch(() => undefined)}
            >
              Switch to {chain.name}
            </button>
          ))}
          <p data-testid="wagmi-switch-error" role="status">{message(switchError)}</p>

          <h2>Sign</h2>
          <button type="button" data-testid="wagmi-sign" onClick={() => sign.signMessage({ message: 'Hello from wagmi' })}>
            Sign “Hello from wagmi”
          </button>
          <p data-testid="wagmi-signature">{sign.data ?? message(sign.error)}</p>

          <h2>Send</h2>
          <form onSubmit={sendEth}>
            <label>
              Receiver <input data-testid="wagmi-receiver" value={receiver} onChange={(e) => setReceiver(e.target.value)} />
            </label>{' '}
            <label>
              Amount <input data-testid="wagmi-amount" value={amount} onChange={(e) => setAmount(e.target.value)} />
            </label>{' '}
            <button type="submit" data-testid="wagmi-send-eth" disabled={!validReceiver}>
              Send ETH
            </button>{' '}
            <button type="button" data-testid="wagmi-send-usdc" disabled={!validReceiver} onClick={sendUsdc}>
              Send USDC (transfer)
            </button>
          </form>
          <p>
            ETH: <span data-testid="wagmi-eth-hash">{send.data ?? message(send.error)}</span>
          </p>
          <p>
            USDC: <span data-testid="wagmi-usdc-hash">{write.data ?? message(write.error)}</span>
          </p>

          <button type="button" data-testid="wagmi-disconnect" onClick={() => disconnect()}>
            Disconnect (wagmi)
          </button>
        </>
      )}
    </section>
  );
}
