import type { ConnectionState, AccountState } from './connection.js';
import type { Eip1193Provider, StandardWallet } from './types.js';

/** The namespaces Latch has an adapter for (behaviour 3.8): the ones its connectors sign in. */
export type AdapterNamespace = 'eip155' | 'solana';

/**
 * What `getProvider(namespace)` hands a chain library: the EIP-1193 provider for `eip155` (viem,
 * ethers, wagmi), the Wallet Standard wallet for `solana` (its `accounts` hold the connected one).
 */
export interface NamespaceProviders {
  eip155: Eip1193Provider;
  solana: StandardWallet;
}

/** Behaviour 2.15's messages, verbatim (callers match on them); one constant each, so a bundle keeps only those it throws. */
export const CHAIN_ADAPTER_NOT_FOUND = 'Chain adapter not found';
export const PROVIDER_UNDEFINED = 'UniversalAdapter:signMessage - provider is undefined';

/** The stable codes of `LatchAdapterError`, one per message. */
export type AdapterErrorCode = 'CHAIN_ADAPTER_NOT_FOUND' | 'PROVIDER_UNDEFINED' | 'NETWORK_NOT_FOUND' | 'LAST_NETWORK';

/**
 * A call Latch's adapters cannot serve: a namespace without an adapter (`Chain adapter not found`),
 * a network that is not there to remove (`Network not found`), the last network (`At least one
 * network must be configured`), a wallet without the provider a call needs (`UniversalAdapter:signMessage
 * - provider is undefined`). `message` is the documented text; `code` is stable.
 */
export class LatchAdapterError extends Error {
  override readonly name = 'LatchAdapterError';
  constructor(
    readonly code: AdapterErrorCode,
    message: string,
    /** What the call named: a namespace, a network id, a wallet. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Throws `Chain adapter not found` for a namespace no Latch connector signs in. */
export function requireAdapter(namespace: unknown): asserts namespace is AdapterNamespace {
  if (namespace !== 'eip155' && namespace !== 'solana') {
    throw new LatchAdapterError('CHAIN_ADAPTER_NOT_FOUND', CHAIN_ADAPTER_NOT_FOUND, String(namespace));
  }
}

/**
 * The connected wallet's provider in `namespace`, or undefined when nothing is connected there.
 * Reads the two stores only, so a hook can call it on every render.
 */
export function providerFor<N extends AdapterNamespace>(
  namespace: N,
  connection: ConnectionState,
  account: AccountState,
): NamespaceProviders[N] | undefined {
  const { status, connectors, activeConnectorId } = connection;
  const connector = connectors.find(({ id }) => id === activeConnectorId);
  if (status !== 'connected' || !connector || !account.caipNetworkId?.startsWith(`${namespace}:`)) return undefined;
  const provider = connector.namespace === 'solana' ? connector.wallet : connector.provider;
  return provider as NamespaceProviders[N];
}
