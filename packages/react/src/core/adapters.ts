import type { ConnectionState, AccountState } from './connection.js';
import type { Eip1193Provider, StandardWallet } from './types.js';

/** The namespaces Latch has an adapter for (behaviour 3.8): the ones its connectors sign in. */
export type AdapterNamespace = 'eip155' | 'solana';

export const ADAPTER_NAMESPACES: readonly AdapterNamespace[] = ['eip155', 'solana'];

/**
 * What `getProvider(namespace)` hands a chain library: the EIP-1193 provider for `eip155` (viem,
 * ethers, wagmi), the Wallet Standard wallet for `solana` (its `accounts` hold the connected one).
 */
export interface NamespaceProviders {
  eip155: Eip1193Provider;
  solana: StandardWallet;
}

/** Behaviour 2.15's messages (verbatim: callers match on them), by stable code. */
export const ADAPTER_ERROR_MESSAGES = {
  CHAIN_ADAPTER_NOT_FOUND: 'Chain adapter not found',
  PROVIDER_UNDEFINED: 'UniversalAdapter:signMessage - provider is undefined',
  NETWORK_NOT_FOUND: 'Network not found',
  LAST_NETWORK: 'At least one network must be configured',
} as const;

export type AdapterErrorCode = keyof typeof ADAPTER_ERROR_MESSAGES;

/**
 * A call Latch's adapters cannot serve: a namespace without an adapter, a network that is not
 * there to remove, the last network, a wallet without the provider a call needs. `message` is the
 * documented text; `code` is stable.
 */
export class LatchAdapterError extends Error {
  override readonly name = 'LatchAdapterError';
  constructor(
    readonly code: AdapterErrorCode,
    /** What the call named: a namespace or a network id. */
    readonly detail?: string,
  ) {
    super(ADAPTER_ERROR_MESSAGES[code]);
  }
}

export const isAdapterNamespace = (namespace: unknown): namespace is AdapterNamespace =>
  ADAPTER_NAMESPACES.includes(namespace as AdapterNamespace);

/** Throws `Chain adapter not found` for a namespace no Latch connector signs in. */
export function requireAdapter(namespace: unknown): asserts namespace is AdapterNamespace {
  if (!isAdapterNamespace(namespace)) throw new LatchAdapterError('CHAIN_ADAPTER_NOT_FOUND', String(namespace));
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
