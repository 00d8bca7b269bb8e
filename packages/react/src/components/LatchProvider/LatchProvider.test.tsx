import { act, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { catalogueServer, testCatalogue } from '../../test/catalogue.js';
import { createTestLatch, createTestProvider, installWallet, stubGateway } from '../../test/fixtures.js';
import { ConnectButton } from '../ConnectButton/ConnectButton.js';
import { LatchProvider } from './LatchProvider.js';

describe('LatchProvider', () => {
  it('renders the component styles once, using only --latch- variables', () => {
    render(
      <LatchProvider latch={createTestLatch()}>
        <ConnectButton />
        <ConnectButton />
      </LatchProvider>,
    );
    const styles = document.querySelectorAll('style[data-latch-styles]');
    expect(styles).toHaveLength(1);
    const variables = styles[0]!.textContent!.match(/var\(--[\w-]+/g) ?? [];
    expect(variables.length).toBeGreaterThan(0);
    expect(variables.filter((variable) => !variable.startsWith('var(--latch-'))).toEqual([]);
  });

  it('renders on the server without the modal, even when open', () => {
    const latch = createTestLatch();
    latch.modal.open();
    const html = renderToString(
      <LatchProvider latch={latch}>
        <ConnectButton />
      </LatchProvider>,
    );
    expect(html).toContain('Connect Wallet');
    expect(html).not.toContain('role="dialog"');
  });

  it('discovers wallets while mounted only', () => {
    const latch = createTestLatch();
    const { unmount } = render(<LatchProvider latch={latch} />);
    installWallet(createTestProvider());
    expect(latch.connection.getState().connectors).toHaveLength(1);
    unmount();
    installWallet(createTestProvider(), { uuid: 'later', name: 'Later', icon: '', rdns: 'dev.later' });
    expect(latch.connection.getState().connectors).toHaveLength(1);
  });

  it('loads the modal on its first opening, then shows it', async () => {
    // A fresh module graph: the modal's chunk is not loaded yet (test/setup.ts loaded the other one).
    vi.resetModules();
    const { LatchProvider: FreshProvider } = await import('./LatchProvider.js');
    const latch = createTestLatch();
    latch.modal.open();
    render(<FreshProvider latch={latch} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(document.querySelectorAll('style[data-latch-modal-styles]')).toHaveLength(1);
  });

  it('while the page is idle, gets what the Connect view opens with and renders it unseen; the first opening shows that tree', async () => {
    const server = catalogueServer(testCatalogue());
    stubGateway(undefined, { wallets: server.respond });
    const latch = createTestLatch();
    const load = vi.spyOn(latch.walletList, 'load');
    render(
      <LatchProvider latch={latch}>
        <ConnectButton />
      </LatchProvider>,
    );
    const opener = screen.getByTestId('connect-button');
    opener.focus();
    await vi.waitFor(() => expect(document.querySelector('[data-testid="latch-modal"]')).not.toBeNull(), { timeout: 3000 });
    expect(load).toHaveBeenCalled();
    expect(server.requests.length).toBeGreaterThan(0);
    expect(latch.walletList.store.getState().status).toBe('ready');
    // Unseen and out of reach: inert, hidden from assistive technology, focus where it was, still closed.
    const standby = document.querySelector<HTMLElement>('[data-testid="latch-modal"]')!;
    const root = standby.closest<HTMLElement>('.latch-root')!;
    expect(root.dataset.standby).toBe('true');
    expect(root.hasAttribute('inert')).toBe(true);
    expect(root.getAttribute('aria-hidden')).toBe('true');
    expect(standby.dataset.state).toBe('standby');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(latch.modal.store.getState().open).toBe(false);

    // The opening shows the same elements, now reachable, and takes focus inside.
    fireEvent.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Connect a wallet' });
    expect(dialog).toBe(standby);
    expect(dialog.dataset.state).toBe('open');
    expect(root.hasAttribute('inert')).toBe(false);
    expect(root.hasAttribute('aria-hidden')).toBe(false);
    expect(dialog.contains(document.activeElement)).toBe(true);
    // Closed, it is gone (the standby is for the first opening only) and focus is back on the button.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(document.querySelector('[data-testid="latch-modal"]')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('ends the standby when the visitor connects (the modal then opens on Account)', async () => {
    stubGateway(undefined, { wallets: catalogueServer(testCatalogue()).respond });
    const latch = createTestLatch();
    render(<LatchProvider latch={latch} />);
    await vi.waitFor(() => expect(document.querySelector('[data-testid="latch-modal"]')).not.toBeNull(), { timeout: 3000 });
    act(() => latch.connection.setState({ status: 'connected' }));
    expect(document.querySelector('[data-testid="latch-modal"]')).toBeNull();
  });

  it('while the page is idle, a connected visitor gets no wallet lists (the modal opens on Account)', async () => {
    const latch = createTestLatch();
    const load = vi.spyOn(latch.walletList, 'load');
    latch.connection.setState({ status: 'connected' });
    render(<LatchProvider latch={latch} />);
    await latch.localeReady();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(load).not.toHaveBeenCalled();
  });
});
