import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubOnrampServer } from '../test/onrampServer.js';
import { createOnramp } from './onramp.js';
import { createStore } from './store.js';
import { createToasts } from './toasts.js';

// `fetch` stands in for the Latch server (its answers are the shapes crates/latch-server/tests/onramp.rs
// checks against the real one); the real server, sandbox checkout and devnet run in e2e/tests/buy.spec.ts.
describe('onramp store', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function make(open: (url: string) => Window | null = () => null, followMs?: number) {
    const account = createStore<{ address?: string; caipNetworkId?: `${string}:${string}` }>({
      address: '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae',
      caipNetworkId: 'eip155:31337',
    });
    const refresh = vi.fn(async () => undefined);
    const toasts = createToasts();
    const onramp = createOnramp({
      server: { projectId: 'p', getServerUrl: () => 'http://127.0.0.1:8787' },
      account,
      refresh,
      toasts,
      onrampChain: async () => 'ethereum',
      open,
      debounceMs: 500,
      pollMs: 100,
      followMs,
    });
    return { onramp, refresh, toasts };
  }

  it('picks the asset on the account’s chain, and debounces the quote by 500 ms', async () => {
    const bodies = stubOnrampServer();
    const { onramp } = make();
    await onramp.load();
    expect(onramp.store.getState()).toMatchObject({ status: 'ready', asset: 'ETH', network: 'eip155:31337', currency: 'USD', method: 'CARD' });
    vi.useFakeTimers();
    onramp.set({ amount: '2' });
    onramp.set({ amount: '25' });
    expect(onramp.store.getState().quoting).toBe(true);
    await vi.advanceTimersByTimeAsync(499);
    expect(bodies).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(onramp.store.getState().quote?.purchaseAmount.amount).toBe('0.0099'));
    expect(bodies).toEqual([{ path: '/v1/onramp/quote', purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '25', network: 'eip155:31337', paymentMethod: 'CARD', provider: 'sandbox' }]);
  });

  it('shows the server’s limit refusals and keeps the submit closed', async () => {
    stubOnrampServer();
    const { onramp } = make();
    await onramp.load();
    vi.useFakeTimers();
    onramp.set({ amount: '5' });
    await vi.advanceTimersByTimeAsync(500);
    await vi.waitFor(() => expect(onramp.store.getState().error).toBe('buyErrorBelowMin'));
    expect(onramp.store.getState().quote).toBeUndefined();
    onramp.set({ amount: '9000' });
    await vi.advanceTimersByTimeAsync(500);
    await vi.waitFor(() => expect(onramp.store.getState().error).toBe('buyErrorAboveMax'));
  });

  it('falls back to the asset’s first network when switching assets', async () => {
    stubOnrampServer();
    const { onramp } = make();
    await onramp.load();
    onramp.set({ asset: 'USDC' });
    expect(onramp.store.getState().network).toBe('base');
    onramp.dispose();
  });

  it('opens the checkout in a popup, polls while it is open and refreshes when it closes', async () => {
    const bodies = stubOnrampServer();
    const popup = { closed: false, location: { href: '' }, close: vi.fn() };
    const { onramp, refresh, toasts } = make(() => popup as unknown as Window);
    await onramp.load();
    onramp.set({ amount: '25' });
    await vi.waitFor(() => expect(onramp.store.getState().quote).toBeDefined(), { timeout: 2000 });
    await onramp.submit();
    expect(popup.location.href).toBe('http://127.0.0.1:8787/onramp/sandbox?session=ab');
    expect(bodies.at(-1)).toMatchObject({
      path: '/v1/generators/onrampurl',
      destinationWallets: [{ address: '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae', blockchains: ['eip155:31337'], assets: ['ETH'] }],
      defaultExperience: 'buy',
      presetFiatAmount: '25',
    });
    expect(onramp.store.getState().following).toBe(true);
    await vi.waitFor(() => expect(refresh).toHaveBeenCalled());
    popup.closed = true;
    await vi.waitFor(() => expect(onramp.store.getState().following).toBe(false));
    expect(toasts.store.getState().current?.message).toBe('buyFollowDone');
  });

  it('follows a purchase without a window to watch for a bounded time, one read at a time', async () => {
    stubOnrampServer();
    const opened = vi.fn(() => null);
    vi.stubGlobal('open', opened);
    const { onramp, refresh } = make(() => null, 1000);
    await onramp.load();
    onramp.set({ amount: '25' });
    await vi.waitFor(() => expect(onramp.store.getState().quote).toBeDefined(), { timeout: 2000 });
    let finish = () => {};
    refresh.mockImplementation(() => new Promise<undefined>((resolve) => (finish = () => resolve(undefined))));
    vi.useFakeTimers();
    await onramp.submit();
    expect(opened).toHaveBeenCalledWith('http://127.0.0.1:8787/onramp/sandbox?session=ab', '_blank', 'noopener');
    expect(onramp.store.getState().following).toBe(true);
    await vi.advanceTimersByTimeAsync(350);
    // The first read is still under way: the later ticks do not start another.
    expect(refresh).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(refresh).toHaveBeenCalledTimes(2);
    finish();
    await vi.advanceTimersByTimeAsync(600);
    expect(onramp.store.getState().following).toBe(false);
    const reads = refresh.mock.calls.length;
    await vi.advanceTimersByTimeAsync(1000);
    expect(refresh).toHaveBeenCalledTimes(reads);
  });
});
