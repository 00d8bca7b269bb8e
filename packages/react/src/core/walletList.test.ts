import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogueServer, catalogueWallet, testCatalogue } from '../test/catalogue.js';
import { createTestLatch, createTestProvider, stubGateway, testWalletInfo } from '../test/fixtures.js';
import type { LatchOptions } from './createLatch.js';
import { STORAGE_KEYS } from './storage.js';
import { IMAGE_PREFETCH_COUNT, RECENT_WALLETS_MAX, SEARCH_DEBOUNCE_MS, SEARCH_RESULTS_MAX, WALLET_PAGE_SIZE } from './walletList.js';

// `fetch` is stubbed with a stand-in for the Latch server's `/getWallets` (unit tests have no
// server); the end-to-end tests run the same store against `latch serve` and the seed catalogue.
function setup(options: Partial<LatchOptions> = {}, wallets = testCatalogue()) {
  const server = catalogueServer(wallets);
  stubGateway(undefined, { wallets: server.respond });
  const latch = createTestLatch(options);
  const state = () => latch.walletList.store.getState();
  return { server, latch, state };
}

const ids = (wallets: readonly { id: string }[]) => wallets.map((wallet) => wallet.id);
/** Lets a released answer arrive (and be dropped). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

afterEach(() => {
  vi.useRealTimers();
});

describe('wallet list store', () => {
  it('uses the behaviour 7.8 numbers from latch-core', () => {
    expect([WALLET_PAGE_SIZE, SEARCH_RESULTS_MAX, SEARCH_DEBOUNCE_MS, IMAGE_PREFETCH_COUNT, RECENT_WALLETS_MAX]).toEqual([
      40, 100, 300, 20, 2,
    ]);
  });

  it('loads featured (configured ids, in their order) and 4 recommended when the modal opens', async () => {
    const { server, latch, state } = setup({ featuredWalletIds: ['wallet-30', 'wallet-2', 'missing'] });
    expect(state().status).toBe('idle');
    latch.modal.open();
    expect(state().status).toBe('loading');
    await vi.waitFor(() => expect(state().status).toBe('ready'));
    expect(ids(state().featured)).toEqual(['wallet-30', 'wallet-2']);
    expect(ids(state().recommended)).toEqual(['wallet-0', 'wallet-1', 'wallet-3', 'wallet-4']);
    expect(state().count).toBe(93);
    const recommendedQuery = server.requests.find((query) => query.get('entries') === '4')!;
    expect(recommendedQuery.get('exclude')).toBe('wallet-30,wallet-2,missing');
    expect(recommendedQuery.get('chains')).toBe('eip155:31337');
    // Opening again does not read again.
    latch.modal.close();
    latch.modal.open();
    expect(server.requests).toHaveLength(2);
  });

  it('features the first 4 of the catalogue without configured ids, in one request', async () => {
    const { server, latch, state } = setup();
    await latch.walletList.load();
    expect(ids(state().featured)).toEqual(['wallet-0', 'wallet-1', 'wallet-2', 'wallet-3']);
    expect(ids(state().recommended)).toEqual(['wallet-4', 'wallet-5', 'wallet-6', 'test-wallet']);
    expect(server.requests.map((query) => query.get('entries'))).toEqual(['8']);
  });

  it('excludes excludeWalletIds everywhere and learns their rdns and names to hide installed copies', async () => {
    const wallets = [catalogueWallet('mm', 'MetaMask', { rdns: 'io.metamask' }), ...testCatalogue()];
    const { server, latch, state } = setup({ excludeWalletIds: ['mm'], includeWalletIds: [] }, wallets);
    await latch.walletList.load();
    expect(state().restricted).toEqual({ rdns: ['io.metamask'], names: ['MetaMask'] });
    expect(ids(state().featured)).not.toContain('mm');
    await latch.walletList.loadNextPage();
    expect(server.requests.at(-1)!.get('exclude')).toBe('mm');
    expect(server.requests.at(-1)!.has('include')).toBe(false);
  });

  it('tries a failed load again on the next opening', async () => {
    const { server, latch, state } = setup();
    server.fail(503);
    await latch.walletList.load();
    expect(state().status).toBe('error');
    server.fail(undefined);
    latch.modal.open();
    await vi.waitFor(() => expect(state().status).toBe('ready'));
  });

  it('reads once per opening: a failed read before the opening shows is not repeated by it', async () => {
    const { server, latch, state } = setup();
    server.fail(503);
    latch.modal.open();
    await vi.waitFor(() => expect(latch.modal.store.getState().open).toBe(true));
    await settle();
    expect(state().status).toBe('error');
    expect(server.requests).toHaveLength(1);
  });

  it('an opening given up before it showed does not spare the next opening its read', async () => {
    const { server, latch, state } = setup();
    server.fail(503);
    latch.modal.open();
    latch.modal.close();
    await settle();
    expect(state().status).toBe('error');
    server.fail(undefined);
    // All wallets opens without waiting on a read (no prepare), so only the opening reads.
    latch.modal.open({ view: 'AllWallets' });
    await vi.waitFor(() => expect(state().status).toBe('ready'));
    expect(server.requests).toHaveLength(2);
  });

  it('reads the full list in pages of 40, one at a time, until the count is reached', async () => {
    const { server, latch, state } = setup();
    server.hold();
    const first = latch.walletList.loadNextPage();
    void latch.walletList.loadNextPage();
    expect(server.requests).toHaveLength(1);
    server.release();
    await first;
    expect(state().list).toMatchObject({ page: 1, count: 93, status: 'ready' });
    expect(state().list.wallets).toHaveLength(40);
    await latch.walletList.loadNextPage();
    await latch.walletList.loadNextPage();
    expect(state().list.wallets).toHaveLength(93);
    expect(new Set(ids(state().list.wallets)).size).toBe(93);
    await latch.walletList.loadNextPage();
    expect(server.requests.map((query) => [query.get('page'), query.get('entries')])).toEqual([
      ['1', '40'],
      ['2', '40'],
      ['3', '40'],
    ]);
  });

  it('does not retry a failed page by itself, only when asked', async () => {
    const { server, latch, state } = setup();
    server.fail(500);
    await latch.walletList.loadNextPage();
    expect(state().list.status).toBe('error');
    server.fail(undefined);
    await latch.walletList.loadNextPage();
    expect(server.requests).toHaveLength(1);
    await latch.walletList.loadNextPage({ retry: true });
    expect(state().list).toMatchObject({ page: 1, status: 'ready' });
  });

  it('prefetches the images of the first 20 wallets of each page (behaviour 7.8)', async () => {
    const server = catalogueServer(testCatalogue());
    stubGateway(undefined, { wallets: server.respond });
    const { createWalletList } = await import('./walletList.js');
    const { createCatalogueClient } = await import('./catalogue.js');
    const latch = createTestLatch();
    const prefetched: string[] = [];
    const list = createWalletList({
      catalogue: createCatalogueClient({ projectId: 'p', getServerUrl: () => 'http://latch.test' }),
      connection: latch.connection,
      modal: latch.modal,
      storage: window.localStorage,
      networks: latch.networks,
      prefetchImage: async (url) => void prefetched.push(url),
    });
    await list.loadNextPage();
    await list.loadNextPage();
    expect(prefetched).toHaveLength(40);
    expect(prefetched[0]).toBe('http://latch.test/getWalletImage/wallet-0?projectId=p&st=latch-react&sv=0.1.0');
    expect(prefetched[20]).toBe('http://latch.test/getWalletImage/wallet-40?projectId=p&st=latch-react&sv=0.1.0');
  });

  it('searches 300 ms after the last keystroke, for at most 100 results, and ignores stale answers', async () => {
    vi.useFakeTimers();
    const { server, latch, state } = setup();
    latch.walletList.setSearch('w');
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    latch.walletList.setSearch('wa');
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    latch.walletList.setSearch('wallet 1');
    expect(state().search).toMatchObject({ query: 'wallet 1', status: 'loading' });
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    expect(server.requests).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.get('search')).toBe('wallet 1');
    expect(server.requests[0]!.get('entries')).toBe(String(SEARCH_RESULTS_MAX));
    vi.useRealTimers();
    await vi.waitFor(() => expect(state().search.status).toBe('ready'));
    expect(state().search.wallets).toHaveLength(11);

    // Closing the modal ends the search.
    latch.modal.open();
    await vi.waitFor(() => expect(latch.modal.store.getState().open).toBe(true));
    latch.modal.close();
    expect(state().search).toEqual({ query: '', wallets: [], count: 0, status: 'idle' });

    // An answer that arrives after the query changed is dropped.
    server.hold();
    latch.walletList.setSearch('wallet 2');
    await vi.waitFor(() => expect(server.requests.filter((query) => query.has('search'))).toHaveLength(2));
    latch.walletList.setSearch('');
    expect(state().search).toEqual({ query: '', wallets: [], count: 0, status: 'idle' });
    server.release();
    await settle();
    expect(state().search.status).toBe('idle');
  });

  it('remembers the 2 wallets connected last, newest first, across reloads (behaviour 2.14, 7.3)', async () => {
    const wallets = [
      catalogueWallet('one', 'One', { rdns: 'dev.one' }),
      catalogueWallet('two', 'Two', { rdns: 'dev.two' }),
      ...testCatalogue(),
    ];
    const { latch, state } = setup({}, wallets);
    latch.mount(window);
    const announce = (rdns: string, name: string) =>
      window.dispatchEvent(
        new CustomEvent('eip6963:announceProvider', {
          detail: { info: { ...testWalletInfo, uuid: rdns, rdns, name }, provider: createTestProvider() },
        }),
      );
    announce('dev.one', 'One');
    announce('dev.two', 'Two');
    announce(testWalletInfo.rdns, testWalletInfo.name);
    for (const rdns of ['dev.one', 'dev.two', testWalletInfo.rdns]) {
      await latch.connect(rdns);
      latch.disconnect();
    }
    await vi.waitFor(() => expect(state().recent[1]?.wallet?.id).toBe('two'));
    expect(state().recent.map((item) => item.rdns)).toEqual([testWalletInfo.rdns, 'dev.two']);
    // Its catalogue entry was looked up by rdns, so it can be offered once uninstalled.
    await vi.waitFor(() => expect(state().recent[0]?.wallet?.id).toBe('test-wallet'));

    const reloaded = setup().latch;
    expect(reloaded.walletList.store.getState().recent.map((item) => item.name)).toEqual(['Test Wallet', 'Two']);
  });

  it('reads unreadable stored recent wallets as none', () => {
    for (const stored of ['not json', '{"a":1}', '[{"rdns":7}]', '[null]']) {
      window.localStorage.setItem(STORAGE_KEYS.recentWallets, stored);
      expect(setup().state().recent).toEqual([]);
    }
  });
});
