import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createTestLatch, createTestProvider, stubGateway, userRejection } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';
import { HttpError } from '../../core/gateway.js';
import type { AuthenticationAdapter } from '../../core/siwx.js';

/**
 * A host's own sign-in backend in memory (the adapter is the boundary a host implements); the
 * Latch server's adapter is covered end to end. The wallet is an EIP-1193 test double.
 */
function adapter(overrides: Partial<AuthenticationAdapter> = {}): AuthenticationAdapter {
  return {
    getNonce: async () => 'nonce1234',
    createMessage: ({ domain, address }) => `${domain} wants you to sign in with ${address}`,
    verify: async ({ account, message, signature }) => ({ account, chainId: 'eip155:31337', message, signature }),
    getSession: async () => null,
    signOut: vi.fn(async () => undefined),
    ...overrides,
  };
}

async function openSignIn(personalSign: () => unknown, required = false, overrides: Partial<AuthenticationAdapter> = {}) {
  stubGateway();
  const latch = createTestLatch({ siwx: { adapter: adapter(overrides), required } });
  await openConnectView(createTestProvider({ personal_sign: personalSign }), latch);
  chooseTestWallet();
  await screen.findByTestId('siwx-sign-message');
  return latch;
}

describe('SIWXSignMessageView', () => {
  it('asks to sign after connecting, titled Sign in', async () => {
    await openSignIn(() => `0x${'ab'.repeat(65)}`);
    expect(screen.getByRole('dialog', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByTestId('siwx-sign-message').textContent).toContain(
      `${window.location.host} asks you to sign a message with your wallet`,
    );
  });

  it('signs in and closes the modal', async () => {
    const latch = await openSignIn(() => `0x${'ab'.repeat(65)}`);
    fireEvent.click(screen.getByTestId('siwx-sign'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(latch.siwx.store.getState().status).toBe('authenticated');
  });

  it('shows the refusal in the view and as a toast', async () => {
    await openSignIn(userRejection);
    fireEvent.click(screen.getByTestId('siwx-sign'));
    expect((await screen.findByTestId('siwx-error')).textContent).toBe('Signature declined');
    expect(screen.getByTestId('toast').textContent).toBe('Signature declined');
    expect(screen.getByTestId('toast').getAttribute('role')).toBe('alert');
    expect(screen.getByRole('button', { name: 'Sign' })).toBeTruthy();
  });

  it('in required mode, Escape shakes instead of closing and Cancel disconnects', async () => {
    const latch = await openSignIn(() => `0x${'ab'.repeat(65)}`, true);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.getByRole('dialog').getAttribute('data-shake')).toBe('true');
    act(() => fireEvent.click(screen.getByTestId('siwx-cancel')));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(latch.connection.getState().status).toBe('disconnected');
  });

  const expiredText = 'Session ExpiredCheck that your device’s clock is right, then reconnect.';

  it('says "Session Expired" with the clock hint when the Latch server refuses the message\'s times', async () => {
    const verify = async () => {
      throw new HttpError(401, 'Session not yet valid: check the clock and reconnect', 'SESSION_EXPIRED');
    };
    await openSignIn(() => `0x${'ab'.repeat(65)}`, false, { verify });
    fireEvent.click(screen.getByTestId('siwx-sign'));
    const alert = await screen.findByTestId('siwx-error');
    expect(alert.textContent).toBe(expiredText);
    expect(screen.getByTestId('siwx-error-hint').textContent).toBe('Check that your device’s clock is right, then reconnect.');
    expect(alert.getAttribute('role')).toBe('alert');
  });

  it('says "Session Expired" for latch-core\'s words from a host\'s own adapter, but not for other refusals', async () => {
    let refusal = new Error('Session Expired');
    const verify = async () => {
      throw refusal;
    };
    await openSignIn(() => `0x${'ab'.repeat(65)}`, false, { verify });
    fireEvent.click(screen.getByTestId('siwx-sign'));
    expect((await screen.findByTestId('siwx-error')).textContent).toBe(expiredText);
    refusal = new Error('unknown or already used nonce: ask for a new one');
    fireEvent.click(screen.getByTestId('siwx-sign'));
    await waitFor(() => expect(screen.getByTestId('siwx-error').textContent).toBe('The sign-in was refused. Try again.'));
    expect(screen.queryByTestId('siwx-error-hint')).toBeNull();
  });

  it('opens sign-in with "Session Expired" when the stored session has ended', async () => {
    const getSession: AuthenticationAdapter['getSession'] = async (account) => ({
      account,
      chainId: 'eip155:31337',
      message: 'signed earlier',
      signature: '0x',
      expiresAt: Date.now() - 1_000,
    });
    const latch = await openSignIn(() => `0x${'ab'.repeat(65)}`, false, { getSession });
    expect((await screen.findByTestId('siwx-error')).textContent).toBe(expiredText);
    expect(latch.siwx.store.getState()).toMatchObject({ status: 'unauthenticated', error: 'sessionExpired' });
  });

  it('speaks the expiry in the chosen locale', async () => {
    const verify = async () => {
      throw new HttpError(401, 'Session Expired', 'SESSION_EXPIRED');
    };
    stubGateway();
    const latch = createTestLatch({ siwx: { adapter: adapter({ verify }) }, locale: 'de' });
    await openConnectView(createTestProvider({ personal_sign: () => `0x${'ab'.repeat(65)}` }), latch);
    chooseTestWallet();
    fireEvent.click(await screen.findByTestId('siwx-sign'));
    await waitFor(() =>
      expect(screen.getByTestId('siwx-error').textContent).toBe(
        'Sitzung abgelaufenPrüfen Sie, ob die Uhr Ihres Geräts richtig geht, und verbinden Sie sich erneut.',
      ),
    );
  });
});
