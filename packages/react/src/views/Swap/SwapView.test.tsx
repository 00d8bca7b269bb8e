import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestProvider } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';
import { TX_HASH } from '../../test/sendServer.js';
import { LTK, quoteFor, stubSwapServer, USDC } from '../../test/swapServer.js';

// The wallet is an EIP-1193 test double and `fetch` stands in for the Latch server; the real
// wallet, server and devnet run in e2e/tests/swap.spec.ts.
describe('Swap view', () => {
  async function openSwap(options: Parameters<typeof stubSwapServer>[0] = {}) {
    const server = stubSwapServer(options);
    const provider = createTestProvider({ eth_sendTransaction: TX_HASH });
    const { latch } = await openConnectView(provider);
    chooseTestWallet();
    await screen.findByTestId('account-address');
    await waitFor(() => expect(latch.accountData.tokens.getState().status).toBe('ready'));
    latch.modal.push('Swap');
    await screen.findByTestId('swap-view');
    await waitFor(() => expect((screen.getByTestId('swap-from-token') as HTMLSelectElement).value).not.toBe(''));
    return { latch, provider, ...server };
  }

  const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

  it('labels every field, offers the server tokens and shows a live quote with impact, minimum and fee', async () => {
    await openSwap();
    expect(screen.getByRole('heading', { name: 'Swap' })).toBeTruthy();
    const from = screen.getByLabelText('You pay') as HTMLSelectElement;
    expect([...from.options].map((option) => option.textContent)).toEqual(['ETH', 'USDC', 'LTK']);
    expect(screen.getByLabelText('Amount')).toBe(screen.getByTestId('swap-amount'));
    expect(screen.getByLabelText('You receive')).toBe(screen.getByTestId('swap-to-token'));
    type('swap-amount', '1');
    const quote = await screen.findByTestId('swap-quote', {}, { timeout: 3000 });
    expect(screen.getByTestId('swap-quote-amount').textContent).toBe('2,961.474103 USDC');
    expect(screen.getByTestId('swap-min-received').textContent).toBe('2,931.859362 USDC');
    expect(screen.getByTestId('swap-price-impact').textContent).toBe('0.99 %');
    expect(screen.getByTestId('swap-fee').textContent).toBe('$0.60');
    expect(quote.getAttribute('aria-live')).toBe('polite');
    expect(screen.queryByTestId('swap-impact-warning')).toBeNull();
    expect((screen.getByTestId('swap-submit') as HTMLButtonElement).disabled).toBe(false);
  });

  it('filters the pickers by symbol or address', async () => {
    await openSwap();
    type('swap-search', '0xe7f1');
    const to = screen.getByTestId('swap-to-token') as HTMLSelectElement;
    // The selected token stays listed; the match follows.
    expect([...to.options].map((option) => option.textContent)).toEqual(['USDC', 'LTK']);
    type('swap-search', 'zzz');
    expect(screen.getByRole('status').textContent).toBe('No token matches your search');
  });

  it('shows the approve step for a short allowance and warns of a high price impact', async () => {
    await openSwap({
      answer: {
        '/v1/convert/quotes': (url) =>
          Response.json({ quotes: [quoteFor(USDC, LTK, url.searchParams.get('amount')!, { priceImpact: 9.5 })] }),
      },
    });
    type('swap-from-token', USDC);
    type('swap-to-token', LTK);
    type('swap-amount', '100');
    const approve = await screen.findByTestId('swap-approve', {}, { timeout: 3000 });
    expect(approve.textContent).toBe('Approve USDC');
    expect(screen.queryByTestId('swap-submit')).toBeNull();
    expect(screen.getByTestId('swap-impact-warning').textContent).toContain('High price impact');
  });

  it('explains an amount above the balance in swap-error', async () => {
    await openSwap();
    type('swap-amount', '20000');
    const error = await screen.findByTestId('swap-error', {}, { timeout: 3000 });
    expect(error.textContent).toBe('Insufficient balance');
    expect(screen.getByTestId('swap-amount').getAttribute('aria-describedby')).toBe(error.id);
    expect((screen.getByTestId('swap-submit') as HTMLButtonElement).disabled).toBe(true);
  });
  it('starts from open({ view: "Swap", data }): the tokens by symbol or address and the amount, quoted', async () => {
    const { latch } = await openSwap();
    act(() => latch.modal.open({ view: 'Swap', data: { from: 'usdc', to: LTK.split(':').at(-1), amount: '100' } }));
    await waitFor(() => expect((screen.getByTestId('swap-from-token') as HTMLSelectElement).value).toBe(USDC));
    expect((screen.getByTestId('swap-to-token') as HTMLSelectElement).value).toBe(LTK);
    expect((screen.getByTestId('swap-amount') as HTMLInputElement).value).toBe('100');
    await screen.findByTestId('swap-quote', {}, { timeout: 3000 });
    expect(latch.modal.store.getState().data).toBeUndefined();
  });
});
