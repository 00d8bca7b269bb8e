import { render, screen } from '@testing-library/react';
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

  it('while the page is idle, gets what the Connect view opens with and renders it once, unseen', async () => {
    const server = catalogueServer(testCatalogue());
    stubGateway(undefined, { wallets: server.respond });
    const latch = createTestLatch();
    const load = vi.spyOn(latch.walletList, 'load');
    // Where each copy of the modal was added: its container, hidden or not.
    const added: boolean[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLElement && node.querySelector('[data-testid="latch-modal"]'))
            added.push((record.target as HTMLElement).hidden);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const button = document.body.appendChild(document.createElement('button'));
    button.focus();
    render(<LatchProvider latch={latch} />);
    await vi.waitFor(() => expect(added).toHaveLength(1), { timeout: 3000 });
    observer.disconnect();
    expect(load).toHaveBeenCalled();
    expect(server.requests.length).toBeGreaterThan(0);
    expect(latch.walletList.store.getState().status).toBe('ready');
    // Rendered hidden and removed in the same task: nothing left, focus where it was, still closed.
    expect(added).toEqual([true]);
    expect(document.querySelector('[data-testid="latch-modal"]')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(latch.modal.store.getState().open).toBe(false);
    button.remove();
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
