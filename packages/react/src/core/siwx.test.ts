import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT,
  CHECKSUMMED_ACCOUNT,
  createTestLatch,
  createTestProvider,
  installWallet,
  stubGateway,
  testWalletInfo,
  userRejection,
  uninstallWallets,
  type TestProvider,
  whenOpen,
} from '../test/fixtures.js';
import type { LatchEvent } from './events.js';
import { RESTORE_WAIT_MS } from './connection.js';
import { currentView } from './modal.js';
import type { AuthenticationAdapter, SiweConfig, SiwxSession } from './siwx.js';
import type { LatchOptions } from './createLatch.js';
import type { CaipAddress } from './types.js';

const CAIP_ACCOUNT: CaipAddress = `eip155:31337:${CHECKSUMMED_ACCOUNT}`;
const OTHER_ACCOUNT = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const SIGNATURE = `0x${'ab'.repeat(65)}`;

/**
 * A host's own sign-in backend, kept in memory: the adapter is the boundary a host implements,
 * so this is what a custom backend looks like to Latch. The default adapter (the Latch server)
 * is covered end to end against a real server.
 */
function memoryAdapter({ sessions = [] as SiwxSession[], failNonce = false, refuse = false } = {}) {
  const adapter = {
    sessions,
    getNonce: vi.fn(async () => {
      if (failNonce) throw new Error('backend down');
      return 'nonce1234';
    }),
    createMessage: vi.fn((input: Parameters<AuthenticationAdapter['createMessage']>[0]) =>
      `${input.domain} wants you to sign in with ${input.address} on ${input.chainId} (nonce ${input.nonce})`,
    ),
    verify: vi.fn(async ({ account, message, signature }: { account: CaipAddress; message: string; signature: string }) => {
      if (refuse) throw new Error('refused');
      const session: SiwxSession = { account, chainId: 'eip155:31337', message, signature };
      sessions.push(session);
      return session;
    }),
    getSession: vi.fn(async (account: CaipAddress) => sessions.find((session) => session.account === account) ?? null),
    signOut: vi.fn(async () => {
      sessions.length = 0;
    }),
  };
  return adapter satisfies AuthenticationAdapter;
}

// Wallets are EIP-1193 test doubles (no browser wallet runs in jsdom) and `fetch` is stubbed in
// place of the Latch server's gateway; the real wallet, server and sign-in are covered end to end.
describe('sign in with X', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  function setup(options: Partial<LatchOptions> = {}, provider: TestProvider = createTestProvider()) {
    stubGateway();
    const events: LatchEvent[] = [];
    const latch = createTestLatch({ onEvent: (event) => events.push(event), ...options });
    const answers = provider;
    installWallet(answers);
    cleanups.push(latch.mount(window));
    const view = () => currentView(latch.modal.store.getState());
    /** Connects from an open modal and waits for the sign-in check. */
    const connect = async () => {
      latch.modal.open();
      await whenOpen(latch);
      await latch.connect(testWalletInfo.uuid);
      await vi.waitFor(() => expect(latch.siwx.store.getState().status).not.toBe('loading'));
    };
    return { latch, provider, events, view, connect };
  }

  const signingProvider = (sign: (params: unknown) => unknown = () => SIGNATURE) =>
    createTestProvider({ personal_sign: sign });

  it('refuses siwx and siweConfig together with the documented message', () => {
    const siweConfig = {} as SiweConfig;
    expect(() => createTestLatch({ siwx: {}, siweConfig })).toThrow('Cannot set both `siweConfig` and `siwx` options');
  });

  it('is off without the option: connecting shows Account and signIn says so', async () => {
    const { latch, view, connect } = setup();
    await connect();
    expect(view()).toBe('Account');
    expect(latch.siwx.store.getState()).toMatchObject({ enabled: false, status: 'unauthenticated' });
    await expect(latch.siwx.signIn()).rejects.toThrow('SIWX is not enabled');
  });

  it('opens SIWXSignMessage after connecting without a session, then signs in and closes', async () => {
    const adapter = memoryAdapter();
    const { latch, provider, events, view, connect } = setup({ siwx: { adapter, statement: 'Welcome' } }, signingProvider());
    await connect();
    expect(latch.modal.store.getState().open).toBe(true);
    expect(view()).toBe('SIWXSignMessage');
    expect(latch.siwx.store.getState().status).toBe('unauthenticated');

    await latch.siwx.signIn();

    expect(adapter.getNonce).toHaveBeenCalledWith({ account: CAIP_ACCOUNT, domain: window.location.host });
    expect(adapter.createMessage).toHaveBeenCalledWith(
      expect.objectContaining({
        account: CAIP_ACCOUNT,
        address: CHECKSUMMED_ACCOUNT,
        chainId: 'eip155:31337',
        nonce: 'nonce1234',
        domain: window.location.host,
        uri: window.location.origin,
        statement: 'Welcome',
      }),
    );
    const message = adapter.createMessage.mock.results[0]!.value as string;
    const signCall = provider.request.mock.calls.find(([{ method }]) => method === 'personal_sign')!;
    // EIP-1193 wallets get the message as hex of its UTF-8 bytes, then the address.
    expect(signCall[0].params).toEqual([`0x${Buffer.from(message, 'utf8').toString('hex')}`, CHECKSUMMED_ACCOUNT]);
    expect(adapter.verify).toHaveBeenCalledWith({ account: CAIP_ACCOUNT, message, signature: SIGNATURE });
    expect(latch.siwx.store.getState()).toMatchObject({ status: 'authenticated', session: { account: CAIP_ACCOUNT } });
    expect(latch.modal.store.getState().open).toBe(false);
    expect(events).toContainEqual({
      type: 'SIWX_AUTH_SUCCESS',
      data: { caipNetworkId: 'eip155:31337' },
      address: CHECKSUMMED_ACCOUNT,
    });
  });

  it('skips the sign-in when the account already has a session', async () => {
    const adapter = memoryAdapter({
      sessions: [{ account: CAIP_ACCOUNT, chainId: 'eip155:31337', message: 'm', signature: SIGNATURE }],
    });
    const { latch, view, connect } = setup({ siwx: { adapter } });
    await connect();
    expect(latch.siwx.store.getState().status).toBe('authenticated');
    expect(view()).toBe('Account');
  });

  it('shows Signature declined and keeps the view when the wallet refuses (4001)', async () => {
    const { latch, events, view, connect } = setup({ siwx: { adapter: memoryAdapter() } }, signingProvider(userRejection));
    await connect();
    await latch.siwx.signIn();
    expect(latch.siwx.store.getState()).toMatchObject({ status: 'unauthenticated', error: 'signatureDeclined', signing: false });
    expect(latch.toasts.store.getState().current).toEqual({ variant: 'error', message: 'signatureDeclined' });
    expect(view()).toBe('SIWXSignMessage');
    expect(latch.modal.store.getState().open).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'SIWX_AUTH_ERROR', data: { message: 'User rejected the request.' } });
  });

  it('reopens the view with an error when the backend refuses the signature', async () => {
    const { latch, view, connect } = setup({ siwx: { adapter: memoryAdapter({ refuse: true }) } }, signingProvider());
    await connect();
    latch.modal.close();
    await latch.siwx.signIn();
    expect(latch.siwx.store.getState().error).toBe('signInRefused');
    expect(latch.modal.store.getState().open).toBe(true);
    expect(view()).toBe('SIWXSignMessage');
  });

  it('disconnects and resets to Connect when authentication cannot start', async () => {
    const { latch, view, connect } = setup({ siwx: { adapter: memoryAdapter({ failNonce: true }) } }, signingProvider());
    await connect();
    await latch.siwx.signIn();
    expect(latch.toasts.store.getState().current).toEqual({ variant: 'error', message: 'signInInitFailed' });
    expect(latch.connection.getState().status).toBe('disconnected');
    expect(view()).toBe('Connect');
  });

  it('in required mode keeps the sign-in open (shaking) and cancel disconnects', async () => {
    const { latch, view, connect } = setup({ siwx: { adapter: memoryAdapter(), required: true } });
    await connect();
    latch.modal.close();
    latch.modal.back();
    expect(latch.modal.store.getState()).toMatchObject({ open: true, shake: true });
    expect(view()).toBe('SIWXSignMessage');
    latch.siwx.cancel();
    expect(latch.connection.getState().status).toBe('disconnected');
    expect(latch.modal.store.getState().open).toBe(false);
  });

  it('without required mode, cancel only closes the modal', async () => {
    const { latch, connect } = setup({ siwx: { adapter: memoryAdapter() } });
    await connect();
    latch.siwx.cancel();
    expect(latch.modal.store.getState().open).toBe(false);
    expect(latch.connection.getState().status).toBe('connected');
    expect(latch.siwx.store.getState().status).toBe('unauthenticated');
  });

  it('asks again when the wallet switches to an account without a session', async () => {
    const adapter = memoryAdapter();
    const { latch, provider, view, connect } = setup({ siwx: { adapter } }, signingProvider());
    await connect();
    await latch.siwx.signIn();
    expect(latch.siwx.store.getState().status).toBe('authenticated');

    provider.emit('accountsChanged', [OTHER_ACCOUNT]);
    await vi.waitFor(() => expect(view()).toBe('SIWXSignMessage'));
    expect(latch.modal.store.getState().open).toBe(true);
    expect(latch.siwx.store.getState()).toMatchObject({ status: 'unauthenticated', session: undefined });

    provider.emit('accountsChanged', [ACCOUNT]);
    await vi.waitFor(() => expect(latch.siwx.store.getState().status).toBe('authenticated'));
  });

  it('signs out on disconnect, and signOut in required mode disconnects', async () => {
    const adapter = memoryAdapter();
    const { latch, connect } = setup({ siwx: { adapter, required: true } }, signingProvider());
    await connect();
    await latch.siwx.signIn();
    latch.disconnect();
    expect(adapter.signOut).toHaveBeenCalledTimes(1);
    expect(latch.siwx.store.getState().status).toBe('unauthenticated');

    await connect();
    await latch.siwx.signIn();
    await latch.siwx.signOut();
    expect(adapter.signOut).toHaveBeenCalledTimes(2);
    expect(latch.connection.getState().status).toBe('disconnected');
  });

  it('needs a connected account to sign in', async () => {
    const { latch } = setup({ siwx: { adapter: memoryAdapter() } });
    await expect(latch.siwx.signIn()).rejects.toThrow('No ActiveCaipAddress found');
  });

  it('adapts the legacy siweConfig', async () => {
    let signedIn = false;
    const siweConfig: SiweConfig = {
      getNonce: vi.fn(async () => 'legacy-nonce'),
      createMessage: vi.fn((input) => `message for ${input.address} on ${input.chainId}`),
      verifyMessage: vi.fn(async () => (signedIn = true)),
      getSession: async () => (signedIn ? { address: ACCOUNT, chainId: 31337 } : null),
      signOut: async () => !(signedIn = false),
    };
    const { latch, connect } = setup({ siweConfig }, signingProvider());
    await connect();
    expect(latch.siwx.store.getState().enabled).toBe(true);
    await latch.siwx.signIn();
    expect(siweConfig.getNonce).toHaveBeenCalledWith(CHECKSUMMED_ACCOUNT);
    expect(siweConfig.createMessage).toHaveBeenCalledWith(
      expect.objectContaining({ address: CHECKSUMMED_ACCOUNT, chainId: 31337, nonce: 'legacy-nonce', version: '1' }),
    );
    expect(siweConfig.verifyMessage).toHaveBeenCalledWith({
      message: `message for ${CHECKSUMMED_ACCOUNT} on 31337`,
      signature: SIGNATURE,
    });
    expect(latch.siwx.store.getState().status).toBe('authenticated');
  });
});

describe('reconnect on reload', () => {
  /** A first page load that connects the test wallet, then goes away (the wallet with it). */
  async function connectBeforeReload() {
    stubGateway();
    const first = createTestLatch();
    installWallet(createTestProvider());
    const stop = first.mount(window);
    await first.connect(testWalletInfo.uuid);
    stop();
    uninstallWallets();
  }

  it('reconnects the last wallet silently (eth_accounts) and forgets it on disconnect', async () => {
    await connectBeforeReload();

    // A reload: a new instance, the wallet announcing itself again.
    const provider = createTestProvider({ eth_accounts: [ACCOUNT] });
    const reloaded = createTestLatch();
    const stop = reloaded.mount(window);
    installWallet(provider);
    await vi.waitFor(() => expect(reloaded.connection.getState().status).toBe('connected'));
    expect(provider.request.mock.calls.map(([{ method }]) => method).slice(0, 2)).toEqual(['eth_accounts', 'eth_chainId']);
    expect(reloaded.modal.store.getState().open).toBe(false);
    expect(reloaded.account.getState().caipAddress).toBe(CAIP_ACCOUNT);

    reloaded.disconnect();
    stop();
    uninstallWallets();
    const again = createTestLatch();
    const quiet = createTestProvider({ eth_accounts: [ACCOUNT] });
    const stopAgain = again.mount(window);
    installWallet(quiet);
    expect(quiet.request).not.toHaveBeenCalled();
    stopAgain();
  });

  it('is connecting on load while the stored wallet is looked for, then disconnected when it never announces', async () => {
    await connectBeforeReload();
    vi.useFakeTimers();
    try {
      const reloaded = createTestLatch();
      const stop = reloaded.mount(window);
      expect(reloaded.connection.getState().status).toBe('connecting');
      vi.advanceTimersByTime(RESTORE_WAIT_MS);
      expect(reloaded.connection.getState().status).toBe('disconnected');
      stop();
      // Forgotten: the next load does not wait for it again.
      const next = createTestLatch();
      const stopNext = next.mount(window);
      expect(next.connection.getState().status).toBe('disconnected');
      stopNext();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stays disconnected when the wallet no longer authorises the site', async () => {
    await connectBeforeReload();

    const provider = createTestProvider({ eth_accounts: [] });
    const reloaded = createTestLatch();
    const stop = reloaded.mount(window);
    installWallet(provider);
    await vi.waitFor(() => expect(provider.request).toHaveBeenCalled());
    await vi.waitFor(() => expect(reloaded.connection.getState().status).toBe('disconnected'));
    expect(provider.request.mock.calls.map(([{ method }]) => method)).toEqual(['eth_accounts']);
    stop();
  });
});
