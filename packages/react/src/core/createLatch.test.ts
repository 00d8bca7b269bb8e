import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHECKSUMMED_ACCOUNT,
  createTestLatch,
  createTestProvider,
  devnet,
  installWallet,
  openAndConnect,
  rpcResult,
  stubGateway,
  testWalletInfo,
  userRejection,
  type TestProvider,
  whenOpen,
} from '../test/fixtures.js';
import { createLatch } from './createLatch.js';
import { currentView } from './modal.js';
import { SDK_VERSION } from './sdk.js';
import type { LatchEvent } from './events.js';
import type { KeyValueStorage } from './storage.js';

function memoryStorage(entries: Record<string, string> = {}): KeyValueStorage {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

// Wallets are EIP-1193 test doubles (no browser wallet runs in jsdom) and `fetch` is stubbed in
// place of the Latch server's gateway; both real paths are covered by the end-to-end tests.
describe('createLatch', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  function connectable(provider: TestProvider = createTestProvider()) {
    const latch = createTestLatch();
    installWallet(provider);
    cleanups.push(latch.mount(window));
    return { latch, provider, connect: () => latch.connect(testWalletInfo.uuid) };
  }

  it('requires a project id', async () => {
    expect(() => createTestLatch({ projectId: '' })).toThrow('Project ID Not Configured');
  });

  it('without EIP-6963 discovery opens on the QR code on a desktop and on the wallet list on a phone (behaviour 1.3)', async () => {
    installWallet(createTestProvider());
    const latch = createTestLatch({ enableEIP6963: false, walletConnect: { relayUrl: 'ws://127.0.0.1:9/relay' } });
    cleanups.push(latch.mount(window));
    expect(latch.connection.getState().connectors).toEqual([]);
    latch.modal.open();
    await whenOpen(latch);
    expect(currentView(latch.modal.store.getState())).toBe('ConnectingWalletConnectBasic');
    latch.modal.close();
    const agent = vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone) Mobile');
    cleanups.push(() => agent.mockRestore());
    latch.modal.open();
    await whenOpen(latch);
    expect(currentView(latch.modal.store.getState())).toBe('AllWallets');
    // With discovery on (the default) it is the Connect view.
    const usual = createTestLatch();
    usual.modal.open();
    await whenOpen(usual);
    expect(currentView(usual.modal.store.getState())).toBe('Connect');
  });

  it('resolves the optional features from the documented defaults (behaviour 7.9) and the host\'s overrides', () => {
    expect(createTestLatch().features).toMatchObject({ allWallets: true, history: true, legalCheckbox: false });
    const latch = createTestLatch({ features: { history: false, legalCheckbox: true } });
    expect(latch.features).toMatchObject({ allWallets: true, history: false, legalCheckbox: true, analytics: true });
  });

  it('asks the server about analytics only with the analytics feature on', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(new URL(url).pathname);
      return Response.json({ isAnalyticsEnabled: false, count: 0, data: [] });
    });
    const configReads = () => asked.filter((path) => path === '/getAnalyticsConfig').length;
    // Mounted first, the instance with the feature off would have asked first.
    cleanups.push(createTestLatch({ features: { analytics: false } }).mount(window));
    cleanups.push(createTestLatch().mount(window));
    await vi.waitFor(() => expect(configReads()).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(configReads()).toBe(1);
  });

  it('keeps two instances independent', async () => {
    const first = createTestLatch();
    const second = createTestLatch();
    first.modal.open();
    await whenOpen(first);
    expect(second.modal.store.getState().open).toBe(false);
  });

  it('reports modal events to onEvent and to subscribers', async () => {
    const seen: string[] = [];
    const latch = createTestLatch({ onEvent: (event) => seen.push(`option:${event.type}`) });
    latch.subscribeEvents((event) => seen.push(`subscriber:${event.type}`));
    latch.modal.open();
    await whenOpen(latch);
    latch.modal.close();
    expect(seen).toEqual([
      'option:MODAL_OPEN',
      'subscriber:MODAL_OPEN',
      'option:MODAL_CLOSE',
      'subscriber:MODAL_CLOSE',
    ]);
  });

  it('reports INITIALIZE once mounted, with the networks and the SDK version', () => {
    const seen: LatchEvent[] = [];
    const latch = createTestLatch({ onEvent: (event) => seen.push(event) });
    expect(seen).toEqual([]);
    cleanups.push(latch.mount(window));
    expect(seen).toContainEqual({ type: 'INITIALIZE', data: { networks: ['eip155:31337'], sdkVersion: SDK_VERSION } });
  });

  it('connects: accounts, chain, CAIP address, provider listeners and balance', async () => {
    const fetchStub = stubGateway();
    const { latch, provider, connect } = connectable();
    await openAndConnect(latch, connect);

    expect(provider.request.mock.calls.map(([{ method }]) => method)).toEqual(['eth_requestAccounts', 'eth_chainId']);
    expect(latch.connection.getState()).toMatchObject({ status: 'connected', activeConnectorId: testWalletInfo.uuid });
    expect(latch.account.getState()).toMatchObject({
      address: CHECKSUMMED_ACCOUNT,
      caipAddress: `eip155:31337:${CHECKSUMMED_ACCOUNT}`,
      caipNetworkId: 'eip155:31337',
      balance: '10000',
      balanceSymbol: 'ETH',
      balanceStatus: 'ready',
    });
    expect(currentView(latch.modal.store.getState())).toBe('Account');
    expect(latch.modal.store.getState().loading).toBe(false);
    expect(JSON.parse(fetchStub.mock.calls[0]![1]!.body as string)).toMatchObject({
      method: 'eth_getBalance',
      params: [CHECKSUMMED_ACCOUNT, 'latest'],
    });
    for (const event of ['accountsChanged', 'chainChanged', 'disconnect']) {
      expect(provider.listenerCount(event)).toBe(1);
    }
  });

  it('returns to Connect with a rejection error when the user declines (4001)', async () => {
    const { latch, connect } = connectable(createTestProvider({ eth_requestAccounts: userRejection }));
    await openAndConnect(latch, connect);
    expect(latch.connection.getState()).toMatchObject({ status: 'disconnected', error: { kind: 'rejected' } });
    expect(latch.modal.store.getState().history).toEqual(['Connect']);
  });

  it('stays on ConnectingExternal with a failure for other wallet errors', async () => {
    const failing = () => {
      throw new Error('Wallet is locked');
    };
    const { latch, connect } = connectable(createTestProvider({ eth_requestAccounts: failing }));
    await openAndConnect(latch, connect);
    expect(latch.connection.getState().error).toMatchObject({ kind: 'failed' });
    expect(currentView(latch.modal.store.getState())).toBe('ConnectingExternal');
  });

  it('forgets a failed attempt when the modal opens again', async () => {
    const { latch, connect } = connectable(createTestProvider({ eth_requestAccounts: userRejection }));
    await openAndConnect(latch, connect);
    latch.modal.open({ view: 'Connect' });
    expect(latch.connection.getState().error).toMatchObject({ kind: 'rejected' });
    latch.modal.close();
    latch.modal.open();
    await whenOpen(latch);
    expect(latch.connection.getState().error).toBeUndefined();
  });

  it('marks the balance as failed, keeping the server reason', async () => {
    stubGateway(() =>
      Response.json({ status: 'FAILED', reasons: [{ field: 'chainId', description: 'Unsupported' }] }, { status: 400 }),
    );
    const { latch, connect } = connectable();
    await connect();
    expect(latch.account.getState()).toMatchObject({
      balanceStatus: 'error',
      balanceError: { message: 'HTTP status code: 400', detail: 'Unsupported' },
    });
  });

  it('follows accountsChanged and disconnects when the wallet drops every account', async () => {
    stubGateway();
    const { latch, provider, connect } = connectable();
    await connect();
    provider.emit('accountsChanged', ['0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc']);
    expect(latch.account.getState().caipAddress).toBe('eip155:31337:0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
    provider.emit('accountsChanged', []);
    expect(latch.connection.getState().status).toBe('disconnected');
    expect(latch.account.getState().address).toBeUndefined();
    expect(provider.listenerCount('accountsChanged')).toBe(0);
  });

  it('opens UnsupportedChain when the wallet moves to an unconfigured network', async () => {
    stubGateway();
    const { latch, provider, connect } = connectable();
    await connect();
    provider.emit('chainChanged', '0x1');
    expect(latch.account.getState()).toMatchObject({ caipNetworkId: 'eip155:1', balance: undefined });
    expect(latch.modal.store.getState()).toMatchObject({ open: true, history: ['UnsupportedChain'] });
    provider.emit('chainChanged', '0x7a69');
    expect(latch.modal.store.getState().history).toEqual(['Account']);
  });

  it('clears the account on disconnect', async () => {
    stubGateway();
    const { latch, provider, connect } = connectable();
    await openAndConnect(latch, connect);
    provider.emit('disconnect');
    expect(latch.connection.getState()).toMatchObject({ status: 'disconnected', activeConnectorId: undefined });
    expect(latch.account.getState()).toEqual(expect.objectContaining({ address: undefined, balance: undefined }));
    expect(latch.modal.store.getState().open).toBe(false);
  });

  describe('switchNetwork', () => {
    const devnetB = { ...devnet, id: 31338, caipNetworkId: 'eip155:31338' as const, name: 'Devnet B' };
    const unknownChain = () => {
      throw Object.assign(new Error('Unrecognized chain ID'), { code: 4902 });
    };

    it('asks the wallet to switch and follows the chain it reports', async () => {
      stubGateway();
      let chain = '0x7a69';
      const provider = createTestProvider({
        eth_chainId: () => chain,
        wallet_switchEthereumChain: (params: [{ chainId: string }]) => {
          chain = params[0].chainId;
          return null;
        },
      });
      const latch = createTestLatch({ networks: [devnet, devnetB] });
      installWallet(provider);
      cleanups.push(latch.mount(window));
      await latch.connect(testWalletInfo.uuid);
      const seen: LatchEvent[] = [];
      latch.subscribeEvents((event) => seen.push(event));
      await latch.switchNetwork(devnetB);
      expect(provider.request).toHaveBeenCalledWith({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] });
      expect(latch.account.getState().caipNetworkId).toBe('eip155:31338');
      expect(seen).toContainEqual({ type: 'SWITCH_NETWORK', data: { caipNetworkId: 'eip155:31338' } });
    });

    it('adds the chain on 4902 and says Chain is not supported when adding fails', async () => {
      stubGateway();
      const provider = createTestProvider({
        wallet_switchEthereumChain: unknownChain,
        wallet_addEthereumChain: () => {
          throw Object.assign(new Error('cannot add'), { code: -32603 });
        },
      });
      const latch = createTestLatch({ networks: [devnet, devnetB] });
      installWallet(provider);
      cleanups.push(latch.mount(window));
      await latch.connect(testWalletInfo.uuid);
      await expect(latch.switchNetwork(devnetB)).rejects.toMatchObject({
        name: 'NetworkSwitchError',
        kind: 'unsupported',
        message: 'Chain is not supported',
      });
      expect(provider.request).toHaveBeenCalledWith({
        method: 'wallet_addEthereumChain',
        params: [
          {
            chainId: '0x7a6a',
            chainName: 'Devnet B',
            nativeCurrency: devnet.nativeCurrency,
            rpcUrls: devnet.rpcUrls.default.http,
          },
        ],
      });
      expect(latch.account.getState().caipNetworkId).toBe('eip155:31337');
    });

    it('reports a declined switch as rejected, without adding', async () => {
      stubGateway();
      const provider = createTestProvider({ wallet_switchEthereumChain: userRejection });
      const latch = createTestLatch({ networks: [devnet, devnetB] });
      installWallet(provider);
      cleanups.push(latch.mount(window));
      await latch.connect(testWalletInfo.uuid);
      await expect(latch.switchNetwork(devnetB)).rejects.toMatchObject({ kind: 'rejected' });
      expect(provider.request.mock.calls.map(([{ method }]) => method)).not.toContain('wallet_addEthereumChain');
    });

    it('without a wallet makes the host\'s network active and stores it, refusing others', async () => {
      const storage = memoryStorage();
      const latch = createTestLatch({ networks: [devnet, devnetB], storage });
      const seen: LatchEvent[] = [];
      latch.subscribeEvents((event) => seen.push(event));
      await latch.switchNetwork(devnetB);
      expect(latch.network.getState()).toMatchObject({ activeNetwork: devnetB, activeNamespace: 'eip155', supported: true });
      expect(storage.getItem('@latch/active-network')).toBe('eip155:31338');
      expect(seen).toContainEqual({ type: 'SWITCH_NETWORK', data: { caipNetworkId: 'eip155:31338' } });
      const unlisted = { ...devnet, id: 5, caipNetworkId: 'eip155:5' as const };
      await expect(latch.switchNetwork(unlisted)).rejects.toMatchObject({ kind: 'unsupported' });
    });

    it('marks the namespace loading while the wallet switches, and stores the new network', async () => {
      stubGateway();
      let chain = '0x7a69';
      let release = () => {};
      const provider = createTestProvider({
        eth_chainId: () => chain,
        wallet_switchEthereumChain: (params: [{ chainId: string }]) =>
          new Promise((resolve) => {
            release = () => {
              chain = params[0].chainId;
              resolve(null);
            };
          }),
      });
      const storage = memoryStorage();
      const latch = createTestLatch({ networks: [devnet, devnetB], storage });
      installWallet(provider);
      cleanups.push(latch.mount(window));
      await latch.connect(testWalletInfo.uuid);
      expect(latch.modal.store.getState().namespaceLoading).toEqual({ eip155: false });
      const switching = latch.switchNetwork(devnetB);
      await vi.waitFor(() => expect(latch.modal.store.getState().namespaceLoading).toEqual({ eip155: true }));
      release();
      await switching;
      expect(latch.modal.store.getState().namespaceLoading).toEqual({ eip155: false });
      expect(storage.getItem('@latch/active-network')).toBe('eip155:31338');
      expect(storage.getItem('@latch/active-namespace')).toBe('eip155');
    });
  });

  describe('networks across reloads (behaviour 2.14, 3.6)', () => {
    const devnetB = { ...devnet, id: 31338, caipNetworkId: 'eip155:31338' as const, name: 'Devnet B' };

    it('persists the connected namespace and connector, and forgets them on disconnect', async () => {
      stubGateway();
      const storage = memoryStorage();
      const latch = createTestLatch({ storage });
      installWallet(createTestProvider());
      cleanups.push(latch.mount(window));
      await latch.connect(testWalletInfo.uuid);
      expect(storage.getItem('@latch/connected-namespaces')).toBe('["eip155"]');
      expect(storage.getItem('@latch/connector-id/eip155')).toBe(testWalletInfo.rdns);
      latch.disconnect();
      expect(storage.getItem('@latch/connected-namespaces')).toBeNull();
      expect(storage.getItem('@latch/connector-id/eip155')).toBeNull();
    });

    it('restores the stored network at mount, before any wallet', async () => {
      const storage = memoryStorage({ '@latch/active-network': 'eip155:31338' });
      const latch = createTestLatch({ networks: [devnet, devnetB], storage });
      expect(latch.network.getState().activeNetwork).toBe(devnet);
      cleanups.push(latch.mount(window));
      await vi.waitFor(() => expect(latch.network.getState().activeNetwork).toBe(devnetB));
    });

    it('with allowUnsupportedChain, a wallet on an unlisted chain shows Account on the placeholder (behaviour 3.4)', async () => {
      stubGateway();
      const latch = createTestLatch({ allowUnsupportedChain: true, storage: memoryStorage() });
      installWallet(createTestProvider({ eth_chainId: '0x1' }));
      cleanups.push(latch.mount(window));
      latch.modal.open();
      await whenOpen(latch);
      await latch.connect(testWalletInfo.uuid);
      expect(currentView(latch.modal.store.getState())).toBe('Account');
      await vi.waitFor(() =>
        expect(latch.network.getState()).toMatchObject({ supported: false, activeNetwork: { caipNetworkId: 'eip155:1', name: 'Unknown Network' } }),
      );
      expect(latch.account.getState().balanceStatus).toBe('idle');
    });

    it('without it, the placeholder is active and UnsupportedChain opens', async () => {
      stubGateway();
      const latch = createTestLatch({ storage: memoryStorage() });
      installWallet(createTestProvider({ eth_chainId: '0x1' }));
      cleanups.push(latch.mount(window));
      await latch.connect(testWalletInfo.uuid);
      expect(currentView(latch.modal.store.getState())).toBe('UnsupportedChain');
      await vi.waitFor(() =>
        expect(latch.network.getState()).toMatchObject({ supported: false, activeNetwork: { caipNetworkId: 'eip155:1' } }),
      );
    });
  });

  it('defaults the server to the page origin, read when a request is made', async () => {
    const fetchStub = stubGateway(() => rpcResult('0x0'));
    const provider = createTestProvider();
    const latch = createLatch({ projectId: 'demo', networks: [devnet] });
    installWallet(provider);
    cleanups.push(latch.mount(window));
    await latch.connect(testWalletInfo.uuid);
    expect(fetchStub.mock.calls[0]![0]).toBe(`${window.location.origin}/v1/?chainId=eip155%3A31337&projectId=demo`);
  });
});
