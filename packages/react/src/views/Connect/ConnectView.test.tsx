import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestLatch, createTestProvider, testWalletInfo, userRejection } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView, renderWithLatch } from '../../test/render.js';

// Wallets are EIP-1193 test doubles announced through real EIP-6963 events: no browser wallet
// runs in jsdom. The end-to-end tests cover a real injected wallet.
describe('ConnectView', () => {
  it('lists the announced wallets as buttons with icon and name', () => {
    openConnectView();
    const wallet = screen.getByTestId('wallet-selector-dev.latch.testwallet');
    expect(within(wallet).getByRole('img', { name: 'Test Wallet' }).getAttribute('src')).toBe(testWalletInfo.icon);
    expect(wallet.textContent).toBe('Test Wallet');
    expect(screen.getByRole('button', { name: 'Test Wallet' })).toBe(wallet);
  });

  it('says so when no browser wallet announced itself', () => {
    renderWithLatch(createTestLatch());
    fireEvent.click(screen.getByTestId('connect-button'));
    expect(screen.getByTestId('no-wallets').textContent).toBe(
      'No browser wallet was found. Install one, then reload this page.',
    );
  });

  it('comes back with the rejection when the user declines in the wallet (4001)', async () => {
    openConnectView(createTestProvider({ eth_requestAccounts: userRejection }));
    chooseTestWallet();
    expect((await screen.findByRole('alert')).textContent).toBe('The connection request was rejected.');
    expect(screen.getByRole('dialog', { name: 'Connect a wallet' })).toBeTruthy();
    expect(screen.getByTestId('connect-button').textContent).toBe('Connect Wallet');
  });
});
