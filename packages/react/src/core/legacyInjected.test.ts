import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestLatch, createTestProvider, installWallet } from '../test/fixtures.js';
import { LEGACY_INJECTED_WAIT_MS, lookOnce } from './legacyInjected.js';
import type { Connector } from './types.js';

// A legacy wallet is an EIP-1193 test double set as `window.ethereum`; the Playwright test
// legacy-injected.spec.ts covers one in a real browser.
describe('a legacy window.ethereum (no EIP-6963)', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    cleanups.splice(0).forEach((cleanup) => cleanup());
    delete (window as { ethereum?: unknown }).ethereum;
    vi.useRealTimers();
  });
  const setEthereum = (provider: unknown) => Object.assign(window, { ethereum: provider });

  /** A connection controller's part the watcher reads, holding `connectors`. */
  const controller = (connectors: Connector[] = []) => ({
    connection: { getState: () => ({ connectors }) },
    addConnector: vi.fn((connector: Connector) => void connectors.push(connector)),
  });

  it('is offered as the browser wallet once announcing wallets had their turn', () => {
    vi.useFakeTimers();
    const provider = createTestProvider();
    setEthereum(provider);
    const connection = controller();
    lookOnce(window, 'Browser Wallet', connection);
    expect(connection.addConnector).not.toHaveBeenCalled();
    vi.advanceTimersByTime(LEGACY_INJECTED_WAIT_MS);
    expect(connection.addConnector).toHaveBeenCalledWith({
      id: 'injected',
      type: 'INJECTED',
      name: 'Browser Wallet',
      imageUrl: '',
      rdns: '',
      provider,
    });
  });

  it('is not offered when there is none, when it is not EIP-1193, or when an announced wallet owns it', () => {
    vi.useFakeTimers();
    const connection = controller();
    lookOnce(window, 'Browser Wallet', connection);
    vi.advanceTimersByTime(LEGACY_INJECTED_WAIT_MS);
    setEthereum({ request: 'not a function' });
    lookOnce(window, 'Browser Wallet', connection);
    vi.advanceTimersByTime(LEGACY_INJECTED_WAIT_MS);
    const announced = createTestProvider();
    setEthereum(announced);
    const owned = controller([{ id: 'uuid', type: 'ANNOUNCED', name: 'W', imageUrl: '', rdns: 'w', provider: announced }]);
    lookOnce(window, 'Browser Wallet', owned);
    vi.advanceTimersByTime(LEGACY_INJECTED_WAIT_MS);
    expect(connection.addConnector).not.toHaveBeenCalled();
    expect(owned.addConnector).not.toHaveBeenCalled();
  });

  it('shows in the Latch wallet list beside announcing wallets, and not twice when one of them owns it', async () => {
    // mount loads the watcher as a chunk of its own before its timer starts.
    const loaded = () => import('./legacyInjected.js').then(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await loaded();
    vi.useFakeTimers();
    const announced = createTestProvider();
    installWallet(announced);
    setEthereum(announced);
    const shared = createTestLatch();
    cleanups.push(shared.mount(window));
    await vi.advanceTimersByTimeAsync(LEGACY_INJECTED_WAIT_MS);
    expect(shared.connection.getState().connectors.map(({ type }) => type)).toEqual(['ANNOUNCED']);

    setEthereum(createTestProvider());
    const legacy = createTestLatch();
    cleanups.push(legacy.mount(window));
    await vi.advanceTimersByTimeAsync(LEGACY_INJECTED_WAIT_MS);
    expect(legacy.connection.getState().connectors.map(({ type, name }) => [type, name])).toEqual([
      ['ANNOUNCED', 'Test Wallet'],
      ['INJECTED', 'Browser Wallet'],
    ]);
  });
});
