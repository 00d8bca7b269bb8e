import { afterEach, describe, expect, it } from 'vitest';
import { CHECKSUMMED_ACCOUNT, createTestLatch, createTestProvider, installWallet, testWalletInfo, uninstallWallets, userRejection } from '../test/fixtures.js';
import { stubSendServer, TX_HASH } from '../test/sendServer.js';
import { WalletRequestError } from './transactions.js';

// Host signing through the connected wallet (an EIP-1193 test double; the real wallets run in
// e2e/tests/send.spec.ts), with `fetch` standing in for the Latch gateway.
describe('host signing and sending', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  async function connected(answers: Record<string, unknown>, rpc: Record<string, unknown> = {}) {
    const calls = stubSendServer({ rpc });
    const latch = createTestLatch();
    const provider = createTestProvider(answers);
    installWallet(provider);
    cleanups.push(latch.mount(window), uninstallWallets);
    await latch.connect(testWalletInfo.uuid);
    return { latch, provider, calls };
  }

  const kindOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'resolved',
      (error: unknown) => (error instanceof WalletRequestError ? error.kind : `untyped: ${String(error)}`),
    );

  it('needs a connected wallet', async () => {
    stubSendServer();
    const latch = createTestLatch();
    expect(await kindOf(latch.sendTransaction({ to: CHECKSUMMED_ACCOUNT }))).toBe('notConnected');
    expect(await kindOf(latch.signMessage('hello'))).toBe('notConnected');
  });

  it('sends from the connected account, waits for the receipt, then refreshes the balance', async () => {
    const { latch, provider, calls } = await connected({ eth_sendTransaction: TX_HASH });
    const hash = await latch.sendTransaction({ to: CHECKSUMMED_ACCOUNT, value: 10n ** 18n });
    expect(hash).toBe(TX_HASH);
    expect(provider.request.mock.calls.at(-1)?.[0]).toEqual({
      method: 'eth_sendTransaction',
      params: [{ from: CHECKSUMMED_ACCOUNT, to: CHECKSUMMED_ACCOUNT, value: '0xde0b6b3a7640000', data: undefined, gas: undefined, gasPrice: undefined }],
    });
    expect(latch.transactions.store.getState().pending).toEqual([{ hash: TX_HASH, caipNetworkId: 'eip155:31337' }]);
    await expect(latch.transactions.waitForReceipt(hash)).resolves.toMatchObject({ status: '0x1' });
    for (let i = 0; i < 100 && latch.transactions.store.getState().pending.length; i++) await new Promise((r) => setTimeout(r, 5));
    expect(latch.transactions.store.getState().pending).toEqual([]);
    const receiptAt = calls.findIndex(({ method }) => method === 'eth_getTransactionReceipt');
    expect(calls.slice(receiptAt).some(({ method }) => method === 'eth_getBalance')).toBe(true);
  });

  it('types wallet errors: 4001 and WalletConnect 5000 are rejections, others failures', async () => {
    expect(await kindOf((await connected({ eth_sendTransaction: userRejection })).latch.sendTransaction({ to: CHECKSUMMED_ACCOUNT }))).toBe('rejected');
    cleanups.splice(0).forEach((cleanup) => cleanup());
    const wc = () => {
      throw Object.assign(new Error('User rejected.'), { code: 5000 });
    };
    expect(await kindOf((await connected({ personal_sign: wc })).latch.signMessage('hi'))).toBe('rejected');
    cleanups.splice(0).forEach((cleanup) => cleanup());
    const broken = () => {
      throw Object.assign(new Error('nonce too low'), { code: -32000 });
    };
    expect(await kindOf((await connected({ eth_sendTransaction: broken })).latch.sendTransaction({ to: CHECKSUMMED_ACCOUNT }))).toBe('failed');
  });

  it('reports a reverted transaction', async () => {
    const reverted = { transactionHash: TX_HASH, status: '0x0', blockNumber: '0x2', gasUsed: '0x5208' };
    const { latch } = await connected({ eth_sendTransaction: TX_HASH }, { eth_getTransactionReceipt: reverted });
    expect(await kindOf(latch.transactions.waitForReceipt(TX_HASH))).toBe('reverted');
  });

  it('signs messages through the connected wallet', async () => {
    const { latch, provider } = await connected({ personal_sign: '0xsigned' });
    expect(await latch.signMessage('hi')).toBe('0xsigned');
    expect(provider.request.mock.calls.at(-1)?.[0]).toEqual({ method: 'personal_sign', params: ['0x6869', CHECKSUMMED_ACCOUNT] });
  });
});
