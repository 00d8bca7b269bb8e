import type { AccountDataController } from './accountData.js';
import type { ConnectionController } from './connection.js';
import type { Gateway } from './gateway.js';
import { createStore, type Store } from './store.js';
import type { CaipNetworkId } from './types.js';
import { declinedByUser } from './walletErrors.js';

/**
 * Why a signature or transaction asked of the wallet did not happen: `rejected` (the user said
 * no: EIP-1193 4001, WalletConnect 5000–5002), `unsupportedChain` (the account is in a namespace
 * this call does not serve, spec §8 "Unsupported chain"), `notConnected`, `reverted` (mined but
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

/** How often the gateway is asked for a receipt; devnets mine at once, chains every few seconds. */
export const RECEIPT_POLL_MS = 1_000;
/** After this long without a receipt the wait gives up (the transaction may still be mined). */
export const RECEIPT_TIMEOUT_MS = 180_000;

const toQuantity = (value: string | bigint | undefined) =>
  typeof value === 'bigint' ? `0x${value.toString(16)}` : value;

export function createTransactions({
  connection,
  gateway,
  accountData,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now = () => Date.now(),
}: {
  connection: ConnectionController;
  gateway: Gateway;
  accountData: AccountDataController;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}): TransactionsController {
  const store = createStore<TransactionsState>({ pending: [] });

  /** The connected EVM wallet and account, or the typed reason there is none. */
  function connectedEvm() {
    const { status, connectors, activeConnectorId } = connection.connection.getState();
    const { address, caipNetworkId } = connection.account.getState();
    const connector = connectors.find(({ id }) => id === activeConnectorId);
    if (status !== 'connected' || !connector || !address || !caipNetworkId) throw new WalletRequestError('notConnected');
    if (connector.namespace === 'solana' || !caipNetworkId.startsWith('eip155:')) {
      throw new WalletRequestError('unsupportedChain');
    }
    return { provider: connector.provider, address, caipNetworkId };
  }

  const typed = (cause: unknown) =>
    cause instanceof WalletRequestError ? cause : new WalletRequestError(declinedByUser(cause) ? 'rejected' : 'failed', cause);

  async function waitForReceipt(hash: string, caipNetworkId?: CaipNetworkId): Promise<TransactionReceipt> {
    const network = caipNetworkId ?? connection.account.getState().caipNetworkId;
    if (!network) throw new WalletRequestError('notConnected');
    const deadline = now() + RECEIPT_TIMEOUT_MS;
    for (;;) {
      let receipt: TransactionReceipt | null = null;
      try {
        receipt = (await gateway.request(network, 'eth_getTransactionReceipt', [hash])) as TransactionReceipt | null;
      } catch (cause) {
        // One failed poll (a busy gateway) is not the transaction's failure; the deadline is.
        if (now() >= deadline) throw new WalletRequestError('failed', cause);
      }
      if (receipt) {
        if (receipt.status === '0x0') throw new WalletRequestError('reverted', receipt);
        return receipt;
      }
      if (now() >= deadline) throw new WalletRequestError('failed', new Error(`No receipt for ${hash}`));
      await sleep(RECEIPT_POLL_MS);
    }
  }

  /** Waits for `pending` to be mined, then reads what it changed; a failure only ends the wait. */
  async function settle(pending: PendingTransaction) {
    try {
      await waitForReceipt(pending.hash, pending.caipNetworkId);
    } catch {
      // Reverted or timed out: the balances are read anyway, as gas was (or may have been) spent.
    }
    store.setState(({ pending: all }) => ({ pending: all.filter((entry) => entry !== pending) }));
    await Promise.allSettled([connection.refreshBalance(), accountData.refreshTokens(true), accountData.refreshActivity()]);
  }

  return {
    store,
    async signMessage(message) {
      try {
        return await connection.signMessage(message);
      } catch (cause) {
        const { status } = connection.connection.getState();
        throw status === 'connected' ? typed(cause) : new WalletRequestError('notConnected', cause);
      }
    },
    async sendTransaction(request) {
      let hash: string;
      let caipNetworkId: CaipNetworkId;
      try {
        const wallet = connectedEvm();
        caipNetworkId = wallet.caipNetworkId;
        const transaction = {
          from: wallet.address,
          to: request.to,
          value: toQuantity(request.value),
          data: request.data,
          gas: toQuantity(request.gas),
          gasPrice: toQuantity(request.gasPrice),
        };
        hash = (await wallet.provider.request({ method: 'eth_sendTransaction', params: [transaction] })) as string;
      } catch (cause) {
        throw typed(cause);
      }
      const pending = { hash, caipNetworkId };
      store.setState(({ pending: all }) => ({ pending: [...all, pending] }));
      void settle(pending);
      return hash;
    },
    waitForReceipt,
  };
}
