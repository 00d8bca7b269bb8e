import type { Latch } from '@latch/react';
import { createConfig, type CreateConnectorFn } from '@wagmi/core';
import type { Chain, Transport } from 'viem';
import { describe, expectTypeOf, it } from 'vitest';
import { LATCH_CONNECTOR_ID, latchConnector, latchTransports, latchWagmiChains } from './index.js';

declare const latch: Latch;

describe('the public API', () => {
  it('fits what createConfig takes', () => {
    expectTypeOf(latchConnector).parameter(0).toEqualTypeOf<Latch>();
    expectTypeOf(latchConnector(latch)).toMatchTypeOf<CreateConnectorFn>();
    expectTypeOf(latchWagmiChains(latch)).toEqualTypeOf<readonly [Chain, ...Chain[]]>();
    expectTypeOf(latchTransports(latch)).toEqualTypeOf<Record<number, Transport>>();
    expectTypeOf(LATCH_CONNECTOR_ID).toEqualTypeOf<'latch'>();
    const config = createConfig({
      chains: latchWagmiChains(latch),
      connectors: [latchConnector(latch, { name: 'Connect' })],
      transports: latchTransports(latch),
    });
    expectTypeOf(config.connectors[0]!.getProvider).returns.resolves.toMatchTypeOf<{ request: unknown }>();
  });

  it('takes a Latch instance and options only', () => {
    // @ts-expect-error: a Latch instance is required
    latchConnector();
    // @ts-expect-error: unknown options are refused
    latchConnector(latch, { id: 'other' });
  });
});
