import { verifySolanaSignature } from '@latch/wasm/extra';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createTestLatch,
  createTestProvider,
  devnet,
  installWallet,
  openAndConnect,
  rpcResult,
  stubGateway,
  testWalletInfo,
} from '../test/fixtures.js';
import {
  createTestStandardWallet,
  registerStandardWallet,
  solanaDevnet,
  testSolanaKey,
  type TestStandardWallet,
} from '../test/standardWallet.js';
import { NetworkSwitchError, RESTORE_WAIT_MS } from './connection.js';
import type { LatchOptions } from './createLatch.js';
import { currentView } from './modal.js';
import { STORAGE_KEYS } from './storage.js';
import type { AuthenticationAdapter, SiwxSession } from './siwx.js';
import type { CaipAddress } from './types.js';

const CONNECTOR_ID = 'wallet-standard:Test Solana Wallet';
/** 1.5 SOL in lamports, as Solana's `getBalance` answers it. */
const BALANCE = rpcResult({ context: { slot: 1 }, value: 1_500_000_000 });

// Solana wallets are Wallet Standard test doubles signing with a real ed25519 key (no browser
// extension runs in jsdom) and `fetch` is stubbed in place of the Latch server's gateway; the
// real wallet path, devnet and server are covered by e2e/tests/solana.spec.ts.
describe('Solana connections (Wallet Standard)', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  // Latch loads the standard's app side when it mounts: setup waits for it.
  async function setup(wallet: TestStandardWallet = createTestStandardWallet(), options: Partial<LatchOptions> = {}) {
    const gateway = stubGateway(() => BALANCE);
    const latch = createTestLatch({ networks: [devnet, solanaDevnet], ...options });
    registerStandardWallet(wallet);
    cleanups.push(latch.mount(window));
    await vi.dynamicImportSettled();
    return { latch, wallet, gateway, connect: () => latch.connect(CONNECTOR_ID) };
  }

  it('is not offered to a host without a Solana network', async () => {
    stubGateway();
    registerStandardWallet(createTestStandardWallet());
    const latch = createTestLatch();
    cleanups.push(latch.mount(window));
    await vi.dynamicImportSettled();
    expect(latch.connection.getState().connectors).toEqual([]);
  });

  it('lists the wallet next to an EVM wallet of the same name', async () => {
    installWallet(createTestProvider(), { ...testWalletInfo, name: 'Test Solana Wallet' });
    const { latch } = await setup();
    expect(latch.connection.getState().connectors.map(({ id, namespace }) => [id, namespace ?? 'eip155'])).toEqual([
      [testWalletInfo.uuid, 'eip155'],
      [CONNECTOR_ID, 'solana'],
    ]);
  });

  it('connects: base58 account on the host Solana network, SOL balance through the gateway', async () => {
    const { latch, wallet, gateway, connect } = await setup();
    const { address } = testSolanaKey();
    await openAndConnect(latch, connect);

    expect(wallet.connect).toHaveBeenCalledWith(undefined);
    expect(latch.connection.getState()).toMatchObject({ status: 'connected', activeConnectorId: CONNECTOR_ID });
    expect(latch.account.getState()).toMatchObject({
      address,
      caipAddress: `${solanaDevnet.caipNetworkId}:${address}`,
      caipNetworkId: solanaDevnet.caipNetworkId,
      balance: '1.5',
      balanceSymbol: 'SOL',
      balanceStatus: 'ready',
    });
    expect(currentView(latch.modal.store.getState())).toBe('Account');
    const [url, init] = gateway.mock.calls[0]!;
    expect(new URL(url).searchParams.get('chainId')).toBe(solanaDevnet.caipNetworkId);
    expect(JSON.parse(init!.body as string)).toMatchObject({ method: 'getBalance', params: [address] });
    expect(wallet.listenerCount()).toBe(1);
    expect(localStorage.getItem(STORAGE_KEYS.connectedWallet)).toBe(CONNECTOR_ID);
  });

  it('returns to Connect when the user declines in the wallet (4001)', async () => {
    const { latch, connect } = await setup(createTestStandardWallet({ reject: { connect: true } }));
    await openAndConnect(latch, connect);
    expect(latch.connection.getState()).toMatchObject({ status: 'disconnected', error: { kind: 'rejected' } });
    expect(latch.modal.store.getState().history).toEqual(['Connect']);
  });

  it('refuses an account latch-core does not accept as a Solana address', async () => {
    const wallet = createTestStandardWallet();
    wallet.connect.mockResolvedValueOnce({ accounts: [{ ...wallet.accounts[0], address: '0OIl-not-base58' }] });
    const { latch, connect } = await setup(wallet);
    await openAndConnect(latch, connect);
    expect(latch.connection.getState()).toMatchObject({ status: 'disconnected', error: { kind: 'failed' } });
    expect(latch.account.getState().address).toBeUndefined();
  });

  it('follows standard:events change: another account, then none (disconnect)', async () => {
    const { latch, wallet, connect } = await setup();
    await connect();
    const other = testSolanaKey(9);
    wallet.setAccounts([other]);
    expect(latch.account.getState().caipAddress).toBe(`${solanaDevnet.caipNetworkId}:${other.address}`);
    wallet.setAccounts([]);
    expect(latch.connection.getState().status).toBe('disconnected');
    expect(latch.account.getState().address).toBeUndefined();
    expect(wallet.listenerCount()).toBe(0);
  });

  it('disconnect calls standard:disconnect and forgets the wallet', async () => {
    const { latch, wallet, connect } = await setup();
    await connect();
    latch.disconnect();
    expect(wallet.disconnect).toHaveBeenCalledTimes(1);
    expect(wallet.listenerCount()).toBe(0);
    expect(localStorage.getItem(STORAGE_KEYS.connectedWallet)).toBeNull();
  });

  it('reports a wallet that refuses to disconnect as DISCONNECT_ERROR, and disconnects anyway', async () => {
    const seen: unknown[] = [];
    const { latch, wallet, connect } = await setup(createTestStandardWallet(), { onEvent: (event) => seen.push(event) });
    await connect();
    wallet.disconnect.mockRejectedValueOnce(new Error('wallet locked'));
    latch.disconnect();
    expect(latch.connection.getState().status).toBe('disconnected');
    await vi.waitFor(() =>
      expect(seen).toContainEqual({ type: 'DISCONNECT_ERROR', data: { message: 'Failed to disconnect chain solana: wallet locked' } }),
    );
  });

  it('restores silently on reload ({ silent: true }, no prompt)', async () => {
    localStorage.setItem(STORAGE_KEYS.connectedWallet, CONNECTOR_ID);
    const { latch, wallet } = await setup(createTestStandardWallet({ authorised: true }));
    await vi.waitFor(() => expect(latch.connection.getState().status).toBe('connected'));
    expect(wallet.connect).toHaveBeenCalledWith({ silent: true });
    expect(latch.modal.store.getState().open).toBe(false);
    expect(latch.account.getState().address).toBe(testSolanaKey().address);
  });

  it('a reload whose wallet no longer authorises the app ends disconnected, without a prompt', async () => {
    localStorage.setItem(STORAGE_KEYS.connectedWallet, CONNECTOR_ID);
    const { latch, wallet } = await setup(createTestStandardWallet({ authorised: false }));
    await vi.waitFor(() => expect(latch.connection.getState().status).toBe('disconnected'), { timeout: RESTORE_WAIT_MS });
    expect(wallet.connect).toHaveBeenCalledTimes(1);
    expect(wallet.connect).toHaveBeenCalledWith({ silent: true });
    expect(localStorage.getItem(STORAGE_KEYS.connectedWallet)).toBeNull();
  });

  it('switches between Solana networks without asking the wallet; EVM networks are unsupported', async () => {
    const other = { ...solanaDevnet, id: 'other', caipNetworkId: 'solana:otherCluster' as const, name: 'Other' };
    const { latch, wallet, connect } = await setup(createTestStandardWallet(), { networks: [devnet, solanaDevnet, other] });
    await connect();
    await latch.switchNetwork(other);
    expect(latch.account.getState().caipAddress).toBe(`solana:otherCluster:${testSolanaKey().address}`);
    const refusal = await latch.switchNetwork(devnet).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(NetworkSwitchError);
    expect(refusal).toMatchObject({ kind: 'unsupported', message: 'Chain is not supported' });
    expect(latch.account.getState().caipNetworkId).toBe('solana:otherCluster');
    expect(wallet.connect).toHaveBeenCalledTimes(1);
  });

  it('an EVM connection does not switch to a Solana network', async () => {
    const { latch } = await setup();
    installWallet(createTestProvider());
    await latch.connect(testWalletInfo.uuid);
    await expect(latch.switchNetwork(solanaDevnet)).rejects.toMatchObject({ kind: 'unsupported' });
  });

  /** A host's own sign-in backend, in memory, that checks the signature with latch-core. */
  function verifyingAdapter() {
    const sessions: SiwxSession[] = [];
    const adapter = {
      getNonce: async () => 'nonce1234',
      createMessage: (input: Parameters<AuthenticationAdapter['createMessage']>[0]) =>
        `${input.domain} wants you to sign in with ${input.address} on ${input.chainId}`,
      verify: vi.fn(async ({ account, message, signature }: { account: CaipAddress; message: string; signature: string }) => {
        if (!verifySolanaSignature(message, signature, account.slice(account.lastIndexOf(':') + 1))) {
          throw new Error('bad signature');
        }
        const session = { account, chainId: solanaDevnet.caipNetworkId, message, signature };
        sessions.push(session);
        return session;
      }),
      getSession: async (account: CaipAddress) => sessions.find((session) => session.account === account) ?? null,
      signOut: async () => undefined,
    };
    return adapter satisfies AuthenticationAdapter;
  }

  async function connectForSignIn(wallet = createTestStandardWallet()) {
    const adapter = verifyingAdapter();
    const { latch, connect } = await setup(wallet, { siwx: { adapter } });
    await openAndConnect(latch, connect);
    await vi.waitFor(() => expect(currentView(latch.modal.store.getState())).toBe('SIWXSignMessage'));
    return { latch, adapter };
  }

  it('signs in: the message signed with solana:signMessage, a base58 signature, the session on the solana account', async () => {
    const wallet = createTestStandardWallet();
    const { latch } = await connectForSignIn(wallet);
    await latch.siwx.signIn();

    const { address } = testSolanaKey();
    const { session, status } = latch.siwx.store.getState();
    expect(status).toBe('authenticated');
    expect(session?.account).toBe(`${solanaDevnet.caipNetworkId}:${address}`);
    expect(wallet.signMessage).toHaveBeenCalledWith({
      account: wallet.accounts[0],
      message: new TextEncoder().encode(session!.message),
    });
    expect(session?.message).toContain(`with ${address} on ${solanaDevnet.caipNetworkId}`);
    expect(session?.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/);
  });

  it('a declined Solana signature is Signature declined', async () => {
    const { latch } = await connectForSignIn(createTestStandardWallet({ reject: { sign: true } }));
    await latch.siwx.signIn();
    expect(latch.siwx.store.getState()).toMatchObject({ status: 'unauthenticated', error: 'signatureDeclined' });
  });

  it('a signature over other bytes than the message (a wallet that prefixes it) fails the sign-in', async () => {
    const prefixing = createTestStandardWallet();
    prefixing.signMessage.mockResolvedValueOnce([{ signedMessage: new Uint8Array([1, 2]), signature: new Uint8Array(64) }]);
    const { latch, adapter } = await connectForSignIn(prefixing);
    await latch.siwx.signIn();
    expect(latch.siwx.store.getState()).toMatchObject({ status: 'unauthenticated', error: 'signInFailed' });
    expect(adapter.verify).not.toHaveBeenCalled();
  });
});
