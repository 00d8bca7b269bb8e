import type { AccountDataController } from './accountData.js';
import type { ConnectionController } from './connection.js';
import type { Gateway } from './gateway.js';
import { createStore, type Store } from './store.js';
import type { CaipNetworkId } from './types.js';

/**
 * Why a signature or transaction asked of the wallet did not happen: `rejected` (the user said
 * no: EIP-1193 4001, WalletConnect 5000–5002), `unsupportedChain` (the account is in a namespace
 * this call does not serve, behaviour 5.5 "Unsupported chain"), `notConnected`, `reverted` (mined but
 * failed), `failed` (anything else; `cause` holds what was thrown).
 */
export type WalletRequestErrorKind = 'rejected' | 'unsupportedChain' | 'notConnected' | 'reverted' | 'failed';

export class WalletRequestError extends Error {
  override readonly name = 'WalletRequestError';
  constructor(
    readonly kind: WalletRequestErrorKind,
    override readonly cause?: unknown,
  ) {
    super(MESSAGES[kind] ?? String((cause as Error | undefined)?.message ?? cause));
  }
}

const MESSAGES: Partial<Record<WalletRequestErrorKind, string>> = {
  rejected: 'User rejected the request',
  unsupportedChain: 'Unsupported chain',
  notConnected: 'No ConnectionController client found',
  reverted: 'Transaction reverted',
};

/** An EVM transaction for the wallet to sign and send; quantities as `0x`-hex text or bigint. */
export interface TransactionRequest {
  to: string;
  value?: string | bigint;
  data?: string;
  /** Gas limit; the wallet estimates it when absent. */
  gas?: string | bigint;
  /** Legacy gas price; the wallet picks its fees when absent. */
  gasPrice?: string | bigint;
}

/** The fields of an `eth_getTransactionReceipt` answer Latch reads. */
export interface TransactionReceipt {
  transactionHash: string;
  /** `0x1` success, `0x0` reverted. */
  status: string;
  blockNumber: string;
  gasUsed: string;
  [field: string]: unknown;
}

export interface PendingTransaction {
  hash: string;
  caipNetworkId: CaipNetworkId;
}

export interface TransactionsState {
  /** Sent and not mined yet, oldest first. */
  pending: readonly PendingTransaction[];
}

export interface TransactionsController {
  store: Store<TransactionsState>;
  /** Signs `message` with the connected wallet; throws `WalletRequestError`. */
  signMessage(message: string): Promise<string>;
  /**
   * Asks the connected EVM wallet to send `request` (`eth_sendTransaction`, from the connected
   * account) and returns its hash at once; the transaction then stays in `pending` until mined,
   * after which the balances and activity are read again. Throws `WalletRequestError`.
   */
  sendTransaction(request: TransactionRequest): Promise<string>;
  /** Polls the Latch gateway for the receipt; throws `WalletRequestError` (`reverted`, `failed`). */
  waitForReceipt(hash: string, caipNetworkId?: CaipNetworkId): Promise<TransactionReceipt>;
}

/** What the transaction logic needs; the store is the controller's own, made at once. */
export interface TransactionsDeps {
  connection: ConnectionController;
  gateway: Gateway;
  accountData: AccountDataController;
  store: Store<TransactionsState>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * The controller, with the logic (wallet requests, receipt polling) in a module of its own that
 * loads at the first call: a page that never signs or sends does not carry it before the click.
 */
export function createTransactions(deps: Omit<TransactionsDeps, 'store'>): TransactionsController {
  const store = createStore<TransactionsState>({ pending: [] });
  let logic: Promise<Omit<TransactionsController, 'store'>> | undefined;
  const load = () => {
    logic ??= import('./transactionsRun.js').then((module) => module.transactionLogic({ ...deps, store }));
    logic.catch(() => (logic = undefined));
    return logic;
  };
  return {
    store,
    signMessage: async (message) => (await load()).signMessage(message),
    sendTransaction: async (request) => (await load()).sendTransaction(request),
    waitForReceipt: async (hash, caipNetworkId) => (await load()).waitForReceipt(hash, caipNetworkId),
  };
}
