import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CHECKSUMMED_ACCOUNT, rpcResult, stubGateway } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';

// The wallet is an EIP-1193 test double (no browser wallet runs in jsdom) and `fetch` stands in
// for the Latch server's balance gateway; the end-to-end tests cover both for real.
describe('AccountView', () => {
  async function connect() {
    await openConnectView();
    chooseTestWallet();
    return screen.findByTestId('account-address');
  }

  it('says how many sends wait to be mined, and nothing once they are (behaviour 5.6 Send)', async () => {
    stubGateway();
    const { latch } = await openConnectView();
    chooseTestWallet();
    await screen.findByTestId('account-address');
    expect(screen.queryByTestId('account-pending')).toBeNull();
    const pending = { hash: `0x${'ab'.repeat(32)}`, caipNetworkId: 'eip155:1' as const };
    act(() => latch.transactions.store.setState({ pending: [pending] }));
    expect(screen.getByTestId('account-pending').textContent).toBe('Transactions waiting to be mined: 1');
    act(() => latch.transactions.store.setState({ pending: [] }));
    expect(screen.queryByTestId('account-pending')).toBeNull();
  });

  it('shows the truncated address with the full one as title, and the balance', async () => {
    stubGateway();
    const address = await connect();
    expect(address.textContent).toBe('0x70...dc79C8');
    expect(address.title).toBe(CHECKSUMMED_ACCOUNT);
    expect((await screen.findByText('10000.000 ETH')).dataset.testid).toBe('account-balance');
  });

  it('shows a loading state until the gateway answers', async () => {
    let answer!: (response: Response) => void;
    stubGateway(() => new Promise<Response>((resolve) => (answer = resolve)));
    await connect();
    const balance = screen.getByTestId('account-balance');
    expect(balance.textContent).toBe('Loading balance…');
    expect(balance.getAttribute('aria-busy')).toBe('true');
    answer(rpcResult('0x0'));
    expect((await screen.findByText('0.000 ETH')).getAttribute('aria-busy')).toBe('false');
  });

  it('shows an error state with a retry that reads the balance again', async () => {
    let healthy = false;
    stubGateway(() =>
      healthy ? rpcResult('0xde0b6b3a7640000') : Response.json({ status: 'FAILED', reasons: [] }, { status: 503 }),
    );
    await connect();
    await screen.findByText('Token Balance Unavailable');
    healthy = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByText('1.000 ETH')).dataset.testid).toBe('account-balance');
  });

  it('disconnects, closing the modal and clearing the account', async () => {
    stubGateway();
    await connect();
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('connect-button').textContent).toBe('Connect Wallet');
  });

  it.each([
    [401, 'Invalid Project ID'],
    [403, 'Invalid App Configuration'],
    [503, 'Token Balance Unavailable'],
  ])('shows the documented alert when the server answers %i', async (status, alert) => {
    stubGateway(() => Response.json({ status: 'FAILED', reasons: [{ field: 'x', description: 'refused' }] }, { status }));
    await connect();
    expect((await screen.findByRole('alert')).textContent).toBe(alert);
  });
});
