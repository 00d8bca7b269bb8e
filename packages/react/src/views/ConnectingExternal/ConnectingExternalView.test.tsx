import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ACCOUNT, createTestProvider, stubGateway } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';

// The wallet is an EIP-1193 test double (no browser wallet runs in jsdom) and `fetch` stands in
// for the Latch server's balance gateway; the end-to-end tests cover both for real.
describe('ConnectingExternalView', () => {
  it('waits for the wallet, then moves on to Account', async () => {
    stubGateway();
    let approve!: (accounts: string[]) => void;
    const approval = new Promise<string[]>((resolve) => (approve = resolve));
    await openConnectView(createTestProvider({ eth_requestAccounts: () => approval }));
    chooseTestWallet();

    const dialog = screen.getByRole('dialog', { name: 'Connecting' });
    expect(dialog.dataset.loading).toBe('true');
    expect(screen.getByText('Continue in Test Wallet to connect.')).toBeTruthy();
    expect(screen.getByTestId('connect-button').textContent).toBe('Connecting…');

    approve([ACCOUNT]);
    expect(await screen.findByRole('dialog', { name: 'Account' })).toBe(dialog);
    expect(dialog.dataset.loading).toBe('false');
  });

  it('shows a failure with a retry for errors other than a rejection', async () => {
    stubGateway();
    let attempts = 0;
    const failOnce = () => {
      if (attempts++ === 0) throw new Error('Wallet is locked');
      return [ACCOUNT];
    };
    await openConnectView(createTestProvider({ eth_requestAccounts: failOnce }));
    chooseTestWallet();
    expect((await screen.findByRole('alert')).textContent).toBe('The connection to Test Wallet failed.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('account-address')).textContent).toBe('0x70...dc79C8');
  });
});
