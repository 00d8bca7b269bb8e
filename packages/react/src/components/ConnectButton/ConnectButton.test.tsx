import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createTestLatch, stubGateway } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView, renderWithLatch } from '../../test/render.js';
import { ConnectButton } from './ConnectButton.js';

// Wallets are EIP-1193 test doubles (no browser wallet runs in jsdom) and `fetch` is stubbed in
// place of the Latch server's balance gateway; the end-to-end tests cover both for real.
describe('ConnectButton', () => {
  it('says "Connect Wallet" and opens the Connect view', async () => {
    renderWithLatch(createTestLatch());
    const button = screen.getByTestId('connect-button');
    expect(button.textContent).toBe('Connect Wallet');
    fireEvent.click(button);
    // Behaviour 1.4: the modal opens once the wallets' images are in (or after 2 s); the button says it is busy.
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(await screen.findByRole('dialog', { name: 'Connect a wallet' })).toBeTruthy();
    expect(button.getAttribute('aria-busy')).toBe('false');
  });

  it('shows the truncated address once connected, and opens Account when clicked', async () => {
    stubGateway();
    await openConnectView();
    chooseTestWallet();
    await screen.findByTestId('account-address');
    fireEvent.click(screen.getByTestId('modal-close'));

    const button = screen.getByTestId('connect-button');
    expect(button.textContent).toBe('0x70...dc79C8');
    fireEvent.click(button);
    expect(screen.getByRole('dialog', { name: 'Account' })).toBeTruthy();
  });

  it('uses the configured locale and message overrides', async () => {
    renderWithLatch(createTestLatch({ locale: 'de', messages: { connectTitle: 'Wallet wählen' } }));
    // German arrives in its own chunk; the button switches when it has.
    await waitFor(() => expect(screen.getByTestId('connect-button').textContent).toBe('Wallet verbinden'));
    fireEvent.click(screen.getByTestId('connect-button'));
    expect(await screen.findByRole('dialog', { name: 'Wallet wählen' })).toBeTruthy();
  });

  it('follows the browser language by default and a switch at runtime', async () => {
    const languages = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-AT', 'en']);
    const latch = createTestLatch();
    languages.mockRestore();
    renderWithLatch(latch);
    await waitFor(() => expect(screen.getByTestId('connect-button').textContent).toBe('Wallet verbinden'));
    await act(() => latch.setLocale('en'));
    expect(screen.getByTestId('connect-button').textContent).toBe('Connect Wallet');
  });

  it('marks the button and the modal with the language they speak', async () => {
    const latch = createTestLatch({ locale: 'ja' });
    renderWithLatch(latch);
    const button = screen.getByTestId('connect-button');
    await waitFor(() => expect(button.textContent).toBe('ウォレットを接続'));
    expect(button.getAttribute('lang')).toBe('ja');
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'ウォレットを接続' });
    expect(dialog.closest('[lang]')?.getAttribute('lang')).toBe('ja');
    await act(() => latch.setLocale('zh-CN'));
    expect(button.getAttribute('lang')).toBe('zh-CN');
    expect(screen.getByRole('dialog', { name: '连接钱包' }).closest('[lang]')?.getAttribute('lang')).toBe('zh-CN');
  });

  it('hands its state to a custom render prop', async () => {
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
    expect(await screen.findByRole('button', { name: 'disconnected open' })).toBe(button);
  });
});
