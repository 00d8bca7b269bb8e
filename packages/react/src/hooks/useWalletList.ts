import { useMemo } from 'react';
import type { WalletListState } from '../core/walletList.js';
import { connectEntries, entryInNamespace, installedByRdns, type ConnectEntry } from '../core/walletOrder.js';
import type { Connector } from '../core/types.js';
import { useLatchInstance } from '../context.js';
import { useStore, useStoreValue } from './useStore.js';

/** The wallet catalogue's state: featured, recommended, recent, the paged list and search. */
export function useWalletList(): WalletListState {
  return useStore(useLatchInstance().walletList.store);
}

/**
 * The Connect view's rows in the documented order. Until the wasm core has loaded (moments after
 * mount), the ordering rules cannot run and the installed wallets are listed alone.
 */
export function useConnectEntries(): ConnectEntry[] {
  const latch = useLatchInstance();
  const { connectors } = useStore(latch.connection);
  const { coreReady, recent, featured, custom, recommended, restricted } = useWalletList();
  const walletConnect = latch.walletConnect !== undefined;
  const namespace = useStoreValue(latch.modal.store, (state) => state.namespace);
  return useMemo(
    () =>
      coreReady
        ? connectEntries({ connectors, recent, featured, custom, recommended, restricted, walletConnect, namespace })
        : connectors
            .filter(({ type }) => type === 'ANNOUNCED' || type === 'INJECTED')
            .map((connector): ConnectEntry => ({ type: 'connector', group: 'injected', connector, recent: false }))
            .filter((entry) => entryInNamespace(entry, namespace)),
    [coreReady, connectors, recent, featured, custom, recommended, restricted, walletConnect, namespace],
  );
}

/** Installed wallets by reverse-DNS id (empty until the core has loaded), for marking catalogue rows. */
export function useInstalledWallets(): ReadonlyMap<string, Connector> {
  const latch = useLatchInstance();
  const { connectors } = useStore(latch.connection);
  const { coreReady, restricted } = useWalletList();
  return useMemo(
    () => (coreReady ? installedByRdns(connectors, restricted) : new Map<string, Connector>()),
    [coreReady, connectors, restricted],
  );
}
