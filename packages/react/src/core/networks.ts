import { createStore, type Store } from './store.js';
import type { CaipNetworkId, Network } from './types.js';

export interface NetworksState {
  /** The host's networks now: the ones it configured, then those added, less those removed. */
  networks: readonly Network[];
}

export interface NetworksController {
  store: Store<NetworksState>;
  /**
   * The same list as one array updated in place: the controllers made at creation hold it and
   * read the current networks at each use without subscribing.
   */
  live: readonly Network[];
  /**
   * Behaviour 3.8: adds a network of a namespace Latch has an adapter for (else `Chain adapter not
   * found`), unless one with its `caipNetworkId` is known already. Resolves with whether it was added.
   */
  add(network: Network): Promise<boolean>;
  /**
   * Behaviour 3.8: removes the network with this `caipNetworkId` (or `id`); throws `Network not
   * found` when there is none, and refuses to remove the last one. Resolves with the removed one.
   */
  remove(id: CaipNetworkId | Network['id']): Promise<Network>;
}

export function createNetworks(initial: readonly Network[]): NetworksController {
  // A copy: the host's own array is never changed.
  const live: Network[] = [...initial];
  const store = createStore<NetworksState>({ networks: Object.freeze([...live]) });
  const publish = () => store.setState({ networks: Object.freeze([...live]) });
  // The checks load with the first change: most pages never add or remove a network.
  const changes = () => import('./networkChanges.js');

  return {
    store,
    live,
    async add(network) {
      const added = await (await changes()).addNetwork(live, network);
      if (added) publish();
      return added;
    },
    async remove(id) {
      const removed = (await changes()).removeNetwork(live, id);
      publish();
      return removed;
    },
  };
}
