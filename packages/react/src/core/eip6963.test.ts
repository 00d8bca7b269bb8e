import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestLatch, createTestProvider, installWallet, testWalletInfo } from '../test/fixtures.js';
import { watchAnnouncedWallets } from './eip6963.js';

// The wallets here are EIP-1193 test doubles announced through real DOM events: no browser
// wallet runs in jsdom. The Playwright end-to-end tests cover a real injected wallet.
describe('EIP-6963 discovery', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  it('asks installed wallets to announce and maps them to connectors', () => {
    const provider = createTestProvider();
    installWallet(provider);
    const onConnector = vi.fn();
    cleanups.push(watchAnnouncedWallets(window, onConnector));
    expect(onConnector).toHaveBeenCalledWith({
      id: testWalletInfo.uuid,
      type: 'ANNOUNCED',
      name: 'Test Wallet',
      imageUrl: testWalletInfo.icon,
      rdns: 'dev.latch.testwallet',
      provider,
    });
  });

  it('hears wallets that announce after discovery started', () => {
    const onConnector = vi.fn();
    cleanups.push(watchAnnouncedWallets(window, onConnector));
    installWallet(createTestProvider());
    expect(onConnector).toHaveBeenCalledTimes(1);
  });

  it('ignores announcements without info or provider', () => {
    const onConnector = vi.fn();
    cleanups.push(watchAnnouncedWallets(window, onConnector));
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: testWalletInfo } }));
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider'));
    expect(onConnector).not.toHaveBeenCalled();
  });

  it('stops listening on cleanup', () => {
    const onConnector = vi.fn();
    watchAnnouncedWallets(window, onConnector)();
    installWallet(createTestProvider());
    expect(onConnector).not.toHaveBeenCalled();
  });

  it('lists each wallet once, by uuid or reverse-DNS id, across re-announcements', () => {
    const latch = createTestLatch();
    installWallet(createTestProvider());
    // The same extension injected twice (new uuid, same rdns) and a different wallet.
    installWallet(createTestProvider(), { ...testWalletInfo, uuid: 'second-uuid' });
    installWallet(createTestProvider(), { ...testWalletInfo, uuid: 'other', rdns: 'dev.other' });
    cleanups.push(latch.mount(window));
    // A remount (React StrictMode runs effects twice) makes every wallet announce again.
    latch.mount(window)();
    expect(latch.connection.getState().connectors.map(({ id }) => id)).toEqual([testWalletInfo.uuid, 'other']);
  });
});
