import { describe, expectTypeOf, it } from 'vitest';
import {
  CHAIN_ADAPTER_NOT_FOUND,
  LatchAdapterError,
  useLatchProvider,
  type AdapterErrorCode,
  type Connector,
  type Eip1193Provider,
  type Latch,
  type Network,
  type StandardWallet,
  type OpenOptions,
  type ViewData,
  type ViewName,
} from './index.js';

declare const latch: Latch;
declare const network: Network;

describe('the universal provider', () => {
  it('is typed by namespace', () => {
    expectTypeOf(latch.getProvider('eip155')).toEqualTypeOf<Eip1193Provider | undefined>();
    expectTypeOf(latch.getProvider('solana')).toEqualTypeOf<StandardWallet | undefined>();
    // @ts-expect-error: no adapter for polkadot (it throws `Chain adapter not found` at run time)
    latch.getProvider('polkadot');
    // @ts-expect-error: a namespace is required
    latch.getProvider();
  });

  it('the hook keeps eip155 as its default', () => {
    expectTypeOf(useLatchProvider).toBeCallableWith();
    expectTypeOf(useLatchProvider().walletProvider).toEqualTypeOf<Eip1193Provider | undefined>();
    expectTypeOf(useLatchProvider().walletProviderType).toEqualTypeOf<Connector['type'] | undefined>();
    expectTypeOf(useLatchProvider('eip155').walletProvider).toEqualTypeOf<Eip1193Provider | undefined>();
    expectTypeOf(useLatchProvider('solana').walletProvider).toEqualTypeOf<StandardWallet | undefined>();
    // @ts-expect-error: no adapter for bip122
    useLatchProvider('bip122');
  });

  it('throws a typed error with a stable code', () => {
    expectTypeOf(new LatchAdapterError('CHAIN_ADAPTER_NOT_FOUND', CHAIN_ADAPTER_NOT_FOUND)).toMatchTypeOf<Error>();
    expectTypeOf<LatchAdapterError['code']>().toEqualTypeOf<AdapterErrorCode>();
    // @ts-expect-error: only the documented codes
    new LatchAdapterError('SOMETHING_ELSE', 'x');
  });
});

describe('networks at run time', () => {
  it('adds a network and removes one by CAIP-2 id or id', () => {
    expectTypeOf(latch.addNetwork(network)).toEqualTypeOf<Promise<boolean>>();
    expectTypeOf(latch.removeNetwork('eip155:31338')).toEqualTypeOf<Promise<Network>>();
    expectTypeOf(latch.removeNetwork(31338)).toEqualTypeOf<Promise<Network>>();
    expectTypeOf(latch.networksStore.getState().networks).toEqualTypeOf<readonly Network[]>();
    // @ts-expect-error: a network object is required
    latch.addNetwork('eip155:1');
  });
});

describe('open({ view, data })', () => {
  it('types the data by view', () => {
    const { open } = latch.modal;
    open({ view: 'Send', data: { token: 'USDC', amount: '1', receiver: 'latch-dev.eth' } });
    open({ view: 'Swap', data: { from: 'ETH', to: 'USDC', amount: '0.5' } });
    open({ view: 'Onramp', data: { amount: '25' } });
    open({ view: 'Account' });
    open({ namespace: 'solana' });
    open();
    // @ts-expect-error: Send takes no `from`
    open({ view: 'Send', data: { from: 'ETH' } });
    // @ts-expect-error: Account takes no data
    open({ view: 'Account', data: { amount: '1' } });
    // @ts-expect-error: data needs its view
    open({ data: { amount: '1' } });
    expectTypeOf(latch.modal.takeData('Send')).toEqualTypeOf<ViewData['Send'] | undefined>();
    expectTypeOf<OpenOptions>().toMatchTypeOf<{ view?: ViewName }>();
  });
});
