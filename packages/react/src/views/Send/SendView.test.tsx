import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createTestProvider } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';
import { ENS_OWNER, RECEIVER, stubSendServer, TX_HASH } from '../../test/sendServer.js';

// The wallet is an EIP-1193 test double and `fetch` stands in for the Latch server; the real
// wallet, server and devnet run in e2e/tests/send.spec.ts.
describe('Send view', () => {
  async function openSend(answers: Record<string, unknown> = { eth_sendTransaction: TX_HASH }) {
    stubSendServer();
    const provider = createTestProvider(answers);
    const { latch } = await openConnectView(provider);
    chooseTestWallet();
    await screen.findByTestId('account-address');
    await waitFor(() => expect(latch.accountData.tokens.getState().status).toBe('ready'));
    latch.modal.push('Send');
    await screen.findByTestId('send-view');
    await waitFor(() => expect(screen.getByTestId('send-fee').textContent).toContain('0.000042 ETH'));
    return { latch, provider };
  }

  const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

  it('offers ETH and USDC, labels every field, and shows the fee in USD', async () => {
    await openSend();
    expect(screen.getByRole('heading', { name: 'Send' })).toBeTruthy();
    const token = screen.getByLabelText('Token') as HTMLSelectElement;
    expect([...token.options].map((option) => option.textContent)).toEqual(['ETH', 'USDC']);
    expect(screen.getByLabelText('Amount')).toBe(screen.getByTestId('send-amount'));
    expect(screen.getByLabelText('To')).toBe(screen.getByTestId('send-receiver'));
    expect(screen.getByTestId('send-fee').textContent).toBe('Network fee: 0.000042 ETH ($0.11)');
    expect(screen.getByTestId('send-balance').textContent).toBe('Balance: 10000.000 ETH');
  });

  it('fills a native Max that leaves the gas, and a token Max of the whole balance', async () => {
    await openSend();
    fireEvent.click(screen.getByTestId('send-max'));
    await waitFor(() => expect((screen.getByTestId('send-amount') as HTMLInputElement).value).toBe('9999.999958'));
    type('send-token', 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3');
    fireEvent.click(screen.getByTestId('send-max'));
    await waitFor(() => expect((screen.getByTestId('send-amount') as HTMLInputElement).value).toBe('10000'));
  });

  it('shows the resolved name and avatar of a name receiver', async () => {
    await openSend();
    type('send-receiver', 'latch-dev.eth');
    fireEvent.blur(screen.getByTestId('send-receiver'));
    const shown = await screen.findByTestId('send-receiver-name');
    expect(shown.textContent).toContain('latch-dev.eth');
    expect(screen.getByRole('img', { name: 'Avatar of latch-dev.eth' })).toBeTruthy();
    expect(shown.querySelector('[title]')?.getAttribute('title')).toBe(ENS_OWNER);
  });

  it('says "Error resolving name" when the server cannot resolve a name', async () => {
    await openSend();
    const server = globalThis.fetch;
    // The name service fails (a 503 from the server), unlike an unknown name's 404.
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) =>
      new URL(url).pathname.startsWith('/v1/profile/account/')
        ? Response.json({ status: 'FAILED', reasons: [] }, { status: 503 })
        : server(url, init),
    );
    type('send-receiver', 'latch-dev.eth');
    fireEvent.blur(screen.getByTestId('send-receiver'));
    expect((await screen.findByTestId('send-error')).textContent).toBe('Error resolving name');
    expect(screen.queryByTestId('send-receiver-name')).toBeNull();
  });

  it('explains a wrong draft in send-error', async () => {
    await openSend();
    type('send-amount', '20000');
    type('send-receiver', RECEIVER);
    fireEvent.blur(screen.getByTestId('send-receiver'));
    fireEvent.click(screen.getByTestId('send-submit'));
    expect((await screen.findByTestId('send-error')).textContent).toBe('Amount exceeds balance');
    expect(screen.getByRole('alert').textContent).toBe('Amount exceeds balance');
    type('send-receiver', '0xnot-an-address');
    fireEvent.blur(screen.getByTestId('send-receiver'));
    type('send-amount', '1');
    fireEvent.click(screen.getByTestId('send-submit'));
    expect((await screen.findByTestId('send-error')).textContent).toBe('Invalid address');
  });

  it('previews, sends through the wallet, then returns to Account with "Transaction started"', async () => {
    const { provider } = await openSend();
    type('send-amount', '0.5');
    type('send-receiver', RECEIVER);
    fireEvent.blur(screen.getByTestId('send-receiver'));
    fireEvent.click(screen.getByTestId('send-submit'));
    const preview = await screen.findByTestId('send-preview');
    expect(preview.textContent).toContain('0.5 ETH');
    expect(preview.textContent).toContain(RECEIVER);
    fireEvent.click(screen.getByTestId('send-submit'));
    expect(await screen.findByText('Transaction started')).toBeTruthy();
    await screen.findByTestId('account-address');
    expect(provider.request.mock.calls.some(([{ method }]) => method === 'eth_sendTransaction')).toBe(true);
  });

  it('says so calmly when the user declines in the wallet', async () => {
    await openSend({
      eth_sendTransaction: () => {
        throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
      },
    });
    type('send-amount', '1');
    type('send-receiver', RECEIVER);
    fireEvent.blur(screen.getByTestId('send-receiver'));
    fireEvent.click(screen.getByTestId('send-submit'));
    await screen.findByTestId('send-preview');
    fireEvent.click(screen.getByTestId('send-submit'));
    expect((await screen.findByTestId('send-error')).textContent).toBe(
      'You declined the transaction in your wallet. Nothing was sent.',
    );
  });
  it('starts from open({ view: "Send", data }): token, amount and a name receiver, once', async () => {
    stubSendServer();
    const { latch } = await openConnectView(createTestProvider({ eth_sendTransaction: TX_HASH }));
    chooseTestWallet();
    await screen.findByTestId('account-address');
    act(() =>
      latch.modal.open({ view: 'Send', data: { token: 'USDC', amount: '12.5', receiver: 'latch-dev.eth' } }),
    );
    await screen.findByTestId('send-view');
    // The token is picked once the server's balances list it (the native coin shows before).
    await waitFor(() =>
      expect((screen.getByTestId('send-token') as HTMLSelectElement).value).toBe(
        'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3',
      ),
    );
    expect((screen.getByTestId('send-amount') as HTMLInputElement).value).toBe('12.5');
    expect((screen.getByTestId('send-receiver') as HTMLInputElement).value).toBe('latch-dev.eth');
    expect((await screen.findByTestId('send-receiver-name')).querySelector('[title]')?.getAttribute('title')).toBe(ENS_OWNER);
    expect(latch.modal.store.getState().data).toBeUndefined();

    // Taken once: Send opened again without data starts from the draft as the visitor left it.
    type('send-amount', '3');
    act(() => latch.modal.open({ view: 'Send' }));
    expect((screen.getByTestId('send-amount') as HTMLInputElement).value).toBe('3');
  });

  it('prefills a native send by symbol and an address receiver', async () => {
    stubSendServer();
    const { latch } = await openConnectView(createTestProvider({ eth_sendTransaction: TX_HASH }));
    chooseTestWallet();
    await screen.findByTestId('account-address');
    await waitFor(() => expect(latch.accountData.tokens.getState().status).toBe('ready'));
    act(() => latch.modal.open({ view: 'Send', data: { token: 'eth', amount: '0.25', receiver: RECEIVER } }));
    await screen.findByTestId('send-view');
    await waitFor(() => expect((screen.getByTestId('send-token') as HTMLSelectElement).value).toBe('native'));
    expect((screen.getByTestId('send-amount') as HTMLInputElement).value).toBe('0.25');
    fireEvent.click(screen.getByTestId('send-submit'));
    const preview = await screen.findByTestId('send-preview');
    expect(preview.textContent).toContain('0.25 ETH');
    expect(preview.textContent).toContain(RECEIVER);
  });
});
