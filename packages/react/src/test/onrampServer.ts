import { vi } from 'vitest';
import type { OnrampOptions } from '../core/onramp.js';

/** Options as the sandbox answers them on the devnet (ETH on the devnet and on ethereum, USDC on base). */
export const OPTIONS: OnrampOptions = {
  paymentCurrencies: ['USD', 'EUR'].map((id) => ({
    id,
    payment_method_limits: [
      { id: 'CARD', min: '10.00', max: '7500.00' },
      { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' },
    ],
  })),
  purchaseCurrencies: [
    { id: 'ETH', name: 'Ether', symbol: 'ETH', networks: [
      { name: 'ethereum', display_name: 'Ethereum', chain_id: '1', contract_address: '' },
      { name: 'eip155:31337', display_name: 'Devnet', chain_id: '31337', contract_address: '' },
    ] },
    { id: 'USDC', name: 'USD Coin', symbol: 'USDC', networks: [{ name: 'base', display_name: 'Base', chain_id: '8453', contract_address: '0x83' }] },
  ],
  provider: 'sandbox',
  providers: ['sandbox'],
  fallback: false,
};

export const QUOTE = {
  coinbaseFee: { amount: '0.25', currency: 'USD' },
  networkFee: { amount: '0.00', currency: 'USD' },
  paymentSubtotal: { amount: '24.75', currency: 'USD' },
  paymentTotal: { amount: '25.00', currency: 'USD' },
  purchaseAmount: { amount: '0.0099', currency: 'ETH' },
  quoteId: 'sandbox',
  estimate: false,
};

/** The server's answers by path; a quote below 10 is refused as the real server refuses it. */
export function stubOnrampServer(options: OnrampOptions = OPTIONS) {
  const bodies: Record<string, unknown>[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const { pathname } = new URL(url);
    if (pathname === '/v1/onramp/options') return Response.json(options);
    const body = JSON.parse((init?.body as string) ?? '{}') as Record<string, unknown>;
    bodies.push({ path: pathname, ...body });
    if (pathname === '/v1/onramp/quote') {
      const amount = Number(body.amount);
      if (amount < 10) return Response.json({ status: 'FAILED', code: 'AMOUNT_BELOW_MIN', reasons: [{ field: 'amount', description: 'the smallest amount is 10.00 USD' }] }, { status: 400 });
      if (amount > 7500) return Response.json({ status: 'FAILED', code: 'AMOUNT_ABOVE_MAX', reasons: [{ field: 'amount', description: 'the largest amount is 7500.00 USD' }] }, { status: 400 });
      return Response.json(QUOTE);
    }
    if (pathname === '/v1/generators/onrampurl') return Response.json({ url: 'http://127.0.0.1:8787/onramp/sandbox?session=ab', provider: 'sandbox' });
    if (/\/balance$/.test(pathname)) return Response.json({ balances: [] });
    if (/\/history$/.test(pathname)) return Response.json({ data: [], next: null });
    return Response.json({ isAnalyticsEnabled: false });
  });
  return bodies;
}
