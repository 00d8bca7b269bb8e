import { vi } from 'vitest';
import { stubSendServer, USDC_ADDRESS } from './sendServer.js';

export const NATIVE = 'eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
export const USDC = `eip155:31337:${USDC_ADDRESS}`;
export const LTK = 'eip155:31337:0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
export const ROUTER = '0xA51c1fc2f0D1a1b8494Ed1FE312d7C3a78Ed91C0';

/** A quote as the Latch server answers `/v1/convert/quotes` for 1 ETH → USDC on the devnet. */
export function quoteFor(from: string, to: string, fromAmount: string, overrides: Record<string, unknown> = {}) {
  return {
    id: 'uniswap-v2:eip155:31337:7',
    fromAmount,
    fromAccount: from,
    toAmount: '2961474103',
    toAccount: to,
    toAmountMin: '2931859362',
    slippage: 1,
    priceImpact: 0.99,
    source: 'uniswap-v2',
    path: [from, to],
    spender: ROUTER,
    gas: '120000',
    gasPrice: '2000000000',
    networkFee: '240000000000000',
    networkFeeUsd: 0.6,
    block: 7,
    ...overrides,
  };
}

/**
 * A stand-in for the Latch server's `/v1/convert/*` (the real one runs in
 * crates/latch-server/tests/convert.rs and e2e/tests/swap.spec.ts) over `stubSendServer`'s
 * gateway and account endpoints. `answer` may replace any path's answer.
 */
export function stubSwapServer({
  allowance = '0',
  answer = {},
  rpc = {},
}: {
  allowance?: string;
  answer?: Record<string, (url: URL, init?: RequestInit) => Response>;
  rpc?: Record<string, unknown>;
} = {}) {
  const calls = stubSendServer({ rpc: { eth_blockNumber: '0x7', ...rpc } });
  // What `/v1/convert/allowance` answers; tests change it (after an approval).
  const state = { allowance };
  const inner = globalThis.fetch;
  const convert: { path: string; query: Record<string, string>; body?: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input);
    if (!url.pathname.startsWith('/v1/convert/')) return inner(input, init);
    const query = Object.fromEntries(url.searchParams);
    convert.push({ path: url.pathname, query, body: init?.body ? JSON.parse(init.body as string) : undefined });
    const custom = answer[url.pathname];
    if (custom) return custom(url, init);
    switch (url.pathname) {
      case '/v1/convert/tokens':
        return Response.json({
          tokens: [
            { name: 'Ether', symbol: 'ETH', address: NATIVE, decimals: 18, logoUri: '', eip2612: false },
            { name: 'USD Coin', symbol: 'USDC', address: USDC, decimals: 6, logoUri: '', eip2612: false },
            { name: 'Latch Token', symbol: 'LTK', address: LTK, decimals: 18, logoUri: '', eip2612: false },
          ],
        });
      case '/v1/convert/quotes':
        return Response.json({ quotes: [quoteFor(query.from!, query.to!, query.amount!)] });
      case '/v1/convert/allowance':
        return Response.json({ allowance: state.allowance });
      case '/v1/convert/build-approve':
        return Response.json({
          tx: { from: query.userAddress, to: USDC_ADDRESS, data: '0x095ea7b3', amount: '0', value: '0x0', eip155: { gas: '60000', gasPrice: '1' } },
        });
      default:
        return Response.json({
          tx: { from: '0x', to: ROUTER, data: '0x7ff36ab5', amount: '1', value: '0xde0b6b3a7640000', eip155: { gas: '150000', gasPrice: '1' } },
        });
    }
  });
  return { calls, convert, state };
}
