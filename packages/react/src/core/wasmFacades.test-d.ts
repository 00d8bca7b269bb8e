// The wasm packages' generated declarations are the source of truth (issue 31): the narrow views
// React keeps of them must stay satisfied by the real modules, so a changed signature in a façade
// fails here and in the importing code, with no cast in between.
import { describe, expectTypeOf, it } from 'vitest';
import type * as Engine from '@latch/wasm-walletconnect';
import type { Eip1193Provider } from './types.js';
import type { WalletConnectModule, WalletConnectProvider } from './walletConnect.js';

declare const provider: Engine.WalletConnectProvider;

describe('@latch/wasm-walletconnect as React uses it', () => {
  it('the module satisfies what the controller loads', () => {
    expectTypeOf<typeof Engine>().toMatchTypeOf<WalletConnectModule>();
  });

  it('its provider is an EIP-1193 provider as the connection stores it', () => {
    expectTypeOf<Engine.WalletConnectProvider>().toMatchTypeOf<WalletConnectProvider>();
    expectTypeOf<WalletConnectProvider>().toMatchTypeOf<Eip1193Provider>();
  });

  it('listeners get each event its payload type', () => {
    provider.on('chainChanged', (chainId) => expectTypeOf(chainId).toEqualTypeOf<string>());
    provider.on('accountsChanged', (accounts) => expectTypeOf(accounts).toEqualTypeOf<string[]>());
  });
});
