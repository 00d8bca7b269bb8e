import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../core/storage.js';
import { catalogueServer, catalogueWallet, testCatalogue } from '../../test/catalogue.js';
import {
  createTestLatch,
  createTestProvider,
  stubGateway,
  testWalletInfo,
  userRejection,
} from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView, renderWithLatch } from '../../test/render.js';

// Wallets are EIP-1193 test doubles announced through real EIP-6963 events: no browser wallet
// runs in jsdom. The end-to-end tests cover a real injected wallet.
describe('ConnectView', () => {
  it('lists the announced wallets as buttons with icon and name', async () => {
    await openConnectView();
    const wallet = screen.getByTestId('wallet-selector-dev.latch.testwallet');
    expect(within(wallet).getByRole('img', { name: 'Test Wallet' }).getAttribute('src')).toBe(testWalletInfo.icon);
    expect(wallet.textContent).toBe('Test WalletInstalled');
    expect(screen.getByRole('button', { name: 'Test Wallet', description: 'Installed' })).toBe(wallet);
  });

  it('says so when no browser wallet announced itself', async () => {
    renderWithLatch(createTestLatch());
    fireEvent.click(screen.getByTestId('connect-button'));
    expect((await screen.findByTestId('no-wallets')).textContent).toBe(
      'No browser wallet was found. Install one, then reload this page.',
    );
  });

  it('comes back with the rejection when the user declines in the wallet (4001)', async () => {
    await openConnectView(createTestProvider({ eth_requestAccounts: userRejection }));
    chooseTestWallet();
    expect((await screen.findByRole('alert')).textContent).toBe('The connection request was rejected.');
    expect(screen.getByRole('dialog', { name: 'Connect a wallet' })).toBeTruthy();
    expect(screen.getByTestId('connect-button').textContent).toBe('Connect Wallet');
  });
});

// `fetch` stands in for the Latch server's `/getWallets` (unit tests have no server); the
// end-to-end tests read the real seed catalogue through `latch serve`.
describe('ConnectView with the wallet catalogue', () => {
  async function openWithCatalogue(options: Parameters<typeof createTestLatch>[0] = {}) {
    const server = catalogueServer(testCatalogue());
    stubGateway(undefined, { wallets: server.respond });
    await openConnectView(createTestProvider(), createTestLatch(options));
    return server;
  }

  const rows = () =>
    within(screen.getByRole('list', { name: 'Wallets' }))
      .getAllByRole('listitem')
      .map((row) => `${row.dataset.group ?? '-'}:${row.textContent}`);

  it('lists the installed wallet, then featured and recommended from the server, then All wallets', async () => {
    await openWithCatalogue({ featuredWalletIds: ['wallet-12', 'wallet-11'] });
    await screen.findByTestId('wallet-selector-wallet-12');
    expect(rows()).toEqual([
      'walletConnect:WalletConnectQR code',
      'injected:Test WalletInstalled',
      'featured:Wallet 12',
      'featured:Wallet 11',
      'recommended:Wallet 0',
      'recommended:Wallet 1',
      'recommended:Wallet 2',
      'recommended:Wallet 3',
      '-:All wallets90+',
    ]);
    expect(within(screen.getByTestId('wallet-selector-wallet-12')).getByRole('img').getAttribute('src')).toBe(
      'http://latch.test/getWalletImage/wallet-12?projectId=test-project&st=latch-react&sv=0.1.0',
    );
    expect(screen.queryByTestId('no-wallets')).toBeNull();
  });

  it('shows the installed wallet once although the catalogue recommends it (same rdns)', async () => {
    await openWithCatalogue({ featuredWalletIds: ['test-wallet', 'wallet-1'] });
    await screen.findByTestId('wallet-selector-wallet-1');
    expect(screen.queryByTestId('wallet-selector-test-wallet')).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Test Wallet' })).toHaveLength(1);
  });

  it('shows the wallet connected last first, tagged Recent', async () => {
    const server = catalogueServer(testCatalogue());
    stubGateway(undefined, { wallets: server.respond });
    localStorage.setItem(
      STORAGE_KEYS.recentWallets,
      JSON.stringify([{ name: 'Wallet 5', wallet: { id: 'wallet-5', name: 'Wallet 5', image_id: 'wallet-5' } }]),
    );
    await openConnectView();
    await screen.findByTestId('wallet-selector-wallet-5');
    expect(rows().slice(0, 3)).toEqual([
      'walletConnect:WalletConnectQR code',
      'recent:Wallet 5Recent',
      'injected:Test WalletInstalled',
    ]);
  });

  it('opens the page of a catalogue wallet with its links and why it cannot pair when WalletConnect is off', async () => {
    await openWithCatalogue({ enableWalletConnect: false });
    fireEvent.click(await screen.findByTestId('wallet-selector-wallet-1'));
    const page = screen.getByRole('dialog', { name: 'Get a wallet' });
    expect(screen.getByTestId('walletconnect-unavailable').textContent).toBe(
      'Wallet 1 connects through WalletConnect, which this site has switched off.',
    );
    const links = within(within(page).getByRole('list', { name: 'Get Wallet 1' })).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('target')])).toEqual([
      ['Chrome Web Store (opens in a new tab)', 'https://chrome.example/wallet-1', '_blank'],
      ['App Store (opens in a new tab)', 'https://apps.example/wallet-1', '_blank'],
      ['Website (opens in a new tab)', 'https://wallet-1.example/', '_blank'],
    ]);
    expect(links.every((link) => link.getAttribute('rel') === 'noopener noreferrer')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('dialog', { name: 'Connect a wallet' })).toBeTruthy();
  });

  it('never turns a catalogue link into anything but a web link', async () => {
    const server = catalogueServer([
      catalogueWallet('odd', 'Odd Wallet', { homepage: 'javascript:alert(1)', app_store: 'not a url' }),
    ]);
    stubGateway(undefined, { wallets: server.respond });
    await openConnectView(createTestProvider(), createTestLatch({ enableWalletConnect: false }));
    fireEvent.click(await screen.findByTestId('wallet-selector-odd'));
    expect(screen.queryAllByRole('link')).toEqual([]);
    expect(screen.getByText('The catalogue lists no download for Odd Wallet.')).toBeTruthy();
  });

  it('starts loading the WalletConnect engine when a row that pairs is pointed at or focused', async () => {
    const latch = createTestLatch();
    // Only which rows call it is checked here: the real preload fetches the wasm engine, which jsdom
    // cannot run (core/walletConnect.test.ts covers what it does; Playwright runs it for real).
    const preload = vi.spyOn(latch.walletConnect!, 'preload').mockImplementation(() => undefined);
    stubGateway(undefined, { wallets: catalogueServer(testCatalogue()).respond });
    await openConnectView(createTestProvider(), latch);
    fireEvent.pointerEnter(screen.getByTestId('wallet-selector-walletconnect'));
    expect(preload).toHaveBeenCalledTimes(1);
    // A catalogue wallet pairs over WalletConnect too.
    fireEvent.focus(await screen.findByTestId('wallet-selector-wallet-0'));
    expect(preload).toHaveBeenCalledTimes(2);
    // The installed wallet does not.
    fireEvent.pointerEnter(screen.getByTestId('wallet-selector-dev.latch.testwallet'));
    expect(preload).toHaveBeenCalledTimes(2);
  });

  it('opens AllWallets from the All wallets entry, reporting CLICK_ALL_WALLETS', async () => {
    const seen: string[] = [];
    await openWithCatalogue({ onEvent: (event) => seen.push(event.type) });
    fireEvent.click(screen.getByTestId('all-wallets'));
    expect(seen).toContain('CLICK_ALL_WALLETS');
    expect(screen.getByRole('dialog', { name: 'All wallets' })).toBeTruthy();
    expect(await screen.findByTestId('all-wallets-list')).toBeTruthy();
  });

  it('has no All wallets entry with the allWallets feature off (behaviour 7.9)', async () => {
    await openWithCatalogue({ features: { allWallets: false } });
    expect(await screen.findByTestId('wallet-selector-wallet-1')).toBeTruthy();
    expect(screen.queryByTestId('all-wallets')).toBeNull();
  });
});
