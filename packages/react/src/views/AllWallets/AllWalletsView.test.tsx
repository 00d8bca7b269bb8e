import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { catalogueServer, testCatalogue } from '../../test/catalogue.js';
import { createTestLatch, createTestProvider, installWallet, stubGateway } from '../../test/fixtures.js';
import { clickOpen, renderWithLatch } from '../../test/render.js';
import { WALLET_ROW_HEIGHT } from './AllWalletsView.js';

// `fetch` stands in for the Latch server's `/getWallets` (unit tests have no server) and the
// wallet is an EIP-1193 test double; the end-to-end tests scroll, search and connect for real.
async function openAllWallets(options: Parameters<typeof createTestLatch>[0] = {}) {
  const server = catalogueServer(testCatalogue());
  stubGateway(undefined, { wallets: server.respond });
  installWallet(createTestProvider());
  const latch = createTestLatch(options);
  renderWithLatch(latch);
  await clickOpen();
  fireEvent.click(screen.getByTestId('all-wallets'));
  return { server, latch };
}

const list = () => screen.getByRole('list', { name: 'All wallets' });
const rows = () => within(list()).getAllByRole('listitem');

describe('AllWalletsView', () => {
  it('says it is loading, then renders only the rows in view of the first page of 40', async () => {
    await openAllWallets();
    expect(screen.getByTestId('all-wallets-status').textContent).toBe('Loading wallets…');
    await screen.findByTestId('all-wallets-list');
    // 6.5 rows in view plus 4 beyond the edge: 12 of 40 in the DOM.
    expect(rows()).toHaveLength(12);
    expect(rows()[0]!.getAttribute('aria-setsize')).toBe('40');
    expect(rows()[11]!.getAttribute('aria-posinset')).toBe('12');
  });

  it('reads the next page when scrolled near the end, and keeps the window small', async () => {
    const { server } = await openAllWallets();
    const scroller = await screen.findByTestId('all-wallets-list');
    scroller.scrollTop = 30 * WALLET_ROW_HEIGHT;
    fireEvent.scroll(scroller);
    // Rows 26 to 41 are rendered: the first of page 2 among them.
    await screen.findByTestId('all-wallets-item-wallet-40');
    const pages = server.requests.filter((query) => query.get('entries') === '40').map((query) => query.get('page'));
    expect(pages).toEqual(['1', '2']);
    expect(rows()[0]!.getAttribute('aria-setsize')).toBe('80');
    expect(rows().length).toBeLessThanOrEqual(16);
    expect(screen.queryByTestId('all-wallets-item-wallet-0')).toBeNull();
  });

  it('marks the installed wallet and connects it directly', async () => {
    await openAllWallets();
    const installed = await screen.findByTestId('all-wallets-item-test-wallet');
    expect(installed.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Test Wallet', description: 'Installed' })).toBe(installed);
    fireEvent.click(installed);
    expect(screen.getByRole('dialog', { name: 'Connecting' })).toBeTruthy();
  });

  it('opens the page of a wallet that is not installed (WalletConnect off)', async () => {
    await openAllWallets({ enableWalletConnect: false });
    fireEvent.click(await screen.findByTestId('all-wallets-item-wallet-3'));
    expect(screen.getByRole('dialog', { name: 'Get a wallet' }).textContent).toContain('Wallet 3');
  });

  it('searches after the debounce, announces the count, and says when nothing matches', async () => {
    const { server } = await openAllWallets();
    await screen.findByTestId('all-wallets-list');
    const search = screen.getByRole('searchbox', { name: 'Search wallets' });
    fireEvent.change(search, { target: { value: 'wallet 2' } });
    expect(screen.getByTestId('all-wallets-status').textContent).toBe('Searching…');
    expect(await screen.findByText('11 wallets found')).toBeTruthy();
    expect(rows().map((row) => row.textContent)).toEqual(
      ['Wallet 2', ...Array.from({ length: 10 }, (_, i) => `Wallet ${20 + i}`)].slice(0, 11),
    );
    expect(server.requests.filter((query) => query.has('search'))).toHaveLength(1);

    fireEvent.change(search, { target: { value: 'wallet 30' } });
    expect(await screen.findByText('1 wallet found')).toBeTruthy();

    fireEvent.change(search, { target: { value: 'zzz' } });
    expect(await screen.findByText('No wallet matches “zzz”.')).toBeTruthy();
    expect(screen.queryByTestId('all-wallets-list')).toBeNull();

    fireEvent.change(search, { target: { value: '' } });
    expect(rows()[0]!.getAttribute('aria-setsize')).toBe('40');
  });

  it('moves focus with the arrow keys, Home and End, rendering the rows it reaches', async () => {
    await openAllWallets();
    await screen.findByTestId('all-wallets-list');
    const first = screen.getByTestId('all-wallets-item-wallet-0');
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByTestId('all-wallets-item-wallet-1'));
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(screen.getByTestId('all-wallets-item-wallet-39'));
    expect(screen.getByTestId('all-wallets-list').scrollTop).toBe(40 * WALLET_ROW_HEIGHT - WALLET_ROW_HEIGHT * 6.5);
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    // The first row left the DOM at End; Home renders it again and focuses it.
    expect(first.isConnected).toBe(false);
    expect(document.activeElement).toBe(screen.getByTestId('all-wallets-item-wallet-0'));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(screen.getByTestId('all-wallets-item-wallet-0'));
  });

  it('keeps the focused row in the DOM while it is scrolled out of view', async () => {
    await openAllWallets();
    const scroller = await screen.findByTestId('all-wallets-list');
    const first = screen.getByTestId('all-wallets-item-wallet-0');
    first.focus();
    scroller.scrollTop = 25 * WALLET_ROW_HEIGHT;
    fireEvent.scroll(scroller);
    expect(first.isConnected).toBe(true);
    expect(document.activeElement).toBe(first);
    expect(screen.queryByTestId('all-wallets-item-wallet-5')).toBeNull();
  });

  it('offers a retry when a page fails', async () => {
    const server = catalogueServer(testCatalogue());
    server.fail(503);
    stubGateway(undefined, { wallets: server.respond });
    renderWithLatch(createTestLatch());
    await clickOpen();
    fireEvent.click(screen.getByTestId('all-wallets'));
    expect(await screen.findByText('The wallet list could not be loaded.')).toBeTruthy();
    server.fail(undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('all-wallets-list')).toBeTruthy();
  });
});
