import { hexQuantity, parseCaipNetworkId } from '@latch/wasm';
import type { TransactionReceipt, TransactionsController, TransactionsDeps, PendingTransaction } from './transactions.js';
import { WalletRequestError } from './transactions.js';
import type { CaipNetworkId } from './types.js';
import { declinedByUser } from './walletErrors.js';

/** How often the gateway is asked for a receipt; devnets mine at once, chains every few seconds. */
export const RECEIPT_POLL_MS = 1_000;
/** After this long without a receipt the wait gives up (the transaction may still be mined). */
export const RECEIPT_TIMEOUT_MS = 180_000;

const toQuantity = (value: string | bigint | undefined) =>
  typeof value === 'bigint' ? hexQuantity(value.toString()) : value;

/** The signing and sending behind `createTransactions`, over its store. */
export function transactionLogic({
  connection,
  gateway,
  accountData,
  store,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now = () => Date.now(),
}: TransactionsDeps): Omit<TransactionsController, 'store'> {

  /** The connected EVM wallet and account, or the typed reason there is none. */
  function connectedEvm() {
    const { status, connectors, activeConnectorId } = connection.connection.getState();
    const { address, caipNetworkId } = connection.account.getState();
    const connector = connectors.find(({ id }) => id === activeConnectorId);
    if (status !== 'connected' || !connector || !address || !caipNetworkId) throw new WalletRequestError('notConnected');
    if (connector.namespace === 'solana' || parseCaipNetworkId(caipNetworkId).namespace !== 'eip155') {
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
