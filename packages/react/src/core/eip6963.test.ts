import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestLatch, createTestProvider, installWallet, testWalletInfo } from '../test/fixtures.js';
import { LEGACY_INJECTED_WAIT_MS, watchAnnouncedWallets, watchLegacyInjected } from './eip6963.js';

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

describe('a legacy window.ethereum (no EIP-6963)', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    cleanups.splice(0).forEach((cleanup) => cleanup());
    delete (window as { ethereum?: unknown }).ethereum;
    vi.useRealTimers();
  });
  const setEthereum = (provider: unknown) => Object.assign(window, { ethereum: provider });

  it('is offered as the browser wallet once announcing wallets had their turn', () => {
    vi.useFakeTimers();
    const provider = createTestProvider();
    setEthereum(provider);
    const onConnector = vi.fn();
    cleanups.push(watchLegacyInjected(window, { name: 'Browser Wallet', isAnnounced: () => false, onConnector }));
    expect(onConnector).not.toHaveBeenCalled();
    vi.advanceTimersByTime(LEGACY_INJECTED_WAIT_MS);
    expect(onConnector).toHaveBeenCalledWith({
      id: 'injected',
      type: 'INJECTED',
      name: 'Browser Wallet',
      imageUrl: '',
      rdns: '',
      provider,
    });
  });

  it('is not offered when there is none, when it is not EIP-1193, or when an announced wallet owns it', () => {
    vi.useFakeTimers();
    const onConnector = vi.fn();
    cleanups.push(watchLegacyInjected(window, { name: 'Browser Wallet', isAnnounced: () => false, onConnector }));
    vi.advanceTimersByTime(LEGACY_INJECTED_WAIT_MS);
    setEthereum({ request: 'not a function' });
    cleanups.push(watchLegacyInjected(window, { name: 'Browser Wallet', isAnnounced: () => false, onConnector }));
    vi.advanceTimersByTime(LEGACY_INJECTED_WAIT_MS);
    setEthereum(createTestProvider());
    cleanups.push(watchLegacyInjected(window, { name: 'Browser Wallet', isAnnounced: () => true, onConnector }));
    vi.advanceTimersByTime(LEGACY_INJECTED_WAIT_MS);
    expect(onConnector).not.toHaveBeenCalled();
  });

  it('shows in the Latch wallet list beside announcing wallets, and not twice when one of them owns it', () => {
    vi.useFakeTimers();
    const announced = createTestProvider();
    installWallet(announced);
    setEthereum(announced);
    const shared = createTestLatch();
    cleanups.push(shared.mount(window));
    vi.advanceTimersByTime(LEGACY_INJECTED_WAIT_MS);
    expect(shared.connection.getState().connectors.map(({ type }) => type)).toEqual(['ANNOUNCED']);

    setEthereum(createTestProvider());
    const legacy = createTestLatch();
    cleanups.push(legacy.mount(window));
    vi.advanceTimersByTime(LEGACY_INJECTED_WAIT_MS);
    expect(legacy.connection.getState().connectors.map(({ type, name }) => [type, name])).toEqual([
      ['ANNOUNCED', 'Test Wallet'],
      ['INJECTED', 'Browser Wallet'],
    ]);
  });
});
