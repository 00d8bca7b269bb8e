import { currentView, type ViewName } from '../core/modal.js';
import type { LatchEvent } from '../core/events.js';
import type { Connector, Eip1193Provider, Network, StandardWallet } from '../core/types.js';
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
  const { activeNetwork, activeNamespace, supported } = useStore(latch.network);
  const { namespaceLoading } = useStore(latch.modal.store);
  const caipNetwork = latch.networks.find((network) => network.caipNetworkId === caipNetworkId);
  return {
    caipNetwork,
    caipNetworkId,
    chainId: caipNetwork?.id,
    networks: latch.networks,
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
 * The wallet of the connection in `namespace`, for chain libraries: the EIP-1193 provider for
 * `eip155` (viem, ethers), the Wallet Standard wallet for `solana`; undefined while not connected
 * in that namespace.
 */
export function useLatchProvider(namespace?: 'eip155'): {
  walletProvider?: Eip1193Provider;
  walletProviderType?: Connector['type'];
};
export function useLatchProvider(namespace: 'solana'): {
  walletProvider?: StandardWallet;
  walletProviderType?: Connector['type'];
};
export function useLatchProvider(namespace: string): {
  walletProvider?: Eip1193Provider | StandardWallet;
  walletProviderType?: Connector['type'];
};
export function useLatchProvider(namespace: string = 'eip155'): {
  walletProvider?: Eip1193Provider | StandardWallet;
  walletProviderType?: Connector['type'];
} {
  const latch = useLatchInstance();
  const { status, connectors, activeConnectorId } = useStore(latch.connection);
  const { caipNetworkId } = useStore(latch.account);
  const connector = connectors.find(({ id }) => id === activeConnectorId);
  if (status !== 'connected' || !connector || !caipNetworkId?.startsWith(`${namespace}:`)) return {};
  const walletProvider = connector.namespace === 'solana' ? connector.wallet : connector.provider;
  return { walletProvider, walletProviderType: connector.type };
}
