// The local chains `make demo` runs, as the demo and the adapter examples list them: one
// definition, so a port or an id changes in one place.
import type { Network } from '@latch/react';

/** A chain of the local EVM devnet (anvil, with ether as its coin); Latch's gateway reaches it by chain id. */
function devnetChain(id: number, name: string, port: number): Network {
  return {
    id,
    caipNetworkId: `eip155:${id}`,
    chainNamespace: 'eip155',
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [`http://127.0.0.1:${port}`] } },
  };
}

/** The devnet with the fixture world (`scripts/devnet`). */
export const latchDevnet = devnetChain(31337, 'Latch Devnet', 8545);
/** Its bare second chain (`scripts/devnet --second-port`), to switch to. */
export const latchDevnetB = devnetChain(31338, 'Latch Devnet B', 8546);

/**
 * The local Solana devnet (`scripts/solana-devnet`): its genesis hash is fixed, so its CAIP-2 id
 * is too. Solana wallets (Wallet Standard) connect on it; Latch's gateway reaches it by that id.
 */
export const solanaDevnet: Network = {
  id: '62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh',
  caipNetworkId: 'solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh',
  chainNamespace: 'solana',
  name: 'Latch Solana Devnet',
  nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8899'] } },
};
