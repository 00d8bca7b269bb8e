import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createTestLatch, createTestProvider, stubGateway, userRejection } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';
import type { AuthenticationAdapter } from '../../core/siwx.js';

/**
 * A host's own sign-in backend in memory (the adapter is the boundary a host implements); the
 * Latch server's adapter is covered end to end. The wallet is an EIP-1193 test double.
 */
function adapter(): AuthenticationAdapter {
  return {
    getNonce: async () => 'nonce1234',
    createMessage: ({ domain, address }) => `${domain} wants you to sign in with ${address}`,
    verify: async ({ account, message, signature }) => ({ account, chainId: 'eip155:31337', message, signature }),
    getSession: async () => null,
    signOut: vi.fn(async () => undefined),
  };
}

async function openSignIn(personalSign: () => unknown, required = false) {
  stubGateway();
  const latch = createTestLatch({ siwx: { adapter: adapter(), required } });
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
});
