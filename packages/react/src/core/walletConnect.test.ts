import { init } from '@latch/wasm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT, CHECKSUMMED_ACCOUNT, createTestProvider, devnet, stubGateway } from '../test/fixtures.js';
import { createConnectionController } from './connection.js';
import { createEventBus } from './events.js';
import { createGateway } from './gateway.js';
import { createModalController, currentView } from './modal.js';
import { STORAGE_KEYS, type KeyValueStorage } from './storage.js';
import {
  createWalletConnect,
  WALLET_CONNECT_CONNECTOR_ID,
  type WalletConnectModule,
  type WalletConnectMetadata,
  type WalletConnectProvider,
} from './walletConnect.js';

// The WalletConnect engine here is a test double of `@latch/wasm-walletconnect` (the real engine
// needs a relay and a wallet): these tests pin the controller's rules (link lifetime, retry gap,
// closing, restoring). The real engine, relay and the official wallet client run together in
// e2e/tests/walletconnect-modal.spec.ts.

const NOW = 1_700_000_000_000;

function memoryStorage(): KeyValueStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

/** A session as the engine reports it once `metadata`'s wallet approved. */
function approvedSession(metadata: WalletConnectMetadata): NonNullable<WalletConnectProvider['session']> {
  return {
    topic: 'ab'.repeat(32),
    pairingTopic: 'cd'.repeat(32),
    expiry: NOW / 1000 + 7 * 24 * 3600,
    namespaces: {},
    requiredNamespaces: {},
    optionalNamespaces: {},
    peer: { publicKey: 'ef'.repeat(32), metadata },
    selfPublicKey: '01'.repeat(32),
  };
}

function fakeEngine() {
  type Session = NonNullable<WalletConnectProvider['session']>;
  const approvals: { resolve(session: Session): void; reject(error: unknown): void }[] = [];
  const wallet = createTestProvider({ eth_accounts: [ACCOUNT] });
  const provider = {
    ...wallet,
    session: undefined as WalletConnectProvider['session'],
    connect: vi.fn(async () => {
      const approval = new Promise<Session>((resolve, reject) => approvals.push({ resolve, reject }));
      return { uri: `wc:topic${approvals.length}@2?relay-protocol=irn&symKey=00`, id: approvals.length, approval };
    }),
    disconnect: vi.fn(async () => undefined),
  };
  const module: WalletConnectModule = {
    init: async () => undefined,
    qrCode: (text) => ({ size: 21, path: `M0 0h${text.length}v1h-${text.length}z` }),
    WalletConnectProvider: { create: vi.fn(async () => provider) },
  };
  /** The wallet approves proposal `index` (0-based). */
  const approve = (index = approvals.length - 1) => {
    provider.session = approvedSession({ name: 'Paired Wallet', description: '', url: 'https://w.example' });
    approvals[index]!.resolve(provider.session!);
  };
  return { module, provider, approvals, approve };
}

function setup({ storage = memoryStorage() }: { storage?: KeyValueStorage } = {}) {
  let now = NOW;
  const events = createEventBus();
  const isConnected = () => connection.connection.getState().status === 'connected';
  const modal = createModalController({ events, isConnected });
  const gateway = createGateway({ projectId: 'p', getServerUrl: () => 'http://latch.test' });
  const connection = createConnectionController({ modal, gateway, networks: [devnet], events, storage });
  const engine = fakeEngine();
  const load = vi.fn(async () => engine.module);
  const walletConnect = createWalletConnect({
    projectId: 'p',
    getServerUrl: () => 'http://latch.test',
    networks: [devnet],
    options: { metadata: { name: 'Demo', description: '', url: 'http://demo.test' } },
    modal,
    connection,
    storage,
    load,
    now: () => now,
  });
  return { modal, connection, walletConnect, engine, load, storage, tick: (ms: number) => (now += ms) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('WalletConnect pairing', () => {
  beforeAll(() => init());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows a QR code of a new proposal for the configured chains, expiring in 4 minutes', async () => {
    const { modal, walletConnect, engine } = setup();
    modal.open();
    walletConnect.start();
    expect(currentView(modal.store.getState())).toBe('ConnectingWalletConnectBasic');
    expect(walletConnect.store.getState().status).toBe('loading');
    await settle();
    const state = walletConnect.store.getState();
    expect(state).toMatchObject({
      status: 'ready',
      uri: expect.stringMatching(/^wc:topic1@2/),
      pairingExpiry: NOW + 240_000,
    });
    expect(state.qr?.path).toContain('M0 0h');
    expect(engine.module.WalletConnectProvider.create).toHaveBeenCalledWith(
      expect.objectContaining({ relayUrl: 'ws://latch.test/relay', projectId: 'p', gatewayUrl: 'http://latch.test' }),
    );
    expect(engine.provider.connect).toHaveBeenCalledWith({
      optionalNamespaces: { eip155: expect.objectContaining({ chains: ['eip155:31337'] }) },
      defaultChain: 'eip155:31337',
    });
  });

  it('preloads the module once without connecting, and pairs with it later', async () => {
    const { modal, walletConnect, engine, load } = setup();
    walletConnect.preload();
    walletConnect.preload();
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    expect(engine.module.WalletConnectProvider.create).not.toHaveBeenCalled();
    modal.open();
    walletConnect.start();
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    expect(walletConnect.store.getState().status).toBe('ready');
  });

  it('loads again on pairing when the preload failed', async () => {
    const { modal, walletConnect, engine, load } = setup();
    load.mockRejectedValueOnce(new Error('offline'));
    walletConnect.preload();
    await settle();
    modal.open();
    walletConnect.start();
    await settle();
    expect(load).toHaveBeenCalledTimes(2);
    expect(engine.module.WalletConnectProvider.create).toHaveBeenCalledTimes(1);
    expect(walletConnect.store.getState().status).toBe('ready');
  });

  it('connects when the wallet approves, and remembers the session for a reload', async () => {
    stubGateway();
    const { modal, connection, walletConnect, engine, storage } = setup();
    modal.open();
    walletConnect.start();
    await settle();
    engine.approve();
    await vi.waitFor(() => expect(connection.connection.getState().status).toBe('connected'));
    expect(connection.account.getState().address).toBe(CHECKSUMMED_ACCOUNT);
    expect(connection.connection.getState().activeConnectorId).toBe(WALLET_CONNECT_CONNECTOR_ID);
    expect(storage.getItem(STORAGE_KEYS.connectedWallet)).toBe(WALLET_CONNECT_CONNECTOR_ID);
    expect(currentView(modal.store.getState())).toBe('Account');
    // The pairing link is spent.
    expect(walletConnect.store.getState().uri).toBeUndefined();
    // Disconnecting ends the session at the wallet too.
    connection.disconnect();
    expect(engine.provider.disconnect).toHaveBeenCalled();
  });

  it('reuses a valid link, and renews it 10 s before it expires while shown', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { modal, walletConnect, engine, tick } = setup();
    modal.open();
    walletConnect.start();
    await vi.waitFor(() => expect(walletConnect.store.getState().status).toBe('ready'));
    modal.back();
    modal.open();
    walletConnect.start(); // a second visit within the lifetime: the same proposal
    expect(engine.provider.connect).toHaveBeenCalledTimes(1);
    tick(230_000);
    await vi.advanceTimersByTimeAsync(230_000);
    await vi.waitFor(() => expect(engine.provider.connect).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => expect(walletConnect.store.getState().uri).toMatch(/^wc:topic2@2/));
    expect(walletConnect.store.getState().pairingExpiry).toBe(NOW + 230_000 + 240_000);
  });

  it('makes a link when the modal opens on the QR code view directly', async () => {
    const { modal, walletConnect, engine } = setup();
    modal.open({ view: 'ConnectingWalletConnectBasic' });
    expect(walletConnect.store.getState().status).toBe('loading');
    await settle();
    expect(walletConnect.store.getState().status).toBe('ready');
    expect(engine.provider.connect).toHaveBeenCalledTimes(1);
  });

  it('resets the link when the modal closes (behaviour 1.5)', async () => {
    const { modal, connection, walletConnect, engine } = setup();
    modal.open();
    walletConnect.start();
    await settle();
    modal.close();
    expect(walletConnect.store.getState()).toMatchObject({ status: 'idle', uri: undefined });
    // A later approval of the abandoned proposal connects nothing; opening again makes a new one.
    engine.approve(0);
    await settle();
    expect(connection.connection.getState().status).toBe('disconnected');
    modal.open();
    walletConnect.start();
    await settle();
    expect(engine.provider.connect).toHaveBeenCalledTimes(2);
  });

  it('shows a refusal and allows a retry only after 1 s', async () => {
    const { modal, walletConnect, engine, tick } = setup();
    modal.open();
    walletConnect.start();
    await settle();
    engine.approvals[0]!.reject(Object.assign(new Error('User rejected.'), { code: 5000 }));
    await vi.waitFor(() => expect(walletConnect.store.getState().status).toBe('error'));
    expect(walletConnect.store.getState().error).toMatchObject({ code: 5000 });
    tick(500);
    expect(walletConnect.retry()).toBe(false);
    tick(500);
    expect(walletConnect.retry()).toBe(true);
    await settle();
    expect(walletConnect.store.getState().status).toBe('ready');
  });

  it('restores a persisted session on reload without a new pairing', async () => {
    stubGateway();
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.connectedWallet, WALLET_CONNECT_CONNECTOR_ID);
    const { connection, walletConnect, engine } = setup({ storage });
    const metadata = { name: 'Paired Wallet', description: '', url: 'https://w.example' };
    engine.provider.session = approvedSession(metadata);
    connection.restore();
    expect(connection.connection.getState().status).toBe('connecting');
    await walletConnect.restore();
    expect(connection.connection.getState().status).toBe('connected');
    expect(engine.provider.connect).not.toHaveBeenCalled();
    expect(connection.connection.getState().connectors[0]?.name).toBe('Paired Wallet');
  });

  it('ends the wait when the persisted session is gone', async () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.connectedWallet, WALLET_CONNECT_CONNECTOR_ID);
    const { connection, walletConnect } = setup({ storage });
    connection.restore();
    await walletConnect.restore();
    expect(connection.connection.getState().status).toBe('disconnected');
    expect(storage.getItem(STORAGE_KEYS.connectedWallet)).toBeNull();
  });
});
