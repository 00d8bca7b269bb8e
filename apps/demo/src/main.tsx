import { ConnectButton, createLatch, LatchProvider, useLatch, type Network } from '@latch/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/** The local devnet the Latch repository runs for development and end-to-end tests. */
const latchDevnet: Network = {
  id: 31337,
  caipNetworkId: 'eip155:31337',
  chainNamespace: 'eip155',
  name: 'Latch Devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
};

const latch = createLatch({
  // `?projectId=` tries the page with another project of the same server.
  projectId: new URLSearchParams(window.location.search).get('projectId') ?? 'demo',
  networks: [latchDevnet],
  // Unset in production, where the Latch server serves this page and the API on one origin;
  // set it when running `vite` against a separately started server.
  serverUrl: import.meta.env.VITE_LATCH_SERVER_URL,
});

function LatchState() {
  const { status, caipAddress, balance, balanceSymbol } = useLatch();
  return (
    <dl className="state" aria-label="Latch state">
      <dt>status</dt>
      <dd data-testid="state-status">{status}</dd>
      <dt>caipAddress</dt>
      <dd data-testid="state-caip-address">{caipAddress ?? '—'}</dd>
      <dt>balance</dt>
      <dd data-testid="state-balance">{balance === undefined ? '—' : `${balance} ${balanceSymbol}`}</dd>
    </dl>
  );
}

function App() {
  return (
    <main>
      <h1>Latch demo</h1>
      <p>
        A host page using <code>@latch/react</code>. Connect a browser wallet on the Latch Devnet
        (eip155:31337); the native balance is read through the Latch server's chain gateway.
      </p>
      <ConnectButton />
      <LatchState />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LatchProvider latch={latch}>
      <App />
    </LatchProvider>
  </StrictMode>,
);
