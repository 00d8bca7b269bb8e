import { ConnectButton, createLatch, LatchProvider } from '@latch/react';
import { latchSolanaAdapter } from '@latch/solana';
import { registerLatchStandardWallet } from '@latch/solana/standard';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { solanaDevnet } from '../../shared/devnets.js';
import '../../shared/page.css';
import { SolanaPanel } from './SolanaPanel.js';

const query = new URLSearchParams(window.location.search);
const projectId = query.get('projectId') ?? 'demo';
// Unset when the Latch server serves this page; set it for `vite` against a separate server.
const serverUrl: string | undefined = import.meta.env.VITE_LATCH_SERVER_URL;
const latch = createLatch({ projectId, networks: [solanaDevnet], serverUrl });
// What a web3.js app holds: a wallet-adapter adapter; Wallet Standard apps on the page see "Latch".
const adapter = latchSolanaAdapter(latch);
registerLatchStandardWallet(latch);
// The app's own web3.js Connection goes through the Latch server's RPC gateway.
const rpc = new URL('/v1/', serverUrl ?? window.location.origin);
rpc.search = new URLSearchParams({ chainId: solanaDevnet.caipNetworkId, projectId }).toString();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LatchProvider latch={latch}>
      <main>
        <h1>Latch with Solana web3.js</h1>
        <p>The Latch modal connects; a @solana/wallet-adapter-base adapter signs and sends through the connection.</p>
        <ConnectButton />
        <SolanaPanel adapter={adapter} rpcUrl={rpc.toString()} />
      </main>
    </LatchProvider>
  </StrictMode>,
);
