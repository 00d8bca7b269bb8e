import { init, parseCaipNetworkId } from '@latch/wasm';
import { LatchAdapterError, requireAdapter } from './adapters.js';
import type { CaipNetworkId, Network } from './types.js';

/**
 * Behaviour 3.8: adds `network` to `live` when its namespace has an adapter and no network with its
 * `caipNetworkId` is there yet; returns whether it was added.
 */
export async function addNetwork(live: Network[], network: Network): Promise<boolean> {
  requireAdapter(network?.chainNamespace);
  await init();
  // latch-core reads the id (`Invalid CAIP-2 network id`); its namespace must be the network's.
  const { namespace } = parseCaipNetworkId(network.caipNetworkId);
  if (namespace !== network.chainNamespace) {
    throw new Error(`Network ${network.caipNetworkId} is not in namespace ${network.chainNamespace}`);
  }
  if (live.some((known) => known.caipNetworkId === network.caipNetworkId)) return false;
  live.push(network);
  return true;
}

/** Behaviour 3.8: removes the network named by `id` from `live`; it must exist and not be the last. */
export function removeNetwork(live: Network[], id: CaipNetworkId | Network['id']): Network {
  const index = live.findIndex((known) => known.caipNetworkId === id || known.id === id);
  const found = live[index];
  if (!found) throw new LatchAdapterError('NETWORK_NOT_FOUND', 'Network not found', String(id));
  requireAdapter(found.chainNamespace);
  if (live.length === 1) {
    throw new LatchAdapterError('LAST_NETWORK', 'At least one network must be configured', found.caipNetworkId);
  }
  live.splice(index, 1);
  return found;
}
