import { currentView, type ViewName } from '../core/modal.js';
import type { LatchEvent } from '../core/events.js';
import type { Connector, Network } from '../core/types.js';
import { providerFor, requireAdapter, type AdapterNamespace, type NamespaceProviders } from '../core/adapters.js';
import type { ThemeMode, ThemeVariables } from '../themes/index.js';
import { useLatchInstance } from '../context.js';
import { useStore } from './useStore.js';

export interface LatchNetwork {
  /** The connected network when the host configured it; undefined when disconnected or unsupported. */
  caipNetwork?: Network;
  caipNetworkId?: Network['caipNetworkId'];
  chainId?: Network['id'];
  /** The host's networks. */
  networks: readonly Network[];
  /** Asks the wallet to switch; throws `NetworkSwitchError`. */
  switchNetwork(network: Network): Promise<void>;
  /** The active network (behaviour 3.5), connected or not: restored at start, the placeholder on an unlisted one. */
  activeNetwork: Network;
  /** False while the placeholder is active. */
  isSupported: boolean;
  /** True while a wallet of the active network's namespace connects or switches. */
  isLoading: boolean;
}

/** The connected network and the switch. */
export function useLatchNetwork(): LatchNetwork {
  const latch = useLatchInstance();
  const { caipNetworkId } = useStore(latch.account);
  // Follows `addNetwork` / `removeNetwork`, the active network and its namespace's loading.
  const { networks } = useStore(latch.networksStore);
  const { activeNetwork, activeNamespace, supported } = useStore(latch.network);
  const { namespaceLoading } = useStore(latch.modal.store);
  const caipNetwork = networks.find((network) => network.caipNetworkId === caipNetworkId);
  return {
    caipNetwork,
    caipNetworkId,
    chainId: caipNetwork?.id,
    networks,
    switchNetwork: latch.switchNetwork,
    activeNetwork,
    isSupported: supported,
    isLoading: namespaceLoading[activeNamespace] === true,
  };
}

export interface LatchState {
  open: boolean;
  loading: boolean;
  view: ViewName;
  /** The network the account is on, supported or not. */
  selectedNetworkId?: Network['caipNetworkId'];
}

/** The modal's state and the selected network. */
export function useLatchState(): LatchState {
  const latch = useLatchInstance();
  const modal = useStore(latch.modal.store);
  const { caipNetworkId } = useStore(latch.account);
  return { open: modal.open, loading: modal.loading, view: currentView(modal), selectedNetworkId: caipNetworkId };
}

export interface LatchTheme {
  themeMode: ThemeMode;
  /** The resolved variables: the mode's defaults with the host's overrides. */
  themeVariables: ThemeVariables;
  setThemeMode(mode: ThemeMode): void;
  setThemeVariables(overrides: ThemeVariables): void;
}

export function useLatchTheme(): LatchTheme {
  const latch = useLatchInstance();
  const { themeMode, themeVariables } = useStore(latch.theme);
  return { themeMode, themeVariables, setThemeMode: latch.setThemeMode, setThemeVariables: latch.setThemeVariables };
}

/** The last event Latch reported (modal opens, connections, sign-in…) and when (ms). */
export function useLatchEvents(): { event?: LatchEvent; timestamp?: number } {
  return useStore(useLatchInstance().lastEvent);
}

export function useDisconnect(): { disconnect(): void } {
  return { disconnect: useLatchInstance().disconnect };
}

export interface WalletInfo {
  name: string;
  icon: string;
  rdns: string;
}

/** The connected (or connecting) wallet. */
export function useWalletInfo(): { walletInfo?: WalletInfo } {
  const latch = useLatchInstance();
  const { connectors, activeConnectorId } = useStore(latch.connection);
  const connector = connectors.find(({ id }) => id === activeConnectorId);
  return { walletInfo: connector && { name: connector.name, icon: connector.imageUrl, rdns: connector.rdns } };
}

/**
 * The wallet of the connection in `namespace` (default `eip155`), for chain libraries: the EIP-1193
 * provider for `eip155` (viem, ethers), the Wallet Standard wallet for `solana`; undefined while
 * not connected in that namespace. `latch.getProvider(namespace)` outside React. A namespace
 * without an adapter throws `LatchAdapterError` (`Chain adapter not found`).
 */
export function useLatchProvider<N extends AdapterNamespace = 'eip155'>(
  namespace?: N,
): {
  walletProvider?: NamespaceProviders[N];
  walletProviderType?: Connector['type'];
} {
  const latch = useLatchInstance();
  const connection = useStore(latch.connection);
  const account = useStore(latch.account);
  const wanted = namespace ?? 'eip155';
  requireAdapter(wanted);
  const walletProvider = providerFor(wanted, connection, account) as NamespaceProviders[N] | undefined;
  if (!walletProvider) return {};
  const connector = connection.connectors.find(({ id }) => id === connection.activeConnectorId);
  return { walletProvider, walletProviderType: connector?.type };
}
