import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestProvider } from '../../test/fixtures.js';
import { stubOnrampServer } from '../../test/onrampServer.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';

// `fetch` stands in for the Latch server; the real server, its sandbox checkout and the devnet run
// in e2e/tests/buy.spec.ts.
describe('Buy view', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function openBuy() {
    const { latch } = await openConnectView(createTestProvider({}));
    chooseTestWallet();
    await screen.findByTestId('account-address');
    const bodies = stubOnrampServer();
    fireEvent.click(await screen.findByTestId('account-action-buy'));
    await screen.findByTestId('buy-view');
    await waitFor(() => expect((screen.getByTestId('buy-asset') as HTMLSelectElement).value).toBe('ETH'));
    return { latch, bodies };
  }

  it('opens from the Account actions, labels every field and quotes with fees and total', async () => {
    await openBuy();
    expect(screen.getByRole('heading', { name: 'Buy' })).toBeTruthy();
    expect(screen.getByLabelText('Amount')).toBe(screen.getByTestId('buy-amount'));
    expect(screen.getByLabelText('Currency')).toBe(screen.getByTestId('buy-currency'));
    expect(screen.getByLabelText('Payment method')).toBe(screen.getByTestId('buy-method'));
    expect([...(screen.getByTestId('buy-method') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Card', 'Bank transfer']);
    expect((screen.getByTestId('buy-network') as HTMLSelectElement).value).toBe('eip155:31337');
    expect((screen.getByTestId('buy-submit') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('buy-amount'), { target: { value: '25' } });
    await waitFor(() => expect(screen.getByTestId('buy-quote').textContent).toContain('0.0099 ETH'), { timeout: 2000 });
    expect(screen.getByTestId('buy-quote').textContent).toContain('Total');
    expect(screen.getByTestId('buy-quote').textContent).toContain('25.00 USD');
    expect((screen.getByTestId('buy-submit') as HTMLButtonElement).disabled).toBe(false);
  });

  it('says the limits when the amount is below or above them', async () => {
    await openBuy();
    fireEvent.change(screen.getByTestId('buy-amount'), { target: { value: '5' } });
    expect((await screen.findByTestId('buy-error', {}, { timeout: 2000 })).textContent).toBe('The smallest amount is 10.00 USD');
    expect(screen.getByTestId('buy-amount').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(screen.getByTestId('buy-amount'), { target: { value: '8000' } });
    await waitFor(() => expect(screen.getByTestId('buy-error').textContent).toBe('The largest amount is 7500.00 USD'), { timeout: 2000 });
  });
  it('starts from open({ view: "Onramp", data }) with the amount, and quotes it', async () => {
    const { latch } = await openConnectView(createTestProvider({}));
    chooseTestWallet();
    await screen.findByTestId('account-address');
    stubOnrampServer();
    act(() => latch.modal.open({ view: 'Onramp', data: { amount: '25' } }));
    await screen.findByTestId('buy-view');
    expect((screen.getByTestId('buy-amount') as HTMLInputElement).value).toBe('25');
    await waitFor(() => expect(screen.getByTestId('buy-quote').textContent).toContain('0.0099 ETH'), { timeout: 2000 });
  });
});
