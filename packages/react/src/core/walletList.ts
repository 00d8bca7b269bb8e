import { init, LATCH_CONSTANTS, type RestrictedWallets } from '@latch/wasm';
import type { CatalogueClient, CatalogueWallet, WalletQuery } from './catalogue.js';
import type { ConnectionState } from './connection.js';
import type { ModalController } from './modal.js';
import { STORAGE_KEYS, type KeyValueStorage } from './storage.js';
import { createStore, type Store } from './store.js';
import type { Network } from './types.js';
import type { RecentWallet } from './walletOrder.js';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** Behaviour 7.8 "Wallet catalogue" and "Recent wallets max 2", from latch-core's constants. */
const { catalogue: CATALOGUE, limits } = LATCH_CONSTANTS;
export const WALLET_PAGE_SIZE = CATALOGUE.pageSize;
export const SEARCH_RESULTS_MAX = CATALOGUE.searchSize;
/**
 * Behaviour 7.8: "search 100 with 300 ms minimum wait". A search request leaves at least this long after
 * the last keystroke (a debounce), so typing sends one request, not one per character.
 */
export const SEARCH_DEBOUNCE_MS = CATALOGUE.searchMinWaitMs;
export const IMAGE_PREFETCH_COUNT = CATALOGUE.imagePrefetchCount;
export const RECENT_WALLETS_MAX = limits.recentWalletsMax;

/** A list read page by page (AllWallets) or the results of one search. */
export interface WalletListPage {
  wallets: readonly CatalogueWallet[];
  /** Matching wallets on the server, in all pages. */
  count: number;
  /** Pages loaded so far (0: none). */
  page: number;
  status: LoadStatus;
}

export interface WalletSearch extends Omit<WalletListPage, 'page'> {
  /** What the visitor typed; the search runs on its trimmed form. */
  query: string;
}

/** Behaviour 2.4 "Wallet catalogue: holds featured, recommended, paged list and search results." */
export interface WalletListState {
  /** Loading featured, recommended and the restricted wallets; starts when the modal first opens. */
  status: LoadStatus;
  featured: readonly CatalogueWallet[];
  recommended: readonly CatalogueWallet[];
  /** The host's own wallets (`customWallets`). */
  custom: readonly CatalogueWallet[];
  /** Catalogue wallets available with these options (for the "All wallets" entry). */
  count: number;
  /** Reverse-DNS ids and names of the excluded wallets: their installed copies are hidden too. */
  restricted: RestrictedWallets;
  /** Newest first, at most two (behaviour 7.3), persisted. */
  recent: readonly RecentWallet[];
  list: WalletListPage;
  search: WalletSearch;
  /** The catalogue wallet whose page (Downloads) is showing. */
  selected?: CatalogueWallet;
  /** The wasm core has loaded: the ordering and restriction rules can run. */
  coreReady: boolean;
}

export interface WalletListOptions {
  /** Catalogue ids shown first (behaviour 1.11 "featured"), in this order; without them the first 4 of the catalogue. */
  featuredWalletIds?: readonly string[];
  /** Only these catalogue ids are offered. */
  includeWalletIds?: readonly string[];
  /** These catalogue ids are never offered; their installed copies are hidden too (behaviour 2.3). */
  excludeWalletIds?: readonly string[];
  /** Wallets of the host's own, listed after featured (behaviour 1.11 "custom"). */
  customWallets?: readonly CatalogueWallet[];
}

export interface WalletListController {
  store: Store<WalletListState>;
  /** Reads featured, recommended and the restricted wallets; again only after a failure. */
  load(): Promise<void>;
  /** Loads the lists and waits for the images of their first wallets (behaviour 1.4: before opening). */
  ready(): Promise<void>;
  /** The lists are read and their first images are in: an opening has nothing to wait for. */
  isReady(): boolean;
  /** Reads the next page of the full list; after a failure only when `retry` is set. */
  loadNextPage(options?: { retry?: boolean }): Promise<void>;
  /** Sets the search text; the request follows `SEARCH_DEBOUNCE_MS` after the last change. */
  setSearch(query: string): void;
  /** A catalogue wallet that is not installed: its pairing (WalletConnect) or else its page (Downloads). */
  select(wallet: CatalogueWallet): void;
  /** Starts the browser-only part (loading the core); returns the cleanup. */
  mount(): () => void;
}

const EMPTY_PAGE: WalletListPage = { wallets: [], count: 0, page: 0, status: 'idle' };
const EMPTY_SEARCH: WalletSearch = { query: '', wallets: [], count: 0, status: 'idle' };

export function createWalletList({
  catalogue,
  connection,
  modal,
  storage,
  networks,
  options = {},
  prefetchImage = browserImagePrefetch,
  pair,
}: {
  catalogue: CatalogueClient;
  connection: Store<ConnectionState>;
  modal: ModalController;
  storage: KeyValueStorage;
  networks: readonly Network[];
  options?: WalletListOptions;
  /** Asks the browser to fetch an image into its cache; settles when it is there (or failed). */
  prefetchImage?: (url: string) => Promise<void>;
  /** Pairs with a catalogue wallet over WalletConnect; without it, selecting shows the wallet's page. */
  pair?: (wallet: CatalogueWallet) => void;
}): WalletListController {
  const featuredIds = options.featuredWalletIds ?? [];
  const excluded = options.excludeWalletIds ?? [];
  const include = options.includeWalletIds?.length ? options.includeWalletIds : undefined;
  // Every listing shares the host's filters; the networks are read at each listing (behaviour 3.8).
  const listing = (query: WalletQuery): WalletQuery => ({
    chains: networks.map((network) => network.caipNetworkId),
    include,
    exclude: excluded,
    ...query,
  });

  const store = createStore<WalletListState>({
    status: 'idle',
    featured: [],
    recommended: [],
    custom: options.customWallets ?? [],
    count: 0,
    restricted: { rdns: [], names: [] },
    recent: readRecent(storage),
    list: EMPTY_PAGE,
    search: EMPTY_SEARCH,
    coreReady: false,
  });

  function prefetch(wallets: readonly CatalogueWallet[]): Promise<unknown> {
    // Behaviour 7.8: the images of the first 20 wallets of each page.
    return Promise.all(
      wallets.slice(0, IMAGE_PREFETCH_COUNT).flatMap((wallet) => {
        const url = catalogue.walletImageUrl(wallet);
        return url ? [prefetchImage(url)] : [];
      }),
    );
  }
  // Whether ready() has read for the opening under way, so that the opening does not read again.
  let readForOpening = false;
  // The first lists' images, once load() has read the lists: ready() awaits them, isReady() asks.
  let firstImages: { loaded: Promise<unknown>; in: boolean } = { loaded: Promise.resolve(), in: false };

  // The read in progress, so that a second caller waits for the same one.
  let reading: Promise<void> = Promise.resolve();
  function load(): Promise<void> {
    const { status } = store.getState();
    if (status === 'loading' || status === 'ready') return reading;
    reading = read();
    return reading;
  }

  async function read() {
    store.setState({ status: 'loading' });
    try {
      // The restriction rule runs in the core: the list is only useful once it has loaded.
      await init();
      const restrictedPage = excluded.length
        ? catalogue.getWallets({ include: excluded, entries: Math.min(excluded.length, SEARCH_RESULTS_MAX) })
        : undefined;
      let featured: CatalogueWallet[];
      let recommendedPage;
      if (featuredIds.length) {
        const ids = featuredIds.filter((id) => !excluded.includes(id)).slice(0, SEARCH_RESULTS_MAX);
        const [featuredPage, recommended] = await Promise.all([
          ids.length ? catalogue.getWallets(listing({ include: ids, entries: ids.length })) : { data: [], count: 0 },
          catalogue.getWallets(
            listing({ entries: CATALOGUE.recommendedCount, exclude: [...excluded, ...featuredIds] }),
          ),
        ]);
        // The server lists them in catalogue order; featured follows the configured order.
        featured = [...featuredPage.data].sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
        recommendedPage = recommended;
      } else {
        // Without configured ids the first wallets of the catalogue are featured (behaviour 7.8: 4),
        // the next ones recommended: one request for both.
        const first = await catalogue.getWallets(
          listing({ entries: CATALOGUE.featuredCount + CATALOGUE.recommendedCount }),
        );
        featured = first.data.slice(0, CATALOGUE.featuredCount);
        recommendedPage = { data: first.data.slice(CATALOGUE.featuredCount), count: first.count - featured.length };
      }
      const restrictedWallets = (await restrictedPage)?.data ?? [];
      store.setState({
        status: 'ready',
        featured,
        recommended: recommendedPage.data.slice(0, CATALOGUE.recommendedCount),
        count: recommendedPage.count + featured.length,
        restricted: {
          rdns: restrictedWallets.flatMap((wallet) => (wallet.rdns ? [wallet.rdns] : [])),
          names: restrictedWallets.map((wallet) => wallet.name),
        },
        coreReady: true,
      });
      const images = { loaded: prefetch([...featured, ...recommendedPage.data]), in: false };
      firstImages = images;
      void images.loaded.then(() => (images.in = true));
    } catch {
      store.setState({ status: 'error' });
    }
  }

  async function loadNextPage({ retry = false } = {}) {
    const { list } = store.getState();
    if (list.status === 'loading' || (list.status === 'error' && !retry)) return;
    if (list.page > 0 && list.wallets.length >= list.count) return;
    const page = list.page + 1;
    store.setState({ list: { ...list, status: 'loading' } });
    try {
      const result = await catalogue.getWallets(listing({ page, entries: WALLET_PAGE_SIZE }));
      const current = store.getState().list;
      const known = new Set(current.wallets.map((wallet) => wallet.id));
      const added = result.data.filter((wallet) => !known.has(wallet.id));
      // A page that adds nothing (the catalogue shrank meanwhile) ends the list.
      const count = added.length ? result.count : current.wallets.length;
      store.setState({ list: { wallets: [...current.wallets, ...added], count, page, status: 'ready' } });
      void prefetch(result.data);
    } catch {
      store.setState(({ list: current }) => ({ list: { ...current, status: 'error' } }));
    }
  }

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  let searchRequest = 0;

  function setSearch(query: string) {
    clearTimeout(searchTimer);
    const request = ++searchRequest;
    const trimmed = query.trim();
    if (!trimmed) {
      store.setState({ search: { ...EMPTY_SEARCH, query } });
      return;
    }
    store.setState(({ search }) => ({ search: { ...search, query, status: 'loading' } }));
    searchTimer = setTimeout(async () => {
      try {
        const result = await catalogue.getWallets(
          listing({ search: trimmed, page: 1, entries: SEARCH_RESULTS_MAX }),
        );
        // A later keystroke started another search: this answer is stale.
        if (request !== searchRequest) return;
        store.setState({ search: { query, wallets: result.data, count: result.count, status: 'ready' } });
        void prefetch(result.data);
      } catch {
        if (request !== searchRequest) return;
        store.setState(({ search }) => ({ search: { ...search, status: 'error' } }));
      }
    }, SEARCH_DEBOUNCE_MS);
  }

  function knownWallet(rdns: string): CatalogueWallet | undefined {
    const { featured, recommended, custom, list, search, recent } = store.getState();
    const known = [...featured, ...recommended, ...custom, ...list.wallets, ...search.wallets];
    return (
      known.find((wallet) => wallet.rdns === rdns) ?? recent.find((item) => item.rdns === rdns && item.wallet)?.wallet
    );
  }

  function remember(item: RecentWallet) {
    const key = recentKey(item);
    const recent = [item, ...store.getState().recent.filter((other) => recentKey(other) !== key)].slice(
      0,
      RECENT_WALLETS_MAX,
    );
    store.setState({ recent });
    storage.setItem(STORAGE_KEYS.recentWallets, JSON.stringify(recent));
  }

  /** Behaviour 2.14: a successful connection puts the wallet first among the recent ones. */
  async function rememberConnected(connectorId: string) {
    const connector = connection.getState().connectors.find(({ id }) => id === connectorId);
    if (!connector) return;
    const rdns = connector.rdns || undefined;
    let wallet = connector.catalogueWallet ?? (rdns ? knownWallet(rdns) : undefined);
    remember({ name: connector.name, rdns, wallet });
    if (wallet || !rdns) return;
    // Its catalogue entry lets the wallet be offered again after it is uninstalled.
    try {
      [wallet] = (await catalogue.getWallets({ rdns: [rdns], entries: 1 })).data;
    } catch {
      return;
    }
    const first = store.getState().recent[0];
    if (wallet && first && recentKey(first) === rdns) remember({ ...first, wallet });
  }

  let lastStatus = connection.getState().status;
  connection.subscribe(() => {
    const { status, activeConnectorId } = connection.getState();
    if (status === 'connected' && lastStatus !== 'connected' && activeConnectorId) {
      void rememberConnected(activeConnectorId);
    }
    lastStatus = status;
  });

  // Behaviour 1.4: the wallets shown on opening are read when the modal opens; a failed read is tried
  // again on the next opening (once: an opening that waited on ready() has read already). A
  // search belongs to one visit of the modal.
  let { open: wasOpen, loading: wasLoading } = modal.store.getState();
  modal.store.subscribe(() => {
    const { open, loading } = modal.store.getState();
    if (open && !wasOpen && !readForOpening) void load();
    // ready()'s read was for one opening: the one that showed, or that was given up (closed
    // while it waited), so the next opening reads for itself.
    if (open || (wasLoading && !loading)) readForOpening = false;
    if (!open && wasOpen) setSearch('');
    wasOpen = open;
    wasLoading = loading;
  });

  return {
    store,
    load,
    async ready() {
      readForOpening = true;
      await load();
      await firstImages.loaded;
    },
    isReady: () => store.getState().status === 'ready' && firstImages.in,
    loadNextPage,
    setSearch,
    select(wallet) {
      store.setState({ selected: wallet });
      if (pair) pair(wallet);
      else modal.push('Downloads');
    },
    mount() {
      let active = true;
      init().then(
        () => active && store.setState({ coreReady: true }),
        () => undefined,
      );
      return () => {
        active = false;
        clearTimeout(searchTimer);
      };
    },
  };
}

const recentKey = (item: RecentWallet) => item.rdns ?? item.wallet?.id ?? item.name;

/** The stored recent wallets; anything unreadable counts as none. */
function readRecent(storage: KeyValueStorage): RecentWallet[] {
  try {
    const stored: unknown = JSON.parse(storage.getItem(STORAGE_KEYS.recentWallets) ?? '[]');
    if (!Array.isArray(stored)) return [];
    return stored.filter(isRecentWallet).slice(0, RECENT_WALLETS_MAX);
  } catch {
    return [];
  }
}

function isRecentWallet(value: unknown): value is RecentWallet {
  if (typeof value !== 'object' || value === null) return false;
  const { name, rdns, wallet } = value as Record<string, unknown>;
  const walletOk =
    wallet === undefined ||
    (typeof wallet === 'object' &&
      wallet !== null &&
      typeof (wallet as CatalogueWallet).id === 'string' &&
      typeof (wallet as CatalogueWallet).name === 'string');
  return typeof name === 'string' && (rdns === undefined || typeof rdns === 'string') && walletOk;
}

function browserImagePrefetch(url: string): Promise<void> {
  if (typeof Image === 'undefined') return Promise.resolve();
  const image = new Image();
  return new Promise((resolve) => {
    image.onload = image.onerror = () => resolve();
    image.src = url;
  });
}
