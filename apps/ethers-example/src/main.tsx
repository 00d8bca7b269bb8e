import { ConnectButton, createLatch, LatchProvider } from '@latch/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { latchDevnet, latchDevnetB } from '../../shared/devnets.js';
import '../../shared/page.css';
import { EthersPanel } from './EthersPanel.js';

const query = new URLSearchParams(window.location.search);
const latch = createLatch({
  projectId: query.get('projectId') ?? 'demo',
  networks: [latchDevnet, latchDevnetB],
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
