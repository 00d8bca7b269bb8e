import { filterLowQualityTokens, isValidAddress } from '@latch/wasm';
import type { MessageKey } from '../locales/index.js';
import type { AccountDataController } from './accountData.js';
import type { TokenBalance } from './api.js';
import type { AccountState } from './connection.js';
import type { Gateway } from './gateway.js';
import type { ModalController, ViewData } from './modal.js';
import type { TransactionStack } from './transactionStack.js';
import { createStore, type Store } from './store.js';
import type { ToastController } from './toasts.js';
import type { TransactionsController } from './transactions.js';
import { WalletRequestError } from './transactions.js';
import type { Network } from './types.js';
import { loadWasmExtra } from './wasmExtra.js';

/** The documented send draft (behaviour 5.4), as the Send view edits it. */
export interface SendState {
  step: 'form' | 'preview';
  token?: TokenBalance;
  /** The amount as typed, whole units. */
  amount: string;
  /** The receiver as typed: an address or a name. */
  receiverInput: string;
  /** The address the receiver resolved to (the input itself when it is an address). */
  receiverAddress?: string;
  receiverName?: string;
  receiverAvatar?: string;
  resolving: boolean;
  /** Wei, `0x`-hex, from the gateway's `eth_gasPrice`. */
  gasPrice?: string;
  /** From `eth_estimateGas`. */
  gasLimit?: string;
  /** Gas limit × gas price, native coin and USD, exact decimals. */
  gasFee?: string;
  gasFeeUsd?: string;
  networkBalanceUsd?: string;
  insufficientGas: boolean;
  /** The amount is the native Max: the send then pays exactly the gas the Max kept. */
  maxed: boolean;
  /** True while the wallet is asked. */
  loading: boolean;
  /** What the form shows in `send-error`. */
  error?: MessageKey;
  /** When gas was last read (ms). */
  lastRetry?: number;
}

/** A Solana send, built and signed elsewhere (core/solanaTransfer.ts); resolves with the signature. */
export type SendSolana = (draft: {
  token: TokenBalance;
  amount: string;
  receiverAddress: string;
}) => Promise<string>;

export interface SendController {
  store: Store<SendState>;
  /** Native first, then the tokens, low-quality ones hidden (behaviour 5.1). */
  tokens(): TokenBalance[];
  /** The visitor's choice of token: the amount starts over. */
  selectToken(token: TokenBalance): void;
  /**
   * Starts the draft from `open({ view: 'Send', data })`: the receiver (resolved when a name), the
   * amount, and the token once the balances list it (`pickToken`).
   */
  prefill(data: ViewData['Send']): void;
  /**
   * Selects the token the draft started from once it is listed, else the first (native) token when
   * none is selected; keeps the amount. The view calls it as the balances load.
   */
  pickToken(): void;
  setAmount(amount: string): void;
  setReceiver(input: string): void;
  /** Resolves a name receiver through the Latch server (ENS and Latch names). */
  resolveReceiver(): Promise<void>;
  /** Reads the gas price and limit through the gateway and prices them. */
  refreshGas(): Promise<void>;
  /** Fills in the most that can be sent (native: keeps the gas cost). */
  setMax(): Promise<void>;
  /** Checks the draft; on success shows the preview. */
  preview(): Promise<void>;
  /** Back from the preview to the form. */
  edit(): void;
  /** Asks the wallet; on success shows "Transaction started", resets, returns to Account. */
  send(): Promise<void>;
  reset(): void;
  /** Set by the host app's Solana wiring; until then a Solana account gets "Unsupported chain". */
  sendSolana?: SendSolana;
}

const EMPTY: SendState = {
  step: 'form',
  token: undefined,
  amount: '',
  receiverInput: '',
  receiverAddress: undefined,
  receiverName: undefined,
  receiverAvatar: undefined,
  resolving: false,
  gasPrice: undefined,
  gasLimit: undefined,
  gasFee: undefined,
  gasFeeUsd: undefined,
  networkBalanceUsd: undefined,
  insufficientGas: false,
  maxed: false,
  loading: false,
  error: undefined,
  lastRetry: undefined,
};

/** latch-core's send-draft messages (behaviour 5.5, 5.6) and the catalogue keys that translate them. */
const DRAFT_MESSAGES: Record<string, MessageKey> = {
  'Please select a token': 'sendSelectToken',
  'Please enter a valid amount and receiver address': 'sendMissingAmountOrReceiver',
  'Gas price is not available yet, please try again': 'sendGasUnavailable',
  'Token decimals are not available, please select the token again': 'sendDecimalsUnavailable',
  'Unsupported chain': 'unsupportedChain',
};

/** latch-core error codes of a send request and their messages. */
const CODE_MESSAGES: Record<string, MessageKey> = {
  INVALID_EVM_ADDRESS: 'sendInvalidAddress',
  INVALID_SOLANA_ADDRESS: 'sendInvalidAddress',
  INVALID_AMOUNT: 'sendInvalidAmount',
  AMOUNT_EXCEEDS_BALANCE: 'sendAmountExceedsBalance',
  INCOMPLETE_SEND_DRAFT: 'sendGasUnavailable',
};

function messageOf(error: unknown): MessageKey {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (error instanceof WalletRequestError) {
    if (error.kind === 'rejected') return 'sendRejected';
    if (error.kind === 'unsupportedChain') return 'unsupportedChain';
    return 'sendFailed';
  }
  return (message && DRAFT_MESSAGES[message]) || (code && CODE_MESSAGES[code]) || 'sendFailed';
}

const decimalsOf = (token: TokenBalance) => Number(token.quantity.decimals);

/** Whether `name` (lower case) is the token's CAIP-10 id, its contract address or its symbol. */
const namesToken = (token: TokenBalance, name: string) =>
  token.symbol.toLowerCase() === name ||
  (token.address !== undefined &&
    (token.address.toLowerCase() === name || token.address.split(':').at(-1)?.toLowerCase() === name));
const isNative = (token: TokenBalance | undefined) => !token?.address;

export function createSend({
  account,
  accountData,
  networks,
  gateway,
  transactions,
  toasts,
  modal,
  transactionStack,
  now = () => Date.now(),
}: {
  account: Store<AccountState>;
  accountData: AccountDataController;
  networks: readonly Network[];
  gateway: Gateway;
  transactions: TransactionsController;
  toasts: ToastController;
  modal: ModalController;
  /** The flow Send runs on when the Account action started it (behaviour 1.13 "Transaction stack"). */
  transactionStack?: TransactionStack;
  now?: () => number;
}): SendController {
  const store = createStore<SendState>(EMPTY);
  let resolveRequest = 0;
  let gasRequest = 0;
  /** The token `prefill` named, until the balances list it. */
  let wantedToken: string | undefined;

  const network = () => networks.find((n) => n.caipNetworkId === account.getState().caipNetworkId);
  const namespace = () => account.getState().caipNetworkId?.split(':')[0] ?? '';

  // Behaviour 3.5 "Networks": switching the network (or account) clears the send draft.
  let last = `${account.getState().caipAddress}`;
  account.subscribe(() => {
    const now = `${account.getState().caipAddress}`;
    if (now !== last) reset();
    last = now;
  });

  function tokens(): TokenBalance[] {
    const { balances } = accountData.tokens.getState();
    const shown = filterLowQualityTokens(balances as TokenBalance[]) as TokenBalance[];
    const native = shown.filter((token) => !token.address);
    const others = shown.filter((token) => token.address);
    const net = network();
    const { balance } = account.getState();
    // Without the server's balances (none yet, or unreadable), the native coin is still sendable.
    if (native.length === 0 && net && balance !== undefined) {
      native.push({
        name: net.nativeCurrency.name,
        symbol: net.nativeCurrency.symbol,
        chainId: net.caipNetworkId,
        price: 0,
        quantity: { decimals: String(net.nativeCurrency.decimals), numeric: balance },
        iconUrl: '',
      });
    }
    return [...native, ...others];
  }

  /**
   * A name's address on the active chain: its ENSIP-11 coin type's record, else the Ethereum one
   * (ENS `addr`, which EVM names also use on other chains).
   */
  async function lookupName(name: string) {
    const profile = await accountData.profile(name);
    if (!profile) return undefined;
    const { evmChainIdToCoinType } = await loadWasmExtra();
    const chainId = network()?.id;
    const own = typeof chainId === 'number' ? profile.addresses[String(evmChainIdToCoinType(chainId))] : undefined;
    const entry = own ?? profile.addresses['60'];
    return entry && { address: entry.address, avatar: profile.attributes.avatar };
  }

  function reset() {
    resolveRequest++;
    gasRequest++;
    wantedToken = undefined;
    store.setState(EMPTY);
  }

  /** Sets the token without touching the amount (a prefilled one stays), then reads gas for it. */
  function chooseToken(token: TokenBalance) {
    store.setState({ token, maxed: false, error: undefined });
    void refreshGas();
  }

  function nativeToken() {
    return tokens().find((token) => !token.address);
  }

  async function refreshGas() {
    const net = network();
    const { address } = account.getState();
    if (!net || !address || net.chainNamespace !== 'eip155') return;
    const request = ++gasRequest;
    const { token, receiverAddress } = store.getState();
    let insufficientIfUnknown = false;
    try {
      const { buildSendTransaction, gasCost, fiatValue, isInsufficientGas } = await loadWasmExtra();
      const native = nativeToken();
      const price = native?.price ?? 0;
      const networkBalanceUsd = fiatValue(native?.quantity.numeric ?? account.getState().balance ?? '0', price);
      // Without gas figures (an estimate fails on an empty account) a zero balance still cannot pay.
      insufficientIfUnknown = isInsufficientGas({ networkBalanceUsd, gasPriceUsd: null, isSmartAccount: false });
      const to = receiverAddress ?? address;
      // A token send is estimated as a transfer of the whole balance (always a valid amount).
      const transaction =
        token && !isNative(token)
          ? buildSendTransaction({
              receiverAddress: to,
              amount: token.quantity.numeric,
              decimals: decimalsOf(token),
              tokenAddress: token.address,
            })
          : { to, value: '0x0', data: '0x' };
      const [gasPrice, gasLimit] = (await Promise.all([
        gateway.request(net.caipNetworkId, 'eth_gasPrice', []),
        gateway.request(net.caipNetworkId, 'eth_estimateGas', [{ from: address, ...transaction }]),
      ])) as [string, string];
      if (request !== gasRequest) return;
      const cost = gasCost({ gasLimit, gasPrice, nativeDecimals: net.nativeCurrency.decimals, nativePriceUsd: price });
      store.setState({
        gasPrice,
        gasLimit,
        gasFee: cost.fee,
        gasFeeUsd: cost.feeUsd,
        networkBalanceUsd,
        insufficientGas: isInsufficientGas({ networkBalanceUsd, gasPriceUsd: cost.feeUsd, isSmartAccount: false }),
        lastRetry: now(),
      });
    } catch {
      if (request !== gasRequest) return;
      // Without gas figures the draft check says "Gas price is not available yet".
      store.setState({ gasPrice: undefined, gasLimit: undefined, insufficientGas: insufficientIfUnknown, lastRetry: now() });
    }
  }

  async function resolveReceiver() {
    const input = store.getState().receiverInput.trim();
    const request = ++resolveRequest;
    if (!input || isValidAddress('eip155', input) || !input.includes('.')) {
      store.setState({ receiverAddress: input || undefined, receiverName: undefined, receiverAvatar: undefined, resolving: false });
      if (isValidAddress('eip155', input)) void refreshGas();
      return;
    }
    store.setState({ resolving: true, receiverAddress: undefined, receiverName: undefined, receiverAvatar: undefined });
    try {
      const found = await lookupName(input.toLowerCase());
      if (request !== resolveRequest) return;
      store.setState({
        resolving: false,
        receiverAddress: found?.address,
        receiverName: found ? input.toLowerCase() : undefined,
        receiverAvatar: found?.avatar,
        error: found ? undefined : 'sendNameNotFound',
      });
      if (found) void refreshGas();
    } catch {
      if (request !== resolveRequest) return;
      store.setState({ resolving: false, error: 'nameResolveFailed' });
    }
  }

  async function setMax() {
    const { token, gasLimit, gasPrice } = store.getState();
    if (!token) return store.setState({ error: 'sendSelectToken' });
    try {
      const { maxSendAmount } = await loadWasmExtra();
      const native = isNative(token);
      if (native && (!gasLimit || !gasPrice)) await refreshGas();
      const state = store.getState();
      const amount = maxSendAmount({
        balance: token.quantity.numeric,
        decimals: decimalsOf(token),
        isNative: native,
        gasLimit: state.gasLimit,
        gasPrice: state.gasPrice,
      });
      store.setState({ amount, maxed: native, error: undefined });
    } catch (error) {
      store.setState({ error: messageOf(error) });
    }
  }

  /** The wallet request for the draft; throws latch-core's error for a draft that cannot be sent. */
  async function transactionOf(state: SendState) {
    const { validateSendDraft, buildSendTransaction } = await loadWasmExtra();
    validateSendDraft({
      chainNamespace: namespace(),
      token: state.token,
      sendTokenAmount: state.amount.trim() || null,
      receiverAddress: state.receiverAddress ?? null,
      gasPrice: state.gasPrice ?? null,
    });
    const token = state.token as TokenBalance;
    return buildSendTransaction({
      receiverAddress: state.receiverAddress as string,
      amount: state.amount.trim(),
      decimals: decimalsOf(token),
      tokenAddress: token.address ?? null,
      balance: token.quantity.numeric,
    });
  }

  const controller: SendController = {
    store,
    tokens,
    selectToken(token) {
      wantedToken = undefined;
      store.setState({ amount: '' });
      chooseToken(token);
    },
    prefill({ token, amount, receiver }) {
      reset();
      wantedToken = token?.trim().toLowerCase() || undefined;
      if (amount !== undefined) store.setState({ amount: String(amount) });
      if (receiver) {
        controller.setReceiver(receiver);
        void resolveReceiver();
      }
      controller.pickToken();
    },
    pickToken() {
      const list = tokens();
      const wanted = wantedToken && list.find((candidate) => namesToken(candidate, wantedToken!));
      if (wanted) {
        wantedToken = undefined;
        if (wanted !== store.getState().token) chooseToken(wanted);
      } else if (!store.getState().token && list[0]) {
        chooseToken(list[0]);
      }
    },
    setAmount(amount) {
      store.setState({ amount, maxed: false, error: undefined });
    },
    setReceiver(receiverInput) {
      resolveRequest++;
      store.setState({
        receiverInput,
        receiverAddress: undefined,
        receiverName: undefined,
        receiverAvatar: undefined,
        error: undefined,
      });
    },
    resolveReceiver,
    refreshGas,
    setMax,
    async preview() {
      if (store.getState().lastRetry === undefined) await refreshGas();
      const state = store.getState();
      if (state.resolving) return;
      if (namespace() === 'solana' && !controller.sendSolana) return store.setState({ error: 'unsupportedChain' });
      if (namespace() !== 'solana' && state.receiverInput.trim() && !state.receiverAddress) {
        return store.setState({ error: state.receiverInput.includes('.') ? 'sendNameNotFound' : 'sendInvalidAddress' });
      }
      try {
        if (namespace() === 'solana') {
          const { validateSendDraft } = await loadWasmExtra();
          validateSendDraft({ chainNamespace: 'solana', sendTokenAmount: state.amount.trim() || null, receiverAddress: state.receiverInput.trim() });
        } else {
          await transactionOf(state);
          if (store.getState().insufficientGas) return store.setState({ error: 'sendInsufficientGas' });
        }
        store.setState({ step: 'preview', error: undefined });
      } catch (error) {
        store.setState({ error: messageOf(error) });
      }
    },
    edit() {
      store.setState({ step: 'form', error: undefined });
    },
    async send() {
      const state = store.getState();
      if (state.loading) return;
      store.setState({ loading: true, error: undefined });
      try {
        if (namespace() === 'solana') {
          if (!controller.sendSolana || !state.token) throw new WalletRequestError('unsupportedChain');
          await controller.sendSolana({ token: state.token, amount: state.amount.trim(), receiverAddress: state.receiverInput.trim() });
        } else {
          const transaction = await transactionOf(state);
          // A native Max leaves exactly gas limit × gas price: the wallet must not pick higher fees.
          const fees = state.maxed ? { gas: state.gasLimit, gasPrice: state.gasPrice } : {};
          await transactions.sendTransaction({ ...transaction, ...fees });
        }
      } catch (error) {
        // Solana failures have their own text (behaviour 5.6); EVM ones "Something went wrong".
        const message = messageOf(error);
        const solanaFailure = namespace() === 'solana' && message === 'sendFailed';
        store.setState({ loading: false, error: solanaFailure ? 'sendSolanaFailed' : message });
        return;
      }
      // Behaviour 5.6 "Send": back to Account, "Transaction started", the draft reset. Started from the
      // Account action, Send is a flow on the transaction stack, whose success does the return.
      reset();
      const flow = transactionStack?.store.getState().entries.at(-1);
      if (flow?.view === 'Send') transactionStack!.success();
      else modal.reset('Account');
      toasts.show({ variant: 'success', message: 'sendStarted' });
    },
    reset,
  };
  return controller;
}
