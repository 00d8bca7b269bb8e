import { afterEach, describe, expect, it } from 'vitest';
import {
  CHECKSUMMED_ACCOUNT,
  createTestLatch,
  createTestProvider,
  installWallet,
  testWalletInfo,
  userRejection,
  uninstallWallets,
  type TestProvider,
} from '../test/fixtures.js';
import { BALANCES, ENS_OWNER, RECEIVER, stubSendServer, TX_HASH, USDC_ADDRESS } from '../test/sendServer.js';
import { currentView } from './modal.js';
import { createSend } from './send.js';
import type { TokenBalance } from './api.js';

// The wallet is an EIP-1193 test double and `fetch` stands in for the Latch server; the real
// wallet, server and devnet run in e2e/tests/send.spec.ts.
describe('send store', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  async function connected(provider: TestProvider = createTestProvider({ eth_sendTransaction: TX_HASH }), balances?: TokenBalance[]) {
    const calls = stubSendServer({ balances });
    const latch = createTestLatch();
    installWallet(provider);
    cleanups.push(latch.mount(window));
    await latch.connect(testWalletInfo.uuid);
    await until(() => latch.accountData.tokens.getState().status === 'ready');
    const send = createSend({
      account: latch.account,
      accountData: latch.accountData,
      networks: latch.networks,
      gateway: latch.gateway,
      transactions: latch.transactions,
      toasts: latch.toasts,
      modal: latch.modal,
    });
    return { latch, send, provider, calls, tokens: send.tokens() };
  }

  async function until(check: () => boolean) {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(check()).toBe(true);
  }

  it('offers the native coin first and hides low-quality tokens', async () => {
    const { tokens } = await connected();
    expect(tokens.map((token) => token.symbol)).toEqual(['ETH', 'USDC']);
  });

  it('prices the gas from the gateway and keeps it out of a native Max', async () => {
    const { send, tokens, calls } = await connected();
    send.selectToken(tokens[0]!);
    await until(() => send.store.getState().gasFee !== undefined);
    expect(send.store.getState()).toMatchObject({ gasFee: '0.000042', gasFeeUsd: '0.105', insufficientGas: false });
    expect(calls.find(({ method }) => method === 'eth_estimateGas')?.params).toEqual([
      { from: CHECKSUMMED_ACCOUNT, to: CHECKSUMMED_ACCOUNT, value: '0x0', data: '0x' },
    ]);
    await send.setMax();
    expect(send.store.getState().amount).toBe('9999.999958');
    send.selectToken(tokens[1]!);
    await send.setMax();
    expect(send.store.getState().amount).toBe('10000');
  });

  it('sends a native Max at the gas limit and price it kept', async () => {
    const { send, tokens, provider } = await connected();
    send.selectToken(tokens[0]!);
    await until(() => send.store.getState().gasPrice !== undefined);
    send.setReceiver(RECEIVER);
    await send.resolveReceiver();
    await send.setMax();
    await send.preview();
    await send.send();
    const sent = provider.request.mock.calls.find(([{ method }]) => method === 'eth_sendTransaction');
    expect(sent?.[0].params).toMatchObject([{ value: expect.any(String), gas: '0x5208', gasPrice: '0x77359400' }]);
    // 10000 ETH − 21000 × 2 gwei, in wei.
    expect(BigInt((sent?.[0].params as [{ value: string }])[0].value)).toBe(10_000n * 10n ** 18n - 21_000n * 2_000_000_000n);
  });

  it('says which part of the draft is wrong', async () => {
    const { send, tokens } = await connected();
    send.selectToken(tokens[0]!);
    await until(() => send.store.getState().gasPrice !== undefined);
    const attempt = async (amount: string, receiver: string) => {
      send.setAmount(amount);
      send.setReceiver(receiver);
      await send.resolveReceiver();
      await send.preview();
      return send.store.getState().error;
    };
    expect(await attempt('', RECEIVER)).toBe('sendMissingAmountOrReceiver');
    expect(await attempt('1', '')).toBe('sendMissingAmountOrReceiver');
    expect(await attempt('1', '0x1234')).toBe('sendInvalidAddress');
    expect(await attempt('10001', RECEIVER)).toBe('sendAmountExceedsBalance');
    expect(await attempt('abc', RECEIVER)).toBe('sendMissingAmountOrReceiver');
    expect(await attempt('1', 'nobody.eth')).toBe('sendNameNotFound');
    expect(send.store.getState().step).toBe('form');
    expect(await attempt('1.5', RECEIVER)).toBeUndefined();
    expect(send.store.getState().step).toBe('preview');
  });

  it('resolves a name to its address and avatar', async () => {
    const { send } = await connected();
    send.setReceiver('Latch-Dev.eth');
    await send.resolveReceiver();
    expect(send.store.getState()).toMatchObject({
      receiverAddress: ENS_OWNER,
      receiverName: 'latch-dev.eth',
      receiverAvatar: 'https://127.0.0.1:8787/avatar/latch-dev.png',
    });
  });

  it('sends the native coin, then starts the toast, resets and returns to Account', async () => {
    const { latch, send, tokens, provider } = await connected();
    latch.modal.open({ view: 'Send' });
    send.selectToken(tokens[0]!);
    await until(() => send.store.getState().gasPrice !== undefined);
    send.setAmount('0.5');
    send.setReceiver(RECEIVER.toLowerCase());
    await send.resolveReceiver();
    await send.preview();
    await send.send();
    const sent = provider.request.mock.calls.find(([{ method }]) => method === 'eth_sendTransaction');
    expect(sent?.[0].params).toEqual([
      { from: CHECKSUMMED_ACCOUNT, to: RECEIVER, value: '0x6f05b59d3b20000', data: '0x', gas: undefined, gasPrice: undefined },
    ]);
    expect(latch.toasts.store.getState().current).toEqual({ variant: 'success', message: 'sendStarted' });
    expect(currentView(latch.modal.store.getState())).toBe('Account');
    expect(send.store.getState()).toMatchObject({ amount: '', receiverInput: '', token: undefined, step: 'form' });
    // Pending until the gateway reports the receipt, then gone.
    await until(() => latch.transactions.store.getState().pending.length === 0);
  });

  it('sends a token through its contract', async () => {
    const { send, tokens, provider } = await connected();
    send.selectToken(tokens[1]!);
    await until(() => send.store.getState().gasPrice !== undefined);
    send.setAmount('2.5');
    send.setReceiver(RECEIVER);
    await send.resolveReceiver();
    await send.preview();
    await send.send();
    const sent = provider.request.mock.calls.find(([{ method }]) => method === 'eth_sendTransaction');
    expect(sent?.[0].params).toMatchObject([
      {
        to: USDC_ADDRESS,
        value: '0x0',
        data: `0xa9059cbb000000000000000000000000${RECEIVER.slice(2).toLowerCase()}${(2_500_000).toString(16).padStart(64, '0')}`,
      },
    ]);
  });

  it('answers a rejection calmly and other failures with "Something went wrong"', async () => {
    for (const [answer, message] of [
      [userRejection, 'sendRejected'],
      [
        () => {
          throw Object.assign(new Error('insufficient funds'), { code: -32000 });
        },
        'sendFailed',
      ],
    ] as const) {
      const { latch, send, tokens } = await connected(createTestProvider({ eth_sendTransaction: answer }));
      latch.modal.open({ view: 'Send' });
      send.selectToken(tokens[0]!);
      await until(() => send.store.getState().gasPrice !== undefined);
      send.setAmount('1');
      send.setReceiver(RECEIVER);
      await send.resolveReceiver();
      await send.preview();
      await send.send();
      expect(send.store.getState()).toMatchObject({ error: message, step: 'preview', loading: false });
      expect(currentView(latch.modal.store.getState())).toBe('Send');
      cleanups.splice(0).forEach((cleanup) => cleanup());
      uninstallWallets();
    }
  });

  it('refuses a send whose gas the native balance cannot pay (behaviour 5.5)', async () => {
    const empty = BALANCES.map((token) =>
      token.address ? token : { ...token, value: 0, quantity: { ...token.quantity, numeric: '0' } },
    );
    const { send, tokens } = await connected(undefined, empty);
    send.selectToken(tokens[1]!);
    await until(() => send.store.getState().gasPrice !== undefined);
    expect(send.store.getState().insufficientGas).toBe(true);
    send.setAmount('1');
    send.setReceiver(RECEIVER);
    await send.resolveReceiver();
    await send.preview();
    expect(send.store.getState().error).toBe('sendInsufficientGas');
  });

  it('shows "Unsupported chain" for a Solana account until a Solana sender is wired', async () => {
    const { latch, send, tokens } = await connected();
    send.selectToken(tokens[0]!);
    latch.account.setState({ caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' });
    await send.preview();
    expect(send.store.getState().error).toBe('unsupportedChain');
  });
});
