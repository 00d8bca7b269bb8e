import type { Latch } from '@latch/react';
import { custom, type Transport } from 'viem';

/**
 * One viem transport per Latch EVM network, over the Latch server's RPC gateway: wagmi's reads
 * (balances, receipts, gas estimates) go where the modal's go, with the project's key and limits.
 */
export function latchTransports(latch: Latch): Record<number, Transport> {
  const transports: Record<number, Transport> = {};
  for (const { caipNetworkId, chainNamespace } of latch.networks) {
    if (chainNamespace !== 'eip155') continue;
    const chainId = Number(caipNetworkId.slice('eip155:'.length));
    transports[chainId] = custom(
      {
        request: ({ method, params }: { method: string; params?: unknown }) =>
          latch.gateway.request(caipNetworkId, method, Array.isArray(params) ? params : []),
      },
      { key: 'latch', name: 'Latch gateway' },
    );
  }
  return transports;
}
