import { defaultConnectorTypeOrder, filterRestrictedWallets, type RestrictedWallets } from '@latch/wasm';
import type { CatalogueWallet } from './catalogue.js';
import type { WalletNamespace } from './modal.js';
import { connectorNamespace, type Connector } from './types.js';

/** A wallet connected before (behaviour 2.14 "recent wallets"), newest first. */
export interface RecentWallet {
  name: string;
  /** The EIP-6963 reverse-DNS id, when the wallet announced itself. */
  rdns?: string;
  /** Its catalogue entry, when the catalogue knows it. */
  wallet?: CatalogueWallet;
}

/** A connector group of the Connect view (behaviour 1.11 "Default connector type order"). */
export type ConnectGroup = 'walletConnect' | 'recent' | 'injected' | 'featured' | 'custom' | 'external' | 'recommended';

/** One row of the Connect view: an installed wallet (connects directly) or a catalogue wallet. */
export type ConnectEntry =
  | { type: 'walletConnect'; group: 'walletConnect'; recent: false }
  | { type: 'connector'; group: ConnectGroup; connector: Connector; recent: boolean }
  | { type: 'wallet'; group: ConnectGroup; wallet: CatalogueWallet; recent: boolean };

export interface ConnectListInput {
  /** Announced (EIP-6963) wallets, in announcement order. */
  connectors: readonly Connector[];
  recent: readonly RecentWallet[];
  featured: readonly CatalogueWallet[];
  custom: readonly CatalogueWallet[];
  recommended: readonly CatalogueWallet[];
  restricted: RestrictedWallets;
  /** Offer pairing any wallet by QR code (the `walletConnect` group). */
  walletConnect: boolean;
  /** Only wallets of this namespace (the modal was opened for it); all when absent. */
  namespace?: WalletNamespace;
}

/**
 * Whether `entry` connects in `namespace`. Catalogue wallets and the QR code pair over
 * WalletConnect, which Latch proposes for eip155 only.
 */
export function entryInNamespace(entry: ConnectEntry, namespace: WalletNamespace | undefined): boolean {
  if (!namespace) return true;
  return entry.type === 'connector' ? connectorNamespace(entry.connector) === namespace : namespace === 'eip155';
}

const rdnsKey = (rdns: string | null | undefined) => (rdns ? rdns.toLowerCase() : undefined);

/** latch-core's restricted-wallet rule (behaviour 2.3), through the wasm core. */
function visible<T extends { rdns?: string | null; name?: string | null }>(
  wallets: readonly T[],
  restricted: RestrictedWallets,
): T[] {
  return filterRestrictedWallets([...wallets], restricted) as T[];
}

/** The installed (announced, not restricted) wallets by reverse-DNS id, for de-duplication. */
export function installedByRdns(
  connectors: readonly Connector[],
  restricted: RestrictedWallets,
): ReadonlyMap<string, Connector> {
  const installed = new Map<string, Connector>();
  for (const connector of visible(connectors, restricted)) {
    const key = rdnsKey(connector.rdns);
    if (key && !installed.has(key)) installed.set(key, connector);
  }
  return installed;
}

/**
 * The rows of the Connect view, grouped in latch-core's connector type order (behaviour 1.11:
 * walletConnect, recent, injected, featured, custom, external, recommended). Each wallet shows
 * once: a catalogue wallet whose reverse-DNS id an installed wallet announced is that installed
 * wallet (behaviour 1.11 "de-duplication against the catalogue (by rdns)"), and restricted wallets are
 * hidden (behaviour 2.3). Needs the wasm core loaded.
 */
export function connectEntries(input: ConnectListInput): ConnectEntry[] {
  const { restricted } = input;
  const installed = installedByRdns(input.connectors, restricted);
  const shownConnectors = new Set<string>();
  const shownWallets = new Set<string>();
  const entries: ConnectEntry[] = [];

  const addConnector = (connector: Connector, group: ConnectGroup, recent: boolean) => {
    if (shownConnectors.has(connector.id)) return;
    shownConnectors.add(connector.id);
    entries.push({ type: 'connector', group, connector, recent });
  };
  const addWallet = (wallet: CatalogueWallet, group: ConnectGroup, recent = false) => {
    if (shownWallets.has(wallet.id)) return;
    shownWallets.add(wallet.id);
    const connector = installed.get(rdnsKey(wallet.rdns) ?? '');
    // The recent group is the only one before the installed wallets: there the installed wallet
    // takes the catalogue entry's place; later groups already showed it.
    if (connector) {
      if (group === 'recent') addConnector(connector, group, recent);
      return;
    }
    entries.push({ type: 'wallet', group, wallet, recent });
  };

  const groups: Record<ConnectGroup, () => void> = {
    walletConnect: () => {
      if (input.walletConnect) entries.push({ type: 'walletConnect', group: 'walletConnect', recent: false });
    },
    recent: () => {
      for (const item of visible(input.recent, restricted)) {
        const connector = installed.get(rdnsKey(item.rdns) ?? '');
        if (connector) {
          addConnector(connector, 'recent', true);
          if (item.wallet) shownWallets.add(item.wallet.id);
        } else if (item.wallet) {
          addWallet(item.wallet, 'recent', true);
        }
        // A recent wallet that is neither installed nor in the catalogue cannot be offered.
      }
    },
    injected: () => {
      // Announcement order; the connection controller already keeps one connector per rdns.
      for (const connector of visible(input.connectors, restricted)) {
        if (connector.type === 'ANNOUNCED' || connector.type === 'INJECTED') addConnector(connector, 'injected', false);
      }
    },
    featured: () => visible(input.featured, restricted).forEach((wallet) => addWallet(wallet, 'featured')),
    custom: () => visible(input.custom, restricted).forEach((wallet) => addWallet(wallet, 'custom')),
    // External connectors (adapters' own connectors) do not exist yet.
    external: () => undefined,
    recommended: () => visible(input.recommended, restricted).forEach((wallet) => addWallet(wallet, 'recommended')),
  };

  for (const group of defaultConnectorTypeOrder()) groups[group as ConnectGroup]?.();
  return entries.filter((entry) => entryInNamespace(entry, input.namespace));
}
