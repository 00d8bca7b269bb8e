import type { Latch, SolanaConnector, StandardWallet, StandardWalletAccount } from '@latch/react';

/** The connected Solana wallet as Latch knows it. */
export interface LatchSolanaSession {
  /** Base58. */
  address: string;
  /** The Wallet Standard account of `address`, as the wallet gave it (its features name what it can sign). */
  account: StandardWalletAccount;
  /** The Latch network's CAIP-2 id (`solana:<genesis hash prefix>`): the chain every request names. */
  chain: string;
  /** The wallet the visitor picked in the Latch modal. */
  wallet: StandardWallet;
}

/** The connected Solana session, or undefined when Latch has none (or an EVM wallet is connected). */
export function latchSolanaSession(latch: Latch): LatchSolanaSession | undefined {
  const { status, connectors, activeConnectorId } = latch.connection.getState();
  const { address, caipNetworkId } = latch.account.getState();
  const connector = connectors.find(({ id }) => id === activeConnectorId);
  if (status !== 'connected' || connector?.namespace !== 'solana') return undefined;
  if (!address || !caipNetworkId?.startsWith('solana:')) return undefined;
  const { wallet } = connector as SolanaConnector;
  const account = wallet.accounts.find((candidate) => candidate.address === address);
  return account ? { address, account, chain: caipNetworkId, wallet } : undefined;
}

/** Whether an EVM wallet is connected through Latch (the modal then shows its account, not the wallet list). */
function otherNamespaceConnected(latch: Latch): boolean {
  const { status, connectors, activeConnectorId } = latch.connection.getState();
  const connector = connectors.find(({ id }) => id === activeConnectorId);
  return status === 'connected' && connector !== undefined && connector.namespace !== 'solana';
}

/**
 * Calls `onChange` with the session now and after every account, chain or wallet change (and
 * `undefined` on disconnect). Returns the unsubscribe.
 */
export function watchLatchSolanaSession(
  latch: Latch,
  onChange: (session: LatchSolanaSession | undefined) => void,
): () => void {
  let last: LatchSolanaSession | undefined;
  let first = true;
  const check = () => {
    const session = latchSolanaSession(latch);
    const same = session?.account === last?.account && session?.chain === last?.chain && session?.wallet === last?.wallet;
    if (!first && same) return;
    first = false;
    last = session;
    onChange(session);
  };
  const stopConnection = latch.connection.subscribe(check);
  const stopAccount = latch.account.subscribe(check);
  check();
  return () => {
    stopConnection();
    stopAccount();
  };
}

/** The visitor closed the Latch modal without connecting a Solana wallet. */
export class LatchConnectCancelledError extends Error {
  override readonly name = 'LatchConnectCancelledError';
  constructor() {
    super('The Latch modal was closed before a Solana wallet connected');
  }
}

/**
 * The Solana session once Latch is not connecting (a reload's restore of the last wallet, or a
 * wallet prompt under way), without opening anything: undefined when there is none then.
 */
export function settledLatchSolanaSession(latch: Latch): Promise<LatchSolanaSession | undefined> {
  return new Promise((resolve) => {
    if (latch.connection.getState().status !== 'connecting') return resolve(latchSolanaSession(latch));
    const stop = latch.connection.subscribe(() => {
      if (latch.connection.getState().status === 'connecting') return;
      stop();
      resolve(latchSolanaSession(latch));
    });
  });
}

/**
 * The Latch Solana session: the existing one (after a reload's restore settles), or the one the
 * visitor connects in the Latch modal (opened on its Solana wallets). Rejects with
 * `LatchConnectCancelledError` when the modal closes first.
 */
export async function connectLatchSolana(latch: Latch): Promise<LatchSolanaSession> {
  // A restore runs with the modal closed; a prompt from the open modal is the visitor's to finish there.
  const existing = latch.modal.store.getState().open ? latchSolanaSession(latch) : await settledLatchSolanaSession(latch);
  if (existing) return existing;
  return new Promise((resolve, reject) => {
    const stops: Array<() => void> = [];
    const finish = (outcome: () => void) => {
      stops.forEach((stop) => stop());
      outcome();
    };
    const check = () => {
      const session = latchSolanaSession(latch);
      if (session) return finish(() => resolve(session));
      // Closed while no attempt is under way: the visitor gave up (a wallet prompt keeps `connecting`).
      // `loading`: opening waits for the first view's images before `open` turns true.
      const { open, loading } = latch.modal.store.getState();
      if (!open && !loading && latch.connection.getState().status !== 'connecting') {
        finish(() => reject(new LatchConnectCancelledError()));
      }
    };
    // With an EVM wallet connected the modal would open on its account: ask for the wallet list.
    latch.modal.open(otherNamespaceConnected(latch) ? { view: 'Connect', namespace: 'solana' } : { namespace: 'solana' });
    stops.push(latch.connection.subscribe(check), latch.account.subscribe(check), latch.modal.store.subscribe(check));
  });
}

/** Ends the Latch connection if it is a Solana one (an EVM connection is not the adapter's to end). */
export function disconnectLatchSolana(latch: Latch): void {
  if (latchSolanaSession(latch)) latch.disconnect();
}
