import type { Eip1193Provider, Latch } from '@latch/react';

/** The connected EVM wallet as Latch knows it. */
export interface LatchEvmSession {
  /** EIP-55 checksummed. */
  address: string;
  chainId: number;
  provider: Eip1193Provider;
}

/** The connected EVM session, or undefined when Latch has none (or a Solana wallet is connected). */
export function latchEvmSession(latch: Latch): LatchEvmSession | undefined {
  const { status, connectors, activeConnectorId } = latch.connection.getState();
  const { address, caipNetworkId } = latch.account.getState();
  const connector = connectors.find(({ id }) => id === activeConnectorId);
  if (status !== 'connected' || !connector || connector.namespace === 'solana') return undefined;
  if (!address || !caipNetworkId?.startsWith('eip155:')) return undefined;
  const chainId = Number(caipNetworkId.slice('eip155:'.length));
  return Number.isSafeInteger(chainId) ? { address, chainId, provider: connector.provider } : undefined;
}

/** The error thrown when an ethers object is asked for with no EVM wallet connected. */
export class LatchNotConnectedError extends Error {
  override readonly name = 'LatchNotConnectedError';
  constructor() {
    super('No EVM wallet is connected through Latch');
  }
}

/**
 * Calls `onChange` with the session now and after every account, chain or wallet change (and
 * `undefined` on disconnect). Returns the unsubscribe.
 */
export function watchLatchEvmSession(latch: Latch, onChange: (session: LatchEvmSession | undefined) => void): () => void {
  let last: LatchEvmSession | undefined;
  let first = true;
  const check = () => {
    const session = latchEvmSession(latch);
    const same =
      session?.address === last?.address && session?.chainId === last?.chainId && session?.provider === last?.provider;
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
