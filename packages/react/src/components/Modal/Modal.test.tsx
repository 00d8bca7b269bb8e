import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestLatch, createTestProvider, installWallet } from '../../test/fixtures.js';
import { clickOpen, renderWithLatch } from '../../test/render.js';

// The listed wallet is an EIP-1193 test double: no browser wallet runs in jsdom.
describe('Modal', () => {
  async function openModal(latch = createTestLatch()) {
    renderWithLatch(latch);
    const opener = screen.getByTestId('connect-button');
    opener.focus();
    return { latch, opener, dialog: await clickOpen() };
  }

  it('is a modal dialog labelled by its header title, rendered into the body', async () => {
    const { dialog } = await openModal();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.dataset).toMatchObject({ testid: 'latch-modal', state: 'open' });
    expect(screen.getByRole('dialog', { name: 'Connect a wallet' })).toBe(dialog);
    expect(dialog.closest('.latch-root')?.parentElement).toBe(document.body);
  });

  it('applies the theme variables on its root', async () => {
    const { dialog } = await openModal(createTestLatch({ themeVariables: { '--latch-accent': '#ff7a00' } }));
    const root = dialog.closest<HTMLElement>('.latch-root')!;
    expect(root.style.getPropertyValue('--latch-modal-width')).toBe('360px');
    expect(root.style.getPropertyValue('--latch-color-background')).toBe('#121313');
    expect(root.style.getPropertyValue('--latch-accent')).toBe('#ff7a00');
    expect(root.dataset.theme).toBe('dark');
  });

  it('uses the light backgrounds in light mode', async () => {
    const { dialog } = await openModal(createTestLatch({ themeMode: 'light' }));
    const root = dialog.closest<HTMLElement>('.latch-root')!;
    expect(root.style.getPropertyValue('--latch-color-background')).toBe('#ffffff');
  });

  it('closes on Escape even when focus has dropped to the page', async () => {
    const { latch } = await openModal();
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(latch.modal.store.getState().open).toBe(false);
  });

  it('moves focus inside on open and back to the opener when Escape closes it', async () => {
    const { dialog, opener } = await openModal();
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes on a backdrop click', async () => {
    await openModal();
    fireEvent.click(screen.getByTestId('latch-backdrop'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('traps Tab and Shift+Tab inside the dialog', async () => {
    installWallet(createTestProvider());
    await openModal();
    const close = screen.getByTestId('modal-close');
    // The last control of the Connect view: the entry to the whole wallet catalogue.
    const last = screen.getByTestId('all-wallets');

    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(close);

    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });
});
