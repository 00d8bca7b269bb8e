import { ConnectButton, createLatch, LatchProvider, type Network } from '@latch/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { EthersPanel } from './EthersPanel.js';

/** A chain of the local devnet `make demo` runs (anvil); Latch's gateway reaches it by chain id. */
function devnetChain(id: number, name: string, port: number): Network {
  return {
    id,
    caipNetworkId: `eip155:${id}`,
    chainNamespace: 'eip155',
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [`http://127.0.0.1:${port}`] } },
  };
}

const query = new URLSearchParams(window.location.search);
const latch = createLatch({
  projectId: query.get('projectId') ?? 'demo',
  networks: [devnetChain(31337, 'Latch Devnet', 8545), devnetChain(31338, 'Latch Devnet B', 8546)],
  // Unset when the Latch server serves this page; set it for `vite` against a separate server.
  serverUrl: import.meta.env.VITE_LATCH_SERVER_URL,
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LatchProvider latch={latch}>
      <main>
        <h1>Latch with ethers</h1>
        <p>The Latch modal connects; ethers v6 and v5 sign and send through the connection.</p>
        <ConnectButton />
        <EthersPanel latch={latch} />
      </main>
    </LatchProvider>
  </StrictMode>,
);
