import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestLatch, createTestProvider, installWallet, stubGateway } from '../../test/fixtures.js';
import { LatchEmbedded, LatchProvider } from './LatchProvider.js';

// The wallet is an EIP-1193 test double and `fetch` stands in for the Latch server (jsdom has
// neither); the end-to-end tests cover both for real.
describe('LatchEmbedded', () => {
  it('shows the modal in the page, without backdrop or focus trap, and closing returns to Account', async () => {
    stubGateway();
    installWallet(createTestProvider());
    const latch = createTestLatch({ embedded: true });
    render(
      <LatchProvider latch={latch}>
        <main data-testid="page">
          <LatchEmbedded />
        </main>
      </LatchProvider>,
    );
    const region = await screen.findByRole('region', { name: 'Connect a wallet' });
    expect(screen.getByTestId('page').contains(region)).toBe(true);
    expect(screen.queryByTestId('latch-backdrop')).toBeNull();
    expect(region.contains(document.activeElement)).toBe(false);

    fireEvent.click(screen.getByTestId('wallet-selector-dev.latch.testwallet'));
    await screen.findByTestId('account-address');
    fireEvent.click(screen.getByTestId('account-network'));
    expect(screen.getByRole('region', { name: 'Choose network' })).toBeTruthy();
    fireEvent.click(screen.getByTestId('modal-close'));
    expect(screen.getByRole('region', { name: 'Account' })).toBeTruthy();
  });

  it('needs the embedded option', () => {
    const latch = createTestLatch();
    expect(() =>
      render(
        <LatchProvider latch={latch}>
          <LatchEmbedded />
        </LatchProvider>,
      ),
    ).toThrow('<LatchEmbedded /> needs createLatch({ embedded: true })');
  });

  it('with disableAppend, renders the modal where LatchProvider is rather than in document.body', async () => {
    const latch = createTestLatch({ disableAppend: true });
    const { container } = render(<LatchProvider latch={latch} />);
    latch.modal.open();
    const dialog = await screen.findByRole('dialog', { name: 'Connect a wallet' });
    expect(container.contains(dialog)).toBe(true);
  });
});
