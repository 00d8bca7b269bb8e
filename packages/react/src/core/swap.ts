import type { MessageKey } from '../locales/index.js';
import type { AccountDataController } from './accountData.js';
import { serverUrl, type ServerLocation, type TokenBalance } from './api.js';
import type { AccountState } from './connection.js';
import { fetchJson, HttpError, type Gateway } from './gateway.js';
import type { ModalController, ViewData } from './modal.js';
import { createStore, type Store } from './store.js';
import type { ToastController } from './toasts.js';
import type { TransactionStack } from './transactionStack.js';
import { WalletRequestError, type TransactionsController } from './transactions.js';
import type { CaipNetworkId } from './types.js';
import { loadWasmExtra } from './wasmExtra.js';
import { DEBOUNCE_MS } from './timings.js';

/** A token of `/v1/convert/tokens` (behaviour 6.7); `address` is CAIP-10 (the placeholder for the native coin). */
export interface ConvertToken {
  name: string;
  symbol: string;
  address: string;
  decimals: number;
  logoUri: string;
  eip2612: boolean;
}

/** One quote of `/v1/convert/quotes`: the documented fields and the Latch server's additions. */
export interface SwapQuote {
  id: string;
  fromAmount: string;
  fromAccount: string;
  toAmount: string;
  toAccount: string;
  toAmountMin: string;
  slippage: number;
  priceImpact: number;
  source: string;
  path: string[];
  spender: string;
  gas: string;
  gasPrice: string;
  networkFee: string;
  networkFeeUsd: number | null;
  block: number;
}

/** A transaction built by the server (`build-approve`, `build-transaction`). */
export interface BuiltTransaction {
  tx: { from: string; to: string; data: string; amount: string; value: string; eip155: { gas: string; gasPrice: string } };
}

/** The Latch server's convert endpoints (behaviour 6.7 `/v1/convert/*`). */
export interface ConvertApi {
  tokens(chainId: CaipNetworkId): Promise<ConvertToken[]>;
  quote(query: { amount: string; from: string; to: string; userAddress: string }): Promise<SwapQuote>;
  /** With `swap`, the allowance of the router that swap's best route goes through (V2 or V3). */
  allowance(tokenAddress: string, userAddress: string, swap?: { to: string; amount: string }): Promise<string>;
  buildApprove(query: { amount: string; from: string; to: string; userAddress: string }): Promise<BuiltTransaction>;
  /** `toAmountMin`: the minimum the user was shown; a price moved past it is refused (`SLIPPAGE_EXCEEDED`). */
  buildTransaction(body: {
    amount: string;
    from: string;
    to: string;
    userAddress: string;
    slippage: number;
    toAmountMin?: string;
  }): Promise<BuiltTransaction>;
}

export function createConvertApi(server: ServerLocation): ConvertApi {
  const url = (path: string, query?: Record<string, string | undefined>) => serverUrl(server, path, query);
  return {
    async tokens(chainId) {
      return (await fetchJson<{ tokens: ConvertToken[] }>(url('/v1/convert/tokens', { chainId }))).tokens;
    },
    async quote(query) {
      const { quotes } = await fetchJson<{ quotes: SwapQuote[] }>(url('/v1/convert/quotes', query));
      if (!quotes[0]) throw new HttpError(400, 'no quote', 'NO_ROUTE');
      return quotes[0];
    },
    async allowance(tokenAddress, userAddress, swap) {
      const query = { tokenAddress, userAddress, to: swap?.to, amount: swap?.amount };
      return (await fetchJson<{ allowance: string }>(url('/v1/convert/allowance', query))).allowance;
    },
    buildApprove(query) {
      return fetchJson<BuiltTransaction>(url('/v1/convert/build-approve', query));
    },
    buildTransaction({ slippage, ...body }) {
      return fetchJson<BuiltTransaction>(url('/v1/convert/build-transaction'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, projectId: server.projectId, eip155: { slippage }, disableEstimate: false }),
      });
    },
  };
}

/** A token the Swap view offers: the server's list with the account's balance. */
export interface SwapTokenOption extends ConvertToken {
  /** Whole units held ("0" when none). */
  balance: string;
  /** USD per token (0 when unknown). */
  price: number;
}

export interface SwapState {
  tokens: SwapTokenOption[];
  from?: SwapTokenOption;
  to?: SwapTokenOption;
  /** Whole units as typed. */
  amount: string;
  quote?: SwapQuote;
  quoting: boolean;
  /** Base units the router may spend of `from` (absent for the native coin). */
  allowance?: string;
  needsApproval: boolean;
  /** `approving` / `swapping` while the wallet is asked. */
  step: 'form' | 'approving' | 'swapping';
  error?: MessageKey;
}

export interface SwapController {
  store: Store<SwapState>;
  /** Reads the tokens for the account's network and picks the native coin and the first token. */
  load(): Promise<void>;
  /** `tokens` whose symbol or address contains `query` (case-insensitive). */
  search(query: string): SwapTokenOption[];
  selectFrom(address: string): void;
  selectTo(address: string): void;
  /** Exchanges from and to. */
  flip(): void;
  /** Sets the amount; the quote follows after the debounce. */
  setAmount(amount: string): void;
  /** The whole balance (the native coin keeps the quoted network fee). */
  setMax(): Promise<void>;
  /** Quotes the form now (the debounce and new blocks call it). */
  refreshQuote(): Promise<void>;
  /** Re-quotes a shown quote on every new block until the returned function is called. */
  watchBlocks(): () => void;
  /** Approves the router for the amount, waits for it to be mined, reads the allowance again. */
  approve(): Promise<void>;
  /** Builds the swap, asks the wallet, shows "Transaction started" and returns to Account. */
  swap(): Promise<void>;
  reset(): void;
  /**
   * Starts the form from `open({ view: 'Swap', data })`: the from and to tokens (address, CAIP-10
   * or symbol) and the amount, applied once the tokens are read (`load`), then quoted.
   */
  prefill(data: ViewData['Swap']): void;
}

/** The documented quote debounce (behaviour 7.4: 500 ms), the one default debounce. */
export const QUOTE_DEBOUNCE_MS: number = DEBOUNCE_MS;
/** How often the head block is read while the view is open. */
export const BLOCK_POLL_MS = 2_000;
/** Above this price impact (percent) the view warns. */
export const HIGH_PRICE_IMPACT = 5;
/** Behaviour 7.7: swap slippage tolerance 1 (%). */
export const SWAP_SLIPPAGE = 1;

const EMPTY: SwapState = { tokens: [], amount: '', quoting: false, needsApproval: false, step: 'form' };

/** The Latch server's swap refusals and the messages they show. */
const CODES: Record<string, MessageKey> = {
  NO_ROUTE: 'swapNoRoute',
  SLIPPAGE_EXCEEDED: 'swapSlippageExceeded',
  INSUFFICIENT_BALANCE: 'swapInsufficientBalance',
  UNSUPPORTED_SWAP_NETWORK: 'swapUnsupportedNetwork',
  INVALID_AMOUNT: 'swapInvalidAmount',
};

function messageOf(error: unknown): MessageKey {
  if (error instanceof WalletRequestError) return error.kind === 'rejected' ? 'swapRejected' : 'swapFailed';
  const { code } = (error ?? {}) as { code?: string };
  return (code && CODES[code]) || 'swapFailed';
}

const sameToken = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();
const isNative = (token: ConvertToken | undefined) => !!token && /:0xe{40}$/i.test(token.address);

export function createSwap({
  account,
  accountData,
  api,
  gateway,
  transactions,
  toasts,
  modal,
  transactionStack,
  setTimer = (fn, ms) => setTimeout(fn, ms),
  clearTimer = (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
}: {
  account: Store<AccountState>;
  accountData: AccountDataController;
  api: ConvertApi;
  gateway: Gateway;
  transactions: TransactionsController;
  toasts: ToastController;
  modal: ModalController;
  transactionStack?: TransactionStack;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
}): SwapController {
  const store = createStore<SwapState>(EMPTY);
  let quoteRequest = 0;
  let debounce: unknown;
  /** What `prefill` asked for, until the tokens are read. */
  let wanted: ViewData['Swap'] | undefined;

  /** A token by address, CAIP-10 id or symbol (case-insensitive). */
  function named(name: string | undefined) {
    const needle = name?.trim().toLowerCase();
    if (!needle) return undefined;
    return store.getState().tokens.find(
      (t) =>
        t.address.toLowerCase() === needle ||
        t.address.split(':').at(-1)?.toLowerCase() === needle ||
        t.symbol.toLowerCase() === needle,
    );
  }

  function applyWanted() {
    if (!wanted || store.getState().tokens.length === 0) return;
    const { from, to, amount } = wanted;
    wanted = undefined;
    const state = store.getState();
    const nextFrom = named(from) ?? state.from;
    // The two sides differ: a `to` equal to `from` keeps the other token.
    const asked = named(to);
    const nextTo = asked && asked !== nextFrom ? asked : state.to === nextFrom ? state.from : state.to;
    store.setState({ from: nextFrom, to: nextTo, amount: amount === undefined ? '' : String(amount) });
    clearQuote({ quoting: store.getState().amount.trim() !== '' });
    if (store.getState().amount.trim()) scheduleQuote();
  }

  /** The balances the account data holds, by CAIP-10 (native: the placeholder). */
  function withBalances(tokens: ConvertToken[]): SwapTokenOption[] {
    const balances = accountData.tokens.getState().balances as TokenBalance[];
    return tokens.map((token) => {
      const held = balances.find((b) => (isNative(token) ? !b.address : sameToken(b.address, token.address)));
      const balance = held?.quantity.numeric ?? (isNative(token) ? (account.getState().balance ?? '0') : '0');
      return { ...token, balance, price: held?.price ?? 0 };
    });
  }

  function clearQuote(patch: Partial<SwapState> = {}) {
    quoteRequest++;
    store.setState({ quote: undefined, quoting: false, needsApproval: false, allowance: undefined, error: undefined, ...patch });
  }

  function scheduleQuote() {
    if (debounce !== undefined) clearTimer(debounce);
    debounce = setTimer(() => {
      debounce = undefined;
      void refreshQuote();
    }, QUOTE_DEBOUNCE_MS);
  }

  /**
   * `keepAllowance`: a new block's re-quote keeps the allowance read for this form (only the
   * approve step changes it, and that re-reads it); every other quote reads it.
   */
  async function refreshQuote(keepAllowance = false) {
    const { from, to, amount, allowance: known } = store.getState();
    const { address } = account.getState();
    if (!from || !to || !address || !amount.trim()) return clearQuote();
    const request = ++quoteRequest;
    store.setState({ quoting: true });
    try {
      const { swapAmount, fiatValue, isInsufficientGas } = await loadWasmExtra();
      const read = swapAmount({ amount: amount.trim(), decimals: from.decimals, balance: from.balance });
      const [quote, allowance] = await Promise.all([
        api.quote({ amount: read.units, from: from.address, to: to.address, userAddress: address }),
        isNative(from) ? undefined : ((keepAllowance ? known : undefined) ?? api.allowance(from.address, address, { to: to.address, amount: read.units })),
      ]);
      if (request !== quoteRequest) return;
      const checked = swapAmount({ amount: amount.trim(), decimals: from.decimals, balance: from.balance, allowance });
      const native = store.getState().tokens.find(isNative);
      const networkBalanceUsd = fiatValue(native?.balance ?? '0', native?.price ?? 0);
      const feeUsd = quote.networkFeeUsd === null ? null : String(quote.networkFeeUsd);
      const noGas = isInsufficientGas({ networkBalanceUsd, gasPriceUsd: feeUsd, isSmartAccount: false });
      store.setState({
        quote,
        quoting: false,
        allowance,
        needsApproval: checked.needsApproval,
        error: checked.exceedsBalance ? 'swapInsufficientBalance' : noGas ? 'swapInsufficientGas' : undefined,
      });
    } catch (error) {
      if (request !== quoteRequest) return;
      store.setState({ quote: undefined, quoting: false, error: messageOf(error) });
    }
  }

  function pick(address: string) {
    return store.getState().tokens.find((token) => sameToken(token.address, address));
  }

  async function waitMined(hash: string) {
    await transactions.waitForReceipt(hash, account.getState().caipNetworkId);
  }

  const controller: SwapController = {
    store,
    async load() {
      const { caipNetworkId } = account.getState();
      if (!caipNetworkId) return;
      try {
        const tokens = withBalances(await api.tokens(caipNetworkId));
        const { from, to } = store.getState();
        store.setState({
          tokens,
          from: (from && tokens.find((t) => sameToken(t.address, from.address))) ?? tokens[0],
          to: (to && tokens.find((t) => sameToken(t.address, to.address))) ?? tokens[1],
          error: undefined,
        });
        applyWanted();
      } catch (error) {
        store.setState({ tokens: [], error: messageOf(error) });
      }
    },
    search(query) {
      const needle = query.trim().toLowerCase();
      const { tokens } = store.getState();
      if (!needle) return tokens;
      return tokens.filter((t) => t.symbol.toLowerCase().includes(needle) || t.address.toLowerCase().includes(needle));
    },
    selectFrom(address) {
      const token = pick(address);
      if (!token) return;
      const { to, from } = store.getState();
      store.setState({ from: token, to: sameToken(to?.address, token.address) ? from : to, amount: '' });
      clearQuote();
    },
    selectTo(address) {
      const token = pick(address);
      if (!token) return;
      const { to, from } = store.getState();
      store.setState({ to: token, from: sameToken(from?.address, token.address) ? to : from });
      clearQuote();
      scheduleQuote();
    },
    flip() {
      const { from, to } = store.getState();
      store.setState({ from: to, to: from, amount: '' });
      clearQuote();
    },
    setAmount(amount) {
      store.setState({ amount });
      clearQuote({ quoting: amount.trim() !== '' });
      scheduleQuote();
    },
    async setMax() {
      const { from, quote } = store.getState();
      if (!from) return;
      const { maxSendAmount } = await loadWasmExtra();
      // The native coin keeps the network fee (the quote's, else none yet: re-quoted below).
      const amount = maxSendAmount({
        balance: from.balance,
        decimals: from.decimals,
        isNative: isNative(from),
        gasLimit: quote?.gas ?? null,
        gasPrice: quote?.gasPrice ?? null,
      });
      store.setState({ amount });
      await refreshQuote();
    },
    refreshQuote: () => refreshQuote(),
    watchBlocks() {
      let last: string | undefined;
      let stopped = false;
      const tick = async () => {
        const { caipNetworkId } = account.getState();
        if (stopped || !caipNetworkId) return;
        // No head is read while there is no quote to re-read; the first one after it is the base.
        if (!store.getState().quote) last = undefined;
        else {
          try {
            const head = (await gateway.request(caipNetworkId, 'eth_blockNumber', [])) as string;
            const { quote, quoting, step } = store.getState();
            if (last !== undefined && head !== last && quote && !quoting && step === 'form') await refreshQuote(true);
            last = head;
          } catch {
            // The next tick tries again.
          }
        }
        if (!stopped) timer = setTimer(() => void tick(), BLOCK_POLL_MS);
      };
      let timer: unknown = setTimer(() => void tick(), 0);
      return () => {
        stopped = true;
        clearTimer(timer);
      };
    },
    async approve() {
      const { from, to, quote } = store.getState();
      const { address } = account.getState();
      if (!from || !to || !quote || !address || store.getState().step !== 'form') return;
      store.setState({ step: 'approving', error: undefined });
      try {
        const { tx } = await api.buildApprove({ amount: quote.fromAmount, from: from.address, to: to.address, userAddress: address });
        const hash = await transactions.sendTransaction({ to: tx.to, data: tx.data, value: tx.value });
        await waitMined(hash);
        store.setState({ step: 'form' });
        await refreshQuote();
      } catch (error) {
        store.setState({ step: 'form', error: messageOf(error) });
      }
    },
    async swap() {
      const { from, to, quote, needsApproval, error } = store.getState();
      const { address } = account.getState();
      if (!from || !to || !quote || !address || needsApproval || error || store.getState().step !== 'form') return;
      store.setState({ step: 'swapping', error: undefined });
      try {
        const { tx } = await api.buildTransaction({
          amount: quote.fromAmount,
          from: from.address,
          to: to.address,
          userAddress: address,
          slippage: SWAP_SLIPPAGE,
          toAmountMin: quote.toAmountMin,
        });
        await transactions.sendTransaction({ to: tx.to, data: tx.data, value: tx.value, gas: BigInt(tx.eip155.gas) });
      } catch (failure) {
        store.setState({ step: 'form', error: messageOf(failure) });
        return;
      }
      // Behaviour 5.6: back to Account with "Transaction started"; the transactions controller reads
      // the balances and Activity again once the swap is mined.
      controller.reset();
      const flow = transactionStack?.store.getState().entries.at(-1);
      if (flow?.view === 'Swap') transactionStack!.success();
      else modal.reset('Account');
      toasts.show({ variant: 'success', message: 'sendStarted' });
    },
    prefill(data) {
      wanted = { ...data };
      applyWanted();
    },
    reset() {
      clearDraft();
      store.setState(({ tokens }) => ({ ...EMPTY, tokens }));
    },
  };

  /** Stops the pending debounce and makes an answer under way stale. */
  function clearDraft() {
    if (debounce !== undefined) clearTimer(debounce);
    debounce = undefined;
    quoteRequest++;
  }

  // Another account or network: the draft and the token list no longer apply, nor a quote the
  // previous account asked for.
  let last = `${account.getState().caipAddress}`;
  account.subscribe(() => {
    const now = `${account.getState().caipAddress}`;
    if (now !== last) {
      clearDraft();
      store.setState(EMPTY);
    }
    last = now;
  });
  return controller;
}
