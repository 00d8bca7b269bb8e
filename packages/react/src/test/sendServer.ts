import { vi } from 'vitest';
import type { TokenBalance } from '../core/api.js';
import { rpcResult, TEN_THOUSAND_ETH } from './fixtures.js';

export const USDC_ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
export const RECEIVER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
export const ENS_OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const TX_HASH = `0x${'ab'.repeat(32)}`;

/** The devnet account's balances as the server reports them: 10000 ETH at $2500, 10000 USDC, a spam token. */
export const BALANCES: TokenBalance[] = [
  {
    name: 'Ether',
    symbol: 'ETH',
    chainId: 'eip155:31337',
    price: 2500,
    value: 25_000_000,
    quantity: { decimals: '18', numeric: '10000' },
    iconUrl: '',
  },
  {
    name: 'USD Coin',
    symbol: 'USDC',
    chainId: 'eip155:31337',
    address: `eip155:31337:${USDC_ADDRESS}`,
    price: 1,
    value: 10_000,
    quantity: { decimals: '6', numeric: '10000' },
    iconUrl: '',
  },
  {
    name: 'Spam',
    symbol: 'SPAM',
    chainId: 'eip155:31337',
    address: 'eip155:31337:0x0000000000000000000000000000000000000bad',
    price: 0,
    quantity: { decimals: '0', numeric: '1' },
    iconUrl: '',
  },
];

/**
 * A stand-in for the Latch server in unit tests (the real one runs in the Playwright tests): the
 * gateway answers by JSON-RPC method from `rpc`, the account endpoints from `balances`, and
 * `/v1/profile/account/latch-dev.eth` with the devnet's ENS name.
 */
export function stubSendServer({
  rpc = {},
  balances = BALANCES,
}: { rpc?: Record<string, unknown>; balances?: TokenBalance[] } = {}) {
  const answers: Record<string, unknown> = {
    eth_getBalance: TEN_THOUSAND_ETH,
    eth_gasPrice: '0x77359400', // 2 gwei
    eth_estimateGas: '0x5208', // 21000
    eth_getTransactionReceipt: { transactionHash: TX_HASH, status: '0x1', blockNumber: '0x2', gasUsed: '0x5208' },
    ...rpc,
  };
  const calls: { method: string; params: unknown[] }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const { pathname } = new URL(url);
    if (/\/balance$/.test(pathname)) return Response.json({ balances });
    if (/\/history$/.test(pathname)) return Response.json({ data: [], next: null });
    if (pathname.startsWith('/v1/identity/')) return Response.json({ name: null, avatar: null });
    if (pathname.startsWith('/v1/profile/account/')) {
      return pathname.endsWith('/latch-dev.eth')
        ? Response.json({
            name: 'latch-dev.eth',
            addresses: { '60': { address: ENS_OWNER, created_at: 0 } },
            attributes: { avatar: 'https://127.0.0.1:8787/avatar/latch-dev.png' },
          })
        : Response.json({ status: 'FAILED', reasons: [] }, { status: 404 });
    }
    if (pathname.startsWith('/v1')) {
      const { method, params } = JSON.parse(init?.body as string) as { method: string; params: unknown[] };
      calls.push({ method, params });
      const answer = answers[method];
      return rpcResult(typeof answer === 'function' ? answer(params) : answer);
    }
    return Response.json({ isAnalyticsEnabled: false });
  });
  return calls;
}
