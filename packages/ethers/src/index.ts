import type { Latch } from '@latch/react';
import { BrowserProvider, type JsonRpcSigner } from 'ethers';
import { latchEvmSession, LatchNotConnectedError, watchLatchEvmSession, type LatchEvmSession } from './session.js';

export { latchEvmSession, LatchNotConnectedError, watchLatchEvmSession, type LatchEvmSession } from './session.js';

// One BrowserProvider per wallet provider, so ethers' request batching and caches are shared.
const browserProviders = new WeakMap<object, BrowserProvider>();

function browserProviderFor(session: LatchEvmSession): BrowserProvider {
  let provider = browserProviders.get(session.provider);
  if (!provider) {
    // 'any': the wallet may change chains; ethers then follows instead of failing with "network changed".
    provider = new BrowserProvider(session.provider, 'any');
    browserProviders.set(session.provider, provider);
  }
  return provider;
}

/** An ethers v6 `BrowserProvider` over the connected wallet; throws `LatchNotConnectedError` without one. */
export function getLatchBrowserProvider(latch: Latch): BrowserProvider {
  const session = latchEvmSession(latch);
  if (!session) throw new LatchNotConnectedError();
  return browserProviderFor(session);
}

/** An ethers v6 `JsonRpcSigner` for the connected account; throws `LatchNotConnectedError` without one. */
export function getLatchSigner(latch: Latch): Promise<JsonRpcSigner> {
  const session = latchEvmSession(latch);
  if (!session) return Promise.reject(new LatchNotConnectedError());
  return browserProviderFor(session).getSigner(session.address);
}

/**
 * Calls `onChange` with a provider and signer for the connected account now and whenever the
 * account, chain or wallet changes, and with `undefined` on disconnect. Returns the unsubscribe.
 */
export function watchLatchSigner(
  latch: Latch,
  onChange: (current: { provider: BrowserProvider; signer: JsonRpcSigner; chainId: number } | undefined) => void,
): () => void {
  let generation = 0;
  return watchLatchEvmSession(latch, (session) => {
    const current = ++generation;
    if (!session) return onChange(undefined);
    const provider = browserProviderFor(session);
    void provider.getSigner(session.address).then(
      (signer) => current === generation && onChange({ provider, signer, chainId: session.chainId }),
      () => current === generation && onChange(undefined),
    );
  });
}
