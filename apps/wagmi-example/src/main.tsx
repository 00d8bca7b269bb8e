import { ConnectButton, createLatch, LatchProvider } from '@latch/react';
import { latchConnector, latchTransports, latchWagmiChains } from '@latch/wagmi';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createConfig, WagmiProvider } from 'wagmi';
import { latchDevnet, latchDevnetB } from '../../shared/devnets.js';
import '../../shared/page.css';
import { WagmiPanel } from './WagmiPanel.js';

const query = new URLSearchParams(window.location.search);

const latch = createLatch({
  projectId: query.get('projectId') ?? 'demo',
  networks: [latchDevnet, latchDevnetB],
  // Unset when the Latch server serves this page; set it for `vite` against a separate server.
  serverUrl: import.meta.env.VITE_LATCH_SERVER_URL,
});

// The app's own wagmi config: Latch supplies the connector, the chains and the transports.
const config = createConfig({
  chains: latchWagmiChains(latch),
  connectors: [latchConnector(latch)],
  transports: latchTransports(latch),
  // Wallets are discovered by Latch's modal; wagmi's own EIP-6963 discovery would list them twice.
  multiInjectedProviderDiscovery: false,
});
const queryClient = new QueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <LatchProvider latch={latch}>
          <main>
            <h1>Latch with wagmi</h1>
            <p>
              The Latch modal as the connect button of a wagmi app ({import.meta.env.VITE_WAGMI_BUILD}); everything
              below is wagmi&apos;s own hooks.
            </p>
            <ConnectButton />
            <WagmiPanel />
          </main>
        </LatchProvider>
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
);
