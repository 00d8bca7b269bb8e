import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { createTestLatch, createTestProvider, installWallet } from '../../test/fixtures.js';
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
});
