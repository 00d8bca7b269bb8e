import { vi, type Mock } from 'vitest';
import { createLatch, type Latch, type LatchOptions } from '../core/createLatch.js';
import type { Eip1193Provider, Eip6963ProviderInfo, Network } from '../core/types.js';

export const devnet: Network = {
  id: 31337,
  caipNetworkId: 'eip155:31337',
  chainNamespace: 'eip155',
  name: 'Latch Devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
};

/** The devnet's second funded account, as a wallet reports it (lower case). */
export const ACCOUNT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
export const CHECKSUMMED_ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** 10000 ETH in wei, as `eth_getBalance` returns it. */
export const TEN_THOUSAND_ETH = '0x21e19e0c9bab2400000';

export function createTestLatch(options: Partial<LatchOptions> = {}): Latch {
  return createLatch({ projectId: 'test-project', serverUrl: 'http://latch.test', networks: [devnet], ...options });
}

/** Settles once `latch`'s modal is open: opening waits for the first view's images (behaviour 1.4). */
export function whenOpen(latch: Latch): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!latch.modal.store.getState().open) return;
      unsubscribe();
      resolve();
    };
    const unsubscribe = latch.modal.store.subscribe(check);
    check();
  });
}

/** Opens `latch`'s modal and, once it is open, connects with `connect` (the test's wallet). */
export async function openAndConnect(latch: Latch, connect: () => Promise<unknown>): Promise<void> {
  latch.modal.open();
  await whenOpen(latch);
  await connect();
}

export const testWalletInfo: Eip6963ProviderInfo = {
  uuid: '6b1f4c1e-0000-4000-8000-000000000001',
  name: 'Test Wallet',
  icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
  rdns: 'dev.latch.testwallet',
};

type Listener = (...args: unknown[]) => void;

export interface TestProvider extends Eip1193Provider {
  /** Calls the listeners the app registered, as the wallet would. */
  emit(event: string, ...args: unknown[]): void;
  listenerCount(event: string): number;
  request: Mock<Eip1193Provider['request']>;
}

/**
 * An EIP-1193 provider test double: no browser wallet runs in jsdom. It answers
 * `eth_requestAccounts` and `eth_chainId`, and any method in `answers` (a function answer gets
 * the params and may throw to model a rejection). The real wallet path is covered by the Playwright end-to-end tests.
 */
export function createTestProvider(answers: Record<string, unknown> = {}): TestProvider {
  const listeners = new Map<string, Set<Listener>>();
  const defaults: Record<string, unknown> = { eth_requestAccounts: [ACCOUNT], eth_chainId: '0x7a69' };
  const table = { ...defaults, ...answers };
  return {
    request: vi.fn(async ({ method, params }: { method: string; params?: readonly unknown[] | object }) => {
      const answer = table[method];
      return typeof answer === 'function' ? answer(params) : answer;
    }),
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener as Listener);
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener as Listener);
    },
    emit(event, ...args) {
      for (const listener of listeners.get(event) ?? []) listener(...args);
    },
    listenerCount: (event) => listeners.get(event)?.size ?? 0,
  };
}

/** The error an EIP-1193 wallet throws when the user declines. */
export function userRejection(): never {
  throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
}

const uninstallers: (() => void)[] = [];

/**
 * Makes `provider` behave like an installed wallet extension: announce now and answer every
 * later `eip6963:requestProvider`, until `uninstallWallets` runs after the test.
 */
export function installWallet(provider: Eip1193Provider, info: Eip6963ProviderInfo = testWalletInfo): void {
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
  window.addEventListener('eip6963:requestProvider', announce);
  uninstallers.push(() => window.removeEventListener('eip6963:requestProvider', announce));
  announce();
}

export function uninstallWallets(): void {
  for (const uninstall of uninstallers.splice(0)) uninstall();
}

/**
 * Stubs `fetch` (no Latch server runs in unit tests; the real one is covered end to end):
 * gateway calls get `respond()` and are recorded on the returned mock; the analytics config
 * answers "off", so analytics sends nothing.
 */
export function stubGateway(
  respond: () => Response | Promise<Response> = () => rpcResult(TEN_THOUSAND_ETH),
  api: Partial<Record<ApiRoute, (url: URL) => Response | Promise<Response>>> = {},
) {
  const gatewayCalls = vi.fn(async (_url: string, _init?: RequestInit) => respond());
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const parsed = new URL(url);
    const route = apiRoute(parsed.pathname);
    if (route) return (api[route] ?? API_DEFAULTS[route])(parsed);
    return parsed.pathname.startsWith('/v1') ? gatewayCalls(url, init) : Response.json({ isAnalyticsEnabled: false });
  });
  return gatewayCalls;
}

/** The account endpoints of the Latch server the modal reads (besides the RPC gateway). */
export type ApiRoute = 'balance' | 'history' | 'nfts' | 'identity' | 'wallets';

function apiRoute(path: string): ApiRoute | undefined {
  if (/^\/v1\/account\/[^/]+\/balance$/.test(path)) return 'balance';
  if (/^\/v1\/account\/[^/]+\/history$/.test(path)) return 'history';
  if (/^\/v1\/account\/[^/]+\/nfts$/.test(path)) return 'nfts';
  if (/^\/v1\/identity\/[^/]+$/.test(path)) return 'identity';
  if (path === '/getWallets') return 'wallets';
  return undefined;
}

/** An account with nothing on record, as the server answers for a fresh address. */
const API_DEFAULTS: Record<ApiRoute, () => Response> = {
  balance: () => Response.json({ balances: [] }),
  history: () => Response.json({ data: [], next: null }),
  nfts: () => Response.json({ data: [], partial: false }),
  identity: () => Response.json({ name: null, avatar: null }),
  wallets: () => Response.json({ count: 0, data: [] }),
};

export function rpcResult(result: unknown): Response {
  return Response.json({ jsonrpc: '2.0', id: 1, result });
}
