/** Where Latch keeps what must survive a reload (behaviour 2.14 "Persisted local items"). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Keys, in one place so two features never collide. */
export const STORAGE_KEYS = {
  /** The reverse-DNS id of the wallet connected last, for a silent reconnect on reload. */
  connectedWallet: '@latch/connected-wallet',
  /** The sign-in session token of the default (Latch server) adapter, per project. */
  siwxToken: (projectId: string) => `@latch/siwx-token/${projectId}`,
  /** The wallets connected last, newest first (behaviour 2.14, 7.3: at most 2). */
  recentWallets: '@latch/recent-wallets',
  /** The active network's CAIP-2 id (behaviour 3.5), restored at start by behaviour 3.6. */
  activeNetwork: '@latch/active-network',
  /** The active network's namespace, stored beside it (behaviour 3.5). */
  activeNamespace: '@latch/active-namespace',
  /** The namespaces connected, a JSON list (behaviour 2.14). */
  connectedNamespaces: '@latch/connected-namespaces',
  /** The connector id connected in a namespace (behaviour 2.14). */
  connectorId: (namespace: string) => `@latch/connector-id/${namespace}`,
} as const;

/**
 * The page's `localStorage`, read when used (never at import, for SSR). Storage that is missing
 * or refuses access (private modes, sandboxed frames) behaves as empty: Latch then simply
 * remembers nothing across reloads.
 */
export function browserStorage(): KeyValueStorage {
  const local = (): Storage | undefined => {
    try {
      return globalThis.localStorage;
    } catch {
      return undefined;
    }
  };
  const attempt = <T>(action: (storage: Storage) => T, fallback: T): T => {
    try {
      const storage = local();
      return storage ? action(storage) : fallback;
    } catch {
      return fallback;
    }
  };
  return {
    getItem: (key) => attempt((storage) => storage.getItem(key), null),
    setItem: (key, value) => attempt((storage) => storage.setItem(key, value), undefined),
    removeItem: (key) => attempt((storage) => storage.removeItem(key), undefined),
  };
}
