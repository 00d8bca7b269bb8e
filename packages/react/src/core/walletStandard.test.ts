import { init, solanaSignatureText, verifySolanaSignature } from '@latch/wasm/extra';
import { getWallets } from '@wallet-standard/app';
import { registerWallet } from '@wallet-standard/wallet';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestStandardWallet,
  registerStandardWallet,
  testSolanaKey,
} from '../test/standardWallet.js';
import { toBase58 } from '../test/base58.js';
import type { StandardWallet } from './types.js';
import { isSolanaWallet, LATCH_FORWARDER_FEATURE, watchStandardWallets } from './walletStandard.js';

type Wallet = Parameters<ReturnType<typeof getWallets>['register']>[0];

// The wallets here are Wallet Standard test doubles (no browser extension runs in jsdom), on the
// standard's real app side (@wallet-standard/app); the Playwright tests cover an injected wallet
// in Chromium. The app's registry lives as long as this file: each test registers its own wallets
// and looks for those.
describe('Wallet Standard discovery', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));
  const offered = (onConnector: ReturnType<typeof vi.fn>, wallet: object) =>
    onConnector.mock.calls.filter(([connector]) => connector.wallet === wallet).length;

  it('offers a wallet that registered before the app started watching', async () => {
    const wallet = createTestStandardWallet();
    registerStandardWallet(wallet);
    const onConnector = vi.fn();
    cleanups.push(watchStandardWallets(onConnector));
    await vi.dynamicImportSettled();
    expect(offered(onConnector, wallet)).toBe(1);
    expect(onConnector.mock.calls.find(([connector]) => connector.wallet === wallet)![0]).toMatchObject({
      id: 'wallet-standard:Test Solana Wallet',
      type: 'ANNOUNCED',
      namespace: 'solana',
      name: 'Test Solana Wallet',
      imageUrl: wallet.icon,
      rdns: '',
      wallet,
    });
  });

  it('offers a wallet registered later through @wallet-standard/wallet, once however often it registers', async () => {
    const onConnector = vi.fn();
    cleanups.push(watchStandardWallets(onConnector));
    await vi.dynamicImportSettled();
    const wallet = createTestStandardWallet({ name: 'Registered later' });
    registerWallet(wallet as unknown as Wallet);
    registerWallet(wallet as unknown as Wallet);
    expect(offered(onConnector, wallet)).toBe(1);
    // A second watcher (a second Latch on the page) is offered it too, once.
    const second = vi.fn();
    cleanups.push(watchStandardWallets(second));
    await vi.dynamicImportSettled();
    expect(offered(second, wallet)).toBe(1);
  });

  it('stops offering after cleanup, also before the app side has loaded', async () => {
    const onConnector = vi.fn();
    const early = createTestStandardWallet({ name: 'Before load' });
    registerStandardWallet(early);
    watchStandardWallets(onConnector)();
    await vi.dynamicImportSettled();
    expect(onConnector).not.toHaveBeenCalled();
    const stop = watchStandardWallets(onConnector);
    await vi.dynamicImportSettled();
    onConnector.mockClear();
    stop();
    const wallet = createTestStandardWallet({ name: 'After cleanup' });
    registerStandardWallet(wallet);
    expect(onConnector).not.toHaveBeenCalled();
  });

  it('ignores registrations that are not wallets', async () => {
    const onConnector = vi.fn();
    cleanups.push(watchStandardWallets(onConnector));
    await vi.dynamicImportSettled();
    const before = onConnector.mock.calls.length;
    getWallets().register(null as unknown as Wallet, 'text' as unknown as Wallet);
    expect(onConnector.mock.calls.length).toBe(before);
    const wallet = createTestStandardWallet({ name: 'After malformed' });
    registerStandardWallet(wallet);
    expect(offered(onConnector, wallet)).toBe(1);
  });

  it('offers only wallets with a solana chain, standard:connect and solana:signMessage', async () => {
    const onConnector = vi.fn();
    cleanups.push(watchStandardWallets(onConnector));
    await vi.dynamicImportSettled();
    const evmOnly = { ...createTestStandardWallet({ name: 'EVM only' }), chains: ['eip155:1'] };
    const noSign = createTestStandardWallet({ name: 'No sign', features: { 'solana:signMessage': undefined } });
    const noConnect = createTestStandardWallet({ name: 'No connect', features: { 'standard:connect': { version: '1.0.0' } } });
    // @latch/solana's "Latch" wallet forwards to the connected wallet: listing it would loop.
    const forwarder = createTestStandardWallet({ name: 'Latch', features: { [LATCH_FORWARDER_FEATURE]: { version: '1.0.0' } } });
    for (const wallet of [evmOnly, noSign, noConnect, forwarder]) registerStandardWallet(wallet);
    for (const wallet of [evmOnly, noSign, noConnect, forwarder]) expect(offered(onConnector, wallet)).toBe(0);
    expect(isSolanaWallet(createTestStandardWallet())).toBe(true);
    expect(isSolanaWallet({ name: '', chains: ['solana:mainnet'] } as unknown as StandardWallet)).toBe(false);
  });

  it('maps standard:disconnect to the connector, absent when the wallet lacks it', async () => {
    const onConnector = vi.fn();
    cleanups.push(watchStandardWallets(onConnector));
    await vi.dynamicImportSettled();
    const wallet = createTestStandardWallet({ name: 'With disconnect' });
    const without = createTestStandardWallet({ name: 'No disconnect', features: { 'standard:disconnect': undefined } });
    registerStandardWallet(wallet);
    registerStandardWallet(without);
    const connectorOf = (w: object) => onConnector.mock.calls.find(([connector]) => connector.wallet === w)![0];
    await connectorOf(wallet).disconnect();
    expect(wallet.disconnect).toHaveBeenCalledTimes(1);
    expect(connectorOf(without).disconnect).toBeUndefined();
  });
});

describe('base58 (the test double\'s keys) and signature text (@latch/wasm)', () => {
  beforeAll(() => init());

  it('encodes the known vectors (leading zero bytes are 1s)', () => {
    expect(toBase58(new Uint8Array(32))).toBe('11111111111111111111111111111111');
    expect(toBase58(new TextEncoder().encode('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U');
    expect(toBase58(new Uint8Array([0, 0, 0x28, 0x7f, 0xb4, 0xcd]))).toBe('11233QC4');
    expect(toBase58(new Uint8Array())).toBe('');
  });

  it('writes ed25519 signatures and keys that latch-core verifies', () => {
    const key = testSolanaKey(3);
    const message = 'example.com wants you to sign in with your Solana account';
    const signature = solanaSignatureText(key.sign(new TextEncoder().encode(message)));
    expect(verifySolanaSignature(message, signature, key.address)).toBe(true);
    expect(verifySolanaSignature(`${message}.`, signature, key.address)).toBe(false);
  });
});
