import { afterEach, describe, expect, it } from 'vitest';
import { createTestLatch, createTestProvider, installWallet, testWalletInfo, userRejection, type TestProvider } from '../test/fixtures.js';
import { TX_HASH } from '../test/sendServer.js';
import { LTK, NATIVE, quoteFor, ROUTER, stubSwapServer, USDC } from '../test/swapServer.js';
import { currentView } from './modal.js';
import { createConvertApi, createSwap, QUOTE_DEBOUNCE_MS } from './swap.js';

// The wallet is an EIP-1193 test double and `fetch` stands in for the Latch server; the real
// wallet, server and devnet run in e2e/tests/swap.spec.ts and crates/latch-server/tests/convert.rs.
describe('swap store', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  async function connected(options: Parameters<typeof stubSwapServer>[0] = {}, provider: TestProvider = createTestProvider({ eth_sendTransaction: TX_HASH })) {
    const server = stubSwapServer(options);
    const latch = createTestLatch();
    installWallet(provider);
    cleanups.push(latch.mount(window));
    await latch.connect(testWalletInfo.uuid);
    await until(() => latch.accountData.tokens.getState().status === 'ready');
    const timers = new Map<number, () => void>();
    let next = 0;
    const swap = createSwap({
      account: latch.account,
      accountData: latch.accountData,
      api: createConvertApi(latch.server),
      gateway: latch.gateway,
      transactions: latch.transactions,
      toasts: latch.toasts,
      modal: latch.modal,
      // Timers run when the test says: the debounce is checked by what has not been asked yet.
      setTimer: (fn) => (timers.set(++next, fn), next),
      clearTimer: (id) => void timers.delete(id as number),
    });
    await swap.load();
    const runTimers = () => {
      const due = [...timers.values()];
      timers.clear();
      due.forEach((fn) => fn());
    };
    /** Runs the timers once one is set (a block tick sets the next only after its read). */
    const runWhenSet = async () => {
      await until(() => timers.size > 0);
      runTimers();
    };
    return { latch, swap, provider, runTimers, runWhenSet, ...server };
  }

  async function until(check: () => boolean) {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(check()).toBe(true);
  }

  it('lists the server tokens with the account balances, native first, searchable by symbol or address', async () => {
    const { swap } = await connected();
    const { tokens, from, to } = swap.store.getState();
    expect(tokens.map((t) => [t.symbol, t.balance])).toEqual([['ETH', '10000'], ['USDC', '10000'], ['LTK', '0']]);
    expect([from?.address, to?.address]).toEqual([NATIVE, USDC]);
    expect(swap.search('ltk').map((t) => t.symbol)).toEqual(['LTK']);
    expect(swap.search('0x5fbdb').map((t) => t.symbol)).toEqual(['USDC']);
    expect(swap.search('nothing')).toEqual([]);
  });

  it('quotes after the debounce, in base units, and only the last amount typed', async () => {
    const { swap, convert, runTimers } = await connected();
    expect(QUOTE_DEBOUNCE_MS).toBe(500);
    swap.setAmount('0.5');
    swap.setAmount('1');
    expect(convert.filter(({ path }) => path === '/v1/convert/quotes')).toEqual([]);
    runTimers();
    await until(() => swap.store.getState().quote !== undefined);
    const asked = convert.filter(({ path }) => path === '/v1/convert/quotes');
    expect(asked.map(({ query }) => query.amount)).toEqual(['1000000000000000000']);
    expect(swap.store.getState()).toMatchObject({ needsApproval: false, error: undefined, quoting: false });
  });

  it('asks for approval when the allowance is short, then swaps through the wallet and returns to Account', async () => {
    const { swap, latch, provider, convert, state } = await connected({ allowance: '5' });
    swap.selectFrom(USDC);
    swap.selectTo(LTK);
    swap.setAmount('100');
    await swap.refreshQuote();
    expect(swap.store.getState()).toMatchObject({ needsApproval: true, allowance: '5' });
    // Once mined, the chain answers the approved amount: approve reads it again itself.
    state.allowance = '100000000';
    await swap.approve();
    const approve = convert.find(({ path }) => path === '/v1/convert/build-approve');
    expect(approve?.query).toMatchObject({ amount: '100000000', from: USDC, to: LTK });
    const sent = provider.request.mock.calls.filter(([{ method }]) => method === 'eth_sendTransaction');
    expect(sent[0]?.[0].params).toMatchObject([{ data: '0x095ea7b3' }]);
    expect(swap.store.getState()).toMatchObject({ needsApproval: false, allowance: '100000000', step: 'form' });
    latch.modal.push('Swap');
    await swap.swap();
    const build = convert.find(({ path }) => path === '/v1/convert/build-transaction');
    expect(build?.body).toMatchObject({ amount: '100000000', from: USDC, to: LTK, eip155: { slippage: 1 }, toAmountMin: '2931859362' });
    const swapSent = provider.request.mock.calls.filter(([{ method }]) => method === 'eth_sendTransaction').at(-1);
    expect(swapSent?.[0].params).toMatchObject([{ to: ROUTER, gas: '0x249f0' }]);
    expect(currentView(latch.modal.store.getState())).toBe('Account');
    expect(latch.toasts.store.getState().current).toEqual({ variant: 'success', message: 'sendStarted' });
  });

  it('reports no route, insufficient balance and a declined swap', async () => {
    const noRoute = () => Response.json({ status: 'FAILED', code: 'NO_ROUTE', reasons: [{ field: 'to', description: 'No route' }] }, { status: 400 });
    let route = false;
    const quotes = (url: URL) => (route ? Response.json({ quotes: [quoteFor(NATIVE, USDC, url.searchParams.get('amount')!)] }) : noRoute());
    const { swap, provider } = await connected({ answer: { '/v1/convert/quotes': quotes } }, createTestProvider({ eth_sendTransaction: userRejection }));
    swap.setAmount('1');
    await swap.refreshQuote();
    expect(swap.store.getState()).toMatchObject({ error: 'swapNoRoute', quote: undefined });
    route = true;
    swap.setAmount('20000');
    await swap.refreshQuote();
    expect(swap.store.getState().error).toBe('swapInsufficientBalance');
    swap.setAmount('1');
    await swap.refreshQuote();
    await swap.swap();
    expect(swap.store.getState()).toMatchObject({ error: 'swapRejected', step: 'form' });
    expect(provider.request).toHaveBeenCalled();
  });

  it('shows slippage exceeded when the server refuses the build', async () => {
    const moved = () =>
      Response.json({ status: 'FAILED', code: 'SLIPPAGE_EXCEEDED', reasons: [{ field: 'eip155.slippage', description: 'Slippage exceeded' }] }, { status: 400 });
    const { swap } = await connected({ answer: { '/v1/convert/build-transaction': moved } });
    swap.setAmount('1');
    await swap.refreshQuote();
    await swap.swap();
    expect(swap.store.getState()).toMatchObject({ error: 'swapSlippageExceeded', step: 'form' });
  });

  it('re-quotes when a new block arrives while the view watches, and stops when told', async () => {
    let head = 7;
    const { swap, convert, runTimers, runWhenSet, calls } = await connected({ rpc: { eth_blockNumber: () => `0x${head.toString(16)}` } });
    swap.setAmount('1');
    runTimers();
    await until(() => swap.store.getState().quote !== undefined);
    const quotes = () => convert.filter(({ path }) => path === '/v1/convert/quotes').length;
    const heads = () => calls.filter(({ method }) => method === 'eth_blockNumber').length;
    const stop = swap.watchBlocks();
    runTimers();
    await until(() => heads() === 1);
    expect(quotes()).toBe(1);
    // The same head again: no new quote.
    await runWhenSet();
    await until(() => heads() === 2);
    expect(quotes()).toBe(1);
    head = 8;
    await runWhenSet();
    await until(() => quotes() === 2);
    stop();
    runTimers();
    expect(heads()).toBe(3);
  });

  it('reads no head while there is no quote, and keeps the allowance on a new block', async () => {
    let head = 7;
    const { swap, convert, runTimers, runWhenSet, calls } = await connected({ allowance: '5', rpc: { eth_blockNumber: () => `0x${head.toString(16)}` } });
    const heads = () => calls.filter(({ method }) => method === 'eth_blockNumber').length;
    const asked = (path: string) => convert.filter((call) => call.path === path).length;
    const stop = swap.watchBlocks();
    runTimers();
    await runWhenSet();
    expect(heads()).toBe(0);
    swap.selectFrom(USDC);
    swap.selectTo(LTK);
    swap.setAmount('100');
    // The debounce and the next tick, then the tick that reads the base head.
    runTimers();
    await until(() => swap.store.getState().quote !== undefined);
    expect(heads()).toBe(0);
    expect(asked('/v1/convert/allowance')).toBe(1);
    // The allowance of the router this swap's route goes through (V2's or V3's): asked with the swap.
    const allowanceQuery = convert.find((call) => call.path === '/v1/convert/allowance')?.query;
    const quoteQuery = convert.find((call) => call.path === '/v1/convert/quotes')?.query;
    expect(quoteQuery?.amount).toBeTruthy();
    expect(allowanceQuery).toMatchObject({ to: LTK, amount: quoteQuery?.amount });
    await runWhenSet();
    await until(() => heads() === 1);
    head = 8;
    await runWhenSet();
    await until(() => asked('/v1/convert/quotes') === 2);
    await until(() => !swap.store.getState().quoting);
    expect(asked('/v1/convert/allowance')).toBe(1);
    expect(swap.store.getState()).toMatchObject({ needsApproval: true, allowance: '5' });
    stop();
  });

  it('drops a quote under way when the account changes', async () => {
    let answer: (response: Response) => void = () => {};
    const { swap, latch } = await connected({
      answer: { '/v1/convert/quotes': () => new Promise<Response>((resolve) => (answer = resolve)) as unknown as Response },
    });
    swap.setAmount('1');
    const quoting = swap.refreshQuote();
    await until(() => swap.store.getState().quoting);
    latch.account.setState({ caipAddress: 'eip155:31337:0x0000000000000000000000000000000000000001' });
    answer(Response.json({ quotes: [quoteFor(NATIVE, USDC, '1000000000000000000')] }));
    await quoting;
    expect(swap.store.getState()).toMatchObject({ quote: undefined, quoting: false, amount: '', tokens: [] });
  });
});
