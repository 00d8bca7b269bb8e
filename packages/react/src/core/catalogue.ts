import { serverUrl, type ServerLocation } from './api.js';
import { fetchJson } from './gateway.js';

/**
 * A wallet of the Latch server's catalogue (behaviour 2.4 "Wallet catalogue entry", behaviour 6.12 `GET /getWallets`),
 * with the Explorer API's field names. Absent fields may come as `null`.
 */
export interface CatalogueWallet {
  id: string;
  name: string;
  homepage?: string | null;
  image_id?: string | null;
  image_url?: string | null;
  order?: number | null;
  mobile_link?: string | null;
  desktop_link?: string | null;
  webapp_link?: string | null;
  app_store?: string | null;
  play_store?: string | null;
  chrome_store?: string | null;
  /** EIP-6963 reverse-DNS id. */
  rdns?: string | null;
  /** CAIP-2 ids the wallet supports. */
  chains?: readonly string[] | null;
  badge_type?: string | null;
  supports_wc?: boolean | null;
  description?: string | null;
}

/** A page of `GET /getWallets`: `count` matching wallets in all pages. */
export interface WalletPage {
  count: number;
  data: CatalogueWallet[];
}

/** `GET /getWallets` parameters; lists are sent comma-separated, empty ones not at all. */
export interface WalletQuery {
  /** 1-based. */
  page?: number;
  entries?: number;
  search?: string;
  /** Only these catalogue ids. */
  include?: readonly string[];
  /** Not these catalogue ids. */
  exclude?: readonly string[];
  /** Only these reverse-DNS ids. */
  rdns?: readonly string[];
  /** Wallets supporting any of these CAIP-2 networks. */
  chains?: readonly string[];
  badgeType?: string;
}

export interface CatalogueClient {
  getWallets(query: WalletQuery): Promise<WalletPage>;
  /** Where the wallet's image is: the server's `/getWalletImage/{image_id}`, else its `image_url`. */
  walletImageUrl(wallet: Pick<CatalogueWallet, 'image_id' | 'image_url'>): string | undefined;
}

const joined = (list: readonly string[] | undefined) => (list?.length ? list.join(',') : undefined);

/** The Latch server's wallet catalogue (behaviour 6.12 "Wallet catalogue service"). */
export function createCatalogueClient(server: ServerLocation): CatalogueClient {
  return {
    async getWallets(query) {
      const page = await fetchJson<WalletPage>(
        serverUrl(server, '/getWallets', {
          page: query.page === undefined ? undefined : String(query.page),
          entries: query.entries === undefined ? undefined : String(query.entries),
          search: query.search?.trim() || undefined,
          include: joined(query.include),
          exclude: joined(query.exclude),
          rdns: joined(query.rdns),
          chains: joined(query.chains),
          badge_type: query.badgeType,
        }),
      );
      // The server sends one page without repeats; this guards the UI against a catalogue that
      // repeats an id (the client-side rule of the backend research: de-duplicate by id).
      const seen = new Set<string>();
      const data = page.data.filter((wallet) => !seen.has(wallet.id) && Boolean(seen.add(wallet.id)));
      return { count: page.count, data };
    },
    walletImageUrl(wallet) {
      if (wallet.image_id) return serverUrl(server, `/getWalletImage/${encodeURIComponent(wallet.image_id)}`);
      return wallet.image_url ?? undefined;
    },
  };
}
