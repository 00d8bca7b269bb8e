import { startNetwork, unsupportedNetworkFor } from '@latch/wasm';
import { STORAGE_KEYS, type KeyValueStorage } from './storage.js';
import { createStore, type Store } from './store.js';
import type { CaipNetworkId, ChainNamespace, Network } from './types.js';

export interface NetworkState {
  /** The active network (behaviour 3.5): one of the host's, or the unsupported placeholder (3.3). */
  activeNetwork: Network;
  /** The active network's namespace. */
  activeNamespace: ChainNamespace;
  /** False while the placeholder is active: the wallet is on a network the host did not list. */
  supported: boolean;
}

export interface NetworkController {
  store: Store<NetworkState>;
  /**
   * Makes `caipNetworkId` active and stores it with its namespace (behaviour 3.5): the host's network,
   * or the placeholder standing in for one it did not list. Needs the wasm core loaded.
   */
  setActive(caipNetworkId: CaipNetworkId): void;
  /** The host's network with this id, if listed. */
  find(caipNetworkId: CaipNetworkId | undefined): Network | undefined;
  /** Behaviour 3.6 at start, once the wasm core is loaded: the stored network, the placeholder or the default. */
  restore(): void;
  /** A connection in `namespace` through `connectorId` (behaviour 2.14: connected namespaces, connector per namespace). */
  rememberConnection(namespace: ChainNamespace, connectorId: string): void;
  /** The connection of `namespace` ended. */
  forgetConnection(namespace: ChainNamespace): void;
  /** The namespaces connected when the page was last left, as stored. */
  connectedNamespaces(): ChainNamespace[];
  /** The connector id stored for `namespace`. */
  connectorId(namespace: ChainNamespace): string | undefined;
}

const NAMESPACES: readonly ChainNamespace[] = ['eip155', 'solana', 'polkadot', 'bip122'];
const isNamespace = (value: unknown): value is ChainNamespace => NAMESPACES.includes(value as ChainNamespace);

export function createNetworkController({
  networks,
  defaultNetwork,
  storage,
}: {
  networks: readonly Network[];
  defaultNetwork: Network;
  storage: KeyValueStorage;
}): NetworkController {
  const store = createStore<NetworkState>({
    activeNetwork: defaultNetwork,
    activeNamespace: defaultNetwork.chainNamespace,
    supported: true,
  });
  const find = (caipNetworkId: CaipNetworkId | undefined) =>
    networks.find((network) => network.caipNetworkId === caipNetworkId);
  // The namespaces the host has networks in: the only ones a stored placeholder may keep (behaviour 3.6).
  const namespaces = [...new Set(networks.map((network) => network.chainNamespace))];

  function show(network: Network, supported: boolean) {
    store.setState({ activeNetwork: network, activeNamespace: network.chainNamespace, supported });
  }

  /** The placeholder for an id; `undefined` for an id latch-core refuses or a namespace Latch has no type for. */
  function placeholder(caipNetworkId: string): Network | undefined {
    try {
      const network = unsupportedNetworkFor(caipNetworkId) as Network;
      return isNamespace(network.chainNamespace) ? network : undefined;
    } catch {
      return undefined;
    }
  }

  function readConnected(): ChainNamespace[] {
    try {
      const stored: unknown = JSON.parse(storage.getItem(STORAGE_KEYS.connectedNamespaces) ?? '[]');
      return Array.isArray(stored) ? stored.filter(isNamespace) : [];
    } catch {
      // Corrupt storage remembers nothing.
      return [];
    }
  }
  const writeConnected = (list: readonly ChainNamespace[]) =>
    list.length === 0
      ? storage.removeItem(STORAGE_KEYS.connectedNamespaces)
      : storage.setItem(STORAGE_KEYS.connectedNamespaces, JSON.stringify(list));

  return {
    store,
    find,
    setActive(caipNetworkId) {
      const network = find(caipNetworkId) ?? placeholder(caipNetworkId);
      if (!network) return;
      show(network, network === find(caipNetworkId));
      storage.setItem(STORAGE_KEYS.activeNetwork, network.caipNetworkId);
      storage.setItem(STORAGE_KEYS.activeNamespace, network.chainNamespace);
    },
    restore() {
      const stored = storage.getItem(STORAGE_KEYS.activeNetwork);
      const choice = startNetwork(
        stored ?? undefined,
        networks.map((network) => network.caipNetworkId),
        namespaces,
      );
      const requested = networks[choice];
      if (requested) return show(requested, true);
      const stand = choice === -1 && stored ? placeholder(stored) : undefined;
      if (stand) return show(stand, false);
      show(defaultNetwork, true);
    },
    rememberConnection(namespace, connectorId) {
      writeConnected([...readConnected().filter((known) => known !== namespace), namespace]);
      storage.setItem(STORAGE_KEYS.connectorId(namespace), connectorId);
    },
    forgetConnection(namespace) {
      writeConnected(readConnected().filter((known) => known !== namespace));
      storage.removeItem(STORAGE_KEYS.connectorId(namespace));
    },
    connectedNamespaces: readConnected,
    connectorId: (namespace) => storage.getItem(STORAGE_KEYS.connectorId(namespace)) ?? undefined,
  };
}
