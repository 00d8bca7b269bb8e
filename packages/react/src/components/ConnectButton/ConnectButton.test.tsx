import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestLatch, stubGateway } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView, renderWithLatch } from '../../test/render.js';
import { ConnectButton } from './ConnectButton.js';

// Wallets are EIP-1193 test doubles (no browser wallet runs in jsdom) and `fetch` is stubbed in
// place of the Latch server's balance gateway; the end-to-end tests cover both for real.
describe('ConnectButton', () => {
  it('says "Connect Wallet" and opens the Connect view', () => {
    renderWithLatch(createTestLatch());
    const button = screen.getByTestId('connect-button');
    expect(button.textContent).toBe('Connect Wallet');
    fireEvent.click(button);
    expect(screen.getByRole('dialog', { name: 'Connect a wallet' })).toBeTruthy();
  });

  it('shows the truncated address once connected, and opens Account when clicked', async () => {
    stubGateway();
    openConnectView();
    chooseTestWallet();
    await screen.findByTestId('account-address');
    fireEvent.click(screen.getByTestId('modal-close'));

    const button = screen.getByTestId('connect-button');
    expect(button.textContent).toBe('0x70...dc79C8');
    fireEvent.click(button);
    expect(screen.getByRole('dialog', { name: 'Account' })).toBeTruthy();
  });

  it('uses the configured locale and message overrides', () => {
    renderWithLatch(createTestLatch({ locale: 'de', messages: { connectTitle: 'Wallet wählen' } }));
    fireEvent.click(screen.getByTestId('connect-button'));
    expect(screen.getByTestId('connect-button').textContent).toBe('Wallet verbinden');
    expect(screen.getByRole('dialog', { name: 'Wallet wählen' })).toBeTruthy();
  });

  it('hands its state to a custom render prop', () => {
    renderWithLatch(
      createTestLatch(),
      <ConnectButton.Custom>
        {({ status, isOpen, open }) => (
          <button type="button" onClick={open}>
            {status} {isOpen ? 'open' : 'closed'}
          </button>
        )}
      </ConnectButton.Custom>,
    );
    const button = screen.getByRole('button', { name: 'disconnected closed' });
    fireEvent.click(button);
    expect(button.textContent).toBe('disconnected open');
  });
});
