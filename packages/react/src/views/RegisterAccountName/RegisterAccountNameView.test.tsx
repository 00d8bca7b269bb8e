import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHECKSUMMED_ACCOUNT, createTestProvider } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';
import { stubSendServer } from '../../test/sendServer.js';

const ZONE = 'latch.id';
const SIGNATURE = `0x${'12'.repeat(65)}`;

interface Registered {
  coin_type: number;
  address: string;
  message: string;
  signature: string;
}

/**
 * The Latch server's name endpoints in front of the send stub (`fetch` stands in for the server;
 * the real one, wallet and devnet run in e2e/tests/names.spec.ts): `taken` is someone's, and a
 * registration succeeds unless `failRegister`.
 */
function stubNameServer({ failRegister = false, failSuggestions = false, failReverse = false } = {}) {
  stubSendServer();
  const server = globalThis.fetch;
  const registrations: Registered[] = [];
  const names = new Set(['taken.latch.id']);
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const { pathname } = new URL(url);
    const suggestion = /^\/v1\/profile\/suggestions\/(.+)$/.exec(pathname);
    if (suggestion) {
      if (failSuggestions) return Response.json({ status: 'FAILED', reasons: [] }, { status: 503 });
      const label = decodeURIComponent(suggestion[1]!);
      const wanted = `${label}.${ZONE}`;
      const free = ['app', 'eth'].map((suffix) => ({ name: `${label}${suffix}.${ZONE}`, registered: false }));
      return Response.json({ suggestions: [{ name: wanted, registered: names.has(wanted) }, ...free] });
    }
    if (pathname.startsWith('/v1/profile/reverse/')) {
      return failReverse ? Response.json({ status: 'FAILED', reasons: [] }, { status: 503 }) : Response.json([]);
    }
    if (pathname === '/v1/profile/account' && init?.method === 'POST') {
      if (failRegister) return Response.json({ status: 'FAILED', reasons: [{ description: 'bad signature' }] }, { status: 401 });
      const body = JSON.parse(init.body as string) as Registered;
      registrations.push(body);
      const { name } = JSON.parse(body.message) as { name: string };
      names.add(name);
      return Response.json({ name, addresses: { [body.coin_type]: { address: body.address } }, attributes: {} });
    }
    return server(url, init);
  });
  return registrations;
}

describe('RegisterAccountName', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function openRegister(options?: Parameters<typeof stubNameServer>[0], answers: Record<string, unknown> = { personal_sign: SIGNATURE }) {
    const registrations = stubNameServer(options);
    const provider = createTestProvider(answers);
    const { latch } = await openConnectView(provider);
    chooseTestWallet();
    fireEvent.click(await screen.findByTestId('account-register-name'));
    await screen.findByTestId('register-name-view');
    return { latch, provider, registrations };
  }

  const type = (value: string) => fireEvent.change(screen.getByTestId('register-name-input'), { target: { value } });

  it('opens from the Account view with a labelled field and checks the rule as the visitor types', async () => {
    await openRegister();
    expect(screen.getByRole('heading', { name: 'Register a name' })).toBeTruthy();
    expect(screen.getByLabelText('Name')).toBe(screen.getByTestId('register-name-input'));
    type('abc');
    expect((await screen.findByTestId('register-name-error')).textContent).toBe('Name must be at least 4 characters');
    expect(screen.getByTestId('register-name-input').getAttribute('aria-invalid')).toBe('true');
    type('al_ice');
    await waitFor(() => expect(screen.getByTestId('register-name-error').textContent).toBe('Name can only contain letters, digits and hyphens'));
    type('-alice');
    await waitFor(() => expect(screen.getByTestId('register-name-error').textContent).toBe('Name cannot start or end with a hyphen'));
    expect((screen.getByTestId('register-name-submit') as HTMLButtonElement).disabled).toBe(true);
  });

  it('says a taken name is taken and offers free variants', async () => {
    await openRegister();
    type('taken');
    expect((await screen.findByTestId('register-name-error', {}, { timeout: 2000 })).textContent).toBe('taken.latch.id is already taken');
    const suggestions = screen.getAllByTestId('register-name-suggestion');
    expect(suggestions.map((button) => button.textContent)).toEqual(['taken.latch.id (taken)', 'takenapp.latch.id', 'takeneth.latch.id']);
    expect((suggestions[0] as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('register-name-submit') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(suggestions[1]!);
    expect((screen.getByTestId('register-name-input') as HTMLInputElement).value).toBe('takenapp');
    await waitFor(() => expect(screen.getByTestId('register-name-status').textContent).toBe('takenapp.latch.id is available'), { timeout: 2000 });
  });

  it('signs the registration with the wallet, registers, sets the profile name and shows success', async () => {
    const { latch, provider, registrations } = await openRegister();
    type('Alice');
    await waitFor(() => expect(screen.getByTestId('register-name-status').textContent).toBe('alice.latch.id is available'), { timeout: 2000 });
    fireEvent.click(screen.getByTestId('register-name-submit'));
    expect((await screen.findByTestId('register-name-success')).textContent).toContain('You registered alice.latch.id.');
    const [registration] = registrations;
    // Chain 31337's ENSIP-11 coin type, the connected account, and what the wallet signed.
    expect(registration?.coin_type).toBe((0x80000000 | 31337) >>> 0);
    expect(registration?.address).toBe(CHECKSUMMED_ACCOUNT);
    expect(registration?.signature).toBe(SIGNATURE);
    const message = JSON.parse(registration!.message) as { name: string; attributes: object; timestamp: number };
    expect(message.name).toBe('alice.latch.id');
    expect(message.attributes).toEqual({});
    expect(Math.abs(message.timestamp - Date.now() / 1000)).toBeLessThan(5);
    const sign = provider.request.mock.calls.find(([{ method }]) => method === 'personal_sign');
    expect(sign?.[0].params).toEqual([`0x${Buffer.from(registration!.message).toString('hex')}`, CHECKSUMMED_ACCOUNT]);
    expect(latch.accountData.identity.getState().name).toBe('alice.latch.id');
    fireEvent.click(screen.getByTestId('register-name-done'));
    expect((await screen.findByTestId('account-name')).textContent).toBe('alice.latch.id');
    expect(screen.queryByTestId('account-register-name')).toBeNull();
  });

  it('returns to the form with "Error registering name {name}" when the server refuses', async () => {
    await openRegister({ failRegister: true });
    type('alice');
    await waitFor(() => expect((screen.getByTestId('register-name-submit') as HTMLButtonElement).disabled).toBe(false), { timeout: 2000 });
    fireEvent.click(screen.getByTestId('register-name-submit'));
    expect((await screen.findByTestId('register-name-error')).textContent).toBe('Error registering name alice.latch.id');
    expect(screen.getByTestId('register-name-view')).toBeTruthy();
  });

  it('says "Error fetching name suggestions" when the lookup fails', async () => {
    await openRegister({ failSuggestions: true });
    type('alice');
    expect((await screen.findByTestId('register-name-error', {}, { timeout: 2000 })).textContent).toBe('Error fetching name suggestions');
  });

  it('says "Error fetching names for address" when the names the account holds cannot be read', async () => {
    await openRegister({ failReverse: true });
    expect((await screen.findByTestId('register-name-error')).textContent).toBe('Error fetching names for address');
    expect(screen.queryByTestId('register-name-owned')).toBeNull();
  });
});
