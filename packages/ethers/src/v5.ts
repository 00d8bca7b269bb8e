import type { Eip1193Provider, Latch } from '@latch/react';
import { latchEvmSession, LatchNotConnectedError, watchLatchEvmSession } from './session.js';

export { LatchNotConnectedError } from './session.js';

/**
 * ethers v5's `providers.Web3Provider` class, passed in by the host: a v5 app may import ethers
 * under its own name (an npm alias beside v6), so this module imports neither.
 */
export type Web3ProviderClass<P> = new (provider: Eip1193Provider, network?: 'any') => P;

/**
 * An ethers v5 `Web3Provider` over the connected wallet (`network: 'any'`, so chain switches are
 * followed); throws `LatchNotConnectedError` without one. `provider.getSigner()` signs as the account.
 */
export function getLatchWeb3Provider<P>(latch: Latch, Web3Provider: Web3ProviderClass<P>): P {
  const session = latchEvmSession(latch);
  if (!session) throw new LatchNotConnectedError();
  return new Web3Provider(session.provider, 'any');
}

/**
 * Calls `onChange` with a v5 `Web3Provider` now and whenever the account, chain or wallet changes,
 * and with `undefined` on disconnect. Returns the unsubscribe.
 */
export function watchLatchWeb3Provider<P>(
  latch: Latch,
  Web3Provider: Web3ProviderClass<P>,
  onChange: (provider: P | undefined) => void,
): () => void {
  return watchLatchEvmSession(latch, (session) => onChange(session && new Web3Provider(session.provider, 'any')));
}
