import { parseCaipNetworkId, startNetwork } from '@latch/wasm';
import { STORAGE_KEYS, type KeyValueStorage } from './storage.js';
import { createStore, type Store } from './store.js';
import type { CaipNetworkId, ChainNamespace, Network } from './types.js';
import { loadWasmExtra } from './wasmExtra.js';

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
   * or the placeholder standing in for one it did not list. Needs the wasm core loaded. The
   * placeholder comes from `@latch/wasm/extra` (only a wallet on an unlisted network needs it):
   * `supported` is false at once, the placeholder follows when that module is loaded.
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
  /** The host's networks, read at each use (the live list `addNetwork` / `removeNetwork` change). */
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

  // Which change of network is the latest: a placeholder that loads late must not undo a later one.
  let change = 0;

  function show(network: Network, supported: boolean) {
    change++;
    store.setState({ activeNetwork: network, activeNamespace: network.chainNamespace, supported });
  }

  /** Shows the placeholder for an id once `extra` has built it; nothing for an id it refuses. */
  function showPlaceholder(caipNetworkId: string) {
    const mine = ++change;
    store.setState({ supported: false });
    loadWasmExtra()
      .then(({ unsupportedNetworkPlaceholder }) => {
        const network = unsupportedNetworkPlaceholder(caipNetworkId) as Network;
        if (mine === change && isNamespace(network.chainNamespace)) show(network, false);
      })
      // An id latch-core refuses, or extra failed to load: the button already says unsupported.
      .catch(() => undefined);
  }

  /** The namespace of an id latch-core accepts, if Latch has a type for it. */
  function namespaceOf(caipNetworkId: string): ChainNamespace | undefined {
    try {
      const { namespace } = parseCaipNetworkId(caipNetworkId);
      return isNamespace(namespace) ? namespace : undefined;
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
      const namespace = namespaceOf(caipNetworkId);
      if (!namespace) return;
      const listed = find(caipNetworkId);
      if (listed) show(listed, true);
      else showPlaceholder(caipNetworkId);
      storage.setItem(STORAGE_KEYS.activeNetwork, caipNetworkId);
      storage.setItem(STORAGE_KEYS.activeNamespace, namespace);
    },
    restore() {
      const stored = storage.getItem(STORAGE_KEYS.activeNetwork);
      // `networks` is the live list (networks added at run time included): the namespaces are the
      // ones it has now, the only ones a stored placeholder may keep (behaviour 3.6).
      const choice = startNetwork(
        stored ?? undefined,
        networks.map((network) => network.caipNetworkId),
        [...new Set(networks.map((network) => network.chainNamespace))],
      );
      const requested = networks[choice];
      if (requested) return show(requested, true);
      if (choice === -1 && stored) return showPlaceholder(stored);
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
