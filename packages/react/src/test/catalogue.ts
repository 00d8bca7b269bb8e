import type { CatalogueWallet } from '../core/catalogue.js';

export function catalogueWallet(id: string, name: string, extra: Partial<CatalogueWallet> = {}): CatalogueWallet {
  return { id, name, image_id: id, rdns: null, chains: ['eip155:31337'], ...extra };
}

/** 93 wallets, as many as the seed catalogue: three pages of 40. Wallet 7 is the test wallet's entry. */
export function testCatalogue(): CatalogueWallet[] {
  return Array.from({ length: 93 }, (_, index) =>
    index === 7
      ? catalogueWallet('test-wallet', 'Test Wallet', { rdns: 'dev.latch.testwallet' })
      : catalogueWallet(`wallet-${index}`, `Wallet ${index}`, {
          homepage: `https://wallet-${index}.example`,
          chrome_store: index % 2 ? `https://chrome.example/wallet-${index}` : null,
          app_store: `https://apps.example/wallet-${index}`,
        }),
  );
}

export interface CatalogueServer {
  /** The `api.wallets` answer for `stubGateway`. */
  respond(url: URL): Response | Promise<Response>;
  /** The query of every `/getWallets` request, in order. */
  requests: URLSearchParams[];
  /** Holds answers until `release()`; requests still get recorded. */
  hold(): void;
  release(): void;
  /** Answers the next requests with this status. */
  fail(status: number | undefined): void;
}

/**
 * Answers `/getWallets` from `wallets` the way the Latch server does (filters, paging, and a plain
 * substring search standing in for latch-core's ranking): a stand-in for the server in unit tests,
 * which have none. The real server and catalogue are covered by the end-to-end tests.
 */
export function catalogueServer(wallets: readonly CatalogueWallet[]): CatalogueServer {
  const requests: URLSearchParams[] = [];
  let held: (() => void)[] | undefined;
  let failure: number | undefined;
  const list = (params: URLSearchParams, key: string) => params.get(key)?.split(',');

  function answer(params: URLSearchParams): Response {
    if (failure) return Response.json({ status: 'FAILED', reasons: [] }, { status: failure });
    const include = list(params, 'include');
    const exclude = list(params, 'exclude');
    const rdns = list(params, 'rdns');
    const chains = list(params, 'chains');
    const search = params.get('search')?.toLowerCase();
    const kept = wallets.filter(
      (wallet) =>
        (!include || include.includes(wallet.id)) &&
        !exclude?.includes(wallet.id) &&
        (!rdns || (wallet.rdns && rdns.includes(wallet.rdns))) &&
        (!chains || wallet.chains?.some((chain) => chains.includes(chain))) &&
        (!search || wallet.name.toLowerCase().includes(search)),
    );
    const page = Number(params.get('page') ?? 1);
    const entries = Number(params.get('entries') ?? 40);
    return Response.json({ count: kept.length, data: kept.slice((page - 1) * entries, page * entries) });
  }

  return {
    requests,
    respond(url) {
      requests.push(url.searchParams);
      if (!held) return answer(url.searchParams);
      return new Promise((resolve) => held!.push(() => resolve(answer(url.searchParams))));
    },
    hold() {
      held = [];
    },
    release() {
      const waiting = held ?? [];
      held = undefined;
      for (const resolve of waiting) resolve();
    },
    fail(status) {
      failure = status;
    },
  };
}
