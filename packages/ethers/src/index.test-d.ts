import type { Latch } from '@latch/react';
import type { BrowserProvider, JsonRpcSigner } from 'ethers';
import { providers } from 'ethers5';
import { describe, expectTypeOf, it } from 'vitest';
import { getLatchBrowserProvider, getLatchSigner, watchLatchSigner } from './index.js';
import { getLatchWeb3Provider, watchLatchWeb3Provider } from './v5.js';

declare const latch: Latch;

describe('the public API', () => {
  it('gives ethers v6 objects', () => {
    expectTypeOf(getLatchBrowserProvider(latch)).toEqualTypeOf<BrowserProvider>();
    expectTypeOf(getLatchSigner(latch)).toEqualTypeOf<Promise<JsonRpcSigner>>();
    expectTypeOf(watchLatchSigner).parameter(1).parameter(0).toEqualTypeOf<
      { provider: BrowserProvider; signer: JsonRpcSigner; chainId: number } | undefined
    >();
    expectTypeOf(watchLatchSigner(latch, () => undefined)).toEqualTypeOf<() => void>();
  });

  it("gives the v5 class's own instances", () => {
    expectTypeOf(getLatchWeb3Provider(latch, providers.Web3Provider)).toEqualTypeOf<providers.Web3Provider>();
    watchLatchWeb3Provider(latch, providers.Web3Provider, (provider) => {
      expectTypeOf(provider).toEqualTypeOf<providers.Web3Provider | undefined>();
    });
    // @ts-expect-error: the v5 class is required
    getLatchWeb3Provider(latch);
  });
});
