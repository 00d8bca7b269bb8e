// @vitest-environment node
// Server rendering as a Next.js or Remix server does it: no window, no document.
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { ConnectButton, createLatch, LatchProvider } from './index.js';

it('imports, creates an instance and renders with no DOM at all', () => {
  expect(typeof window).toBe('undefined');
  const latch = createLatch({
    projectId: 'ssr',
    networks: [
      {
        id: 1,
        caipNetworkId: 'eip155:1',
        chainNamespace: 'eip155',
        name: 'Ethereum',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [] } },
      },
    ],
  });
  const html = renderToString(
    <LatchProvider latch={latch}>
      <ConnectButton />
    </LatchProvider>,
  );
  expect(html).toContain('data-testid="connect-button"');
  expect(html).toContain('Connect Wallet');
});
