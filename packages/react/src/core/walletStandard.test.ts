import { init, solanaSignatureText, verifySolanaSignature } from '@latch/wasm/extra';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestStandardWallet,
  registerStandardWallet,
  testSolanaKey,
} from '../test/standardWallet.js';
import { toBase58 } from '../test/base58.js';
import type { StandardWallet } from './types.js';
import {
  APP_READY_EVENT,
  isSolanaWallet,
  LATCH_FORWARDER_FEATURE,
  REGISTER_WALLET_EVENT,
  watchStandardWallets,
  type WalletStandardApi,
} from './walletStandard.js';

// The wallets here are Wallet Standard test doubles registered through real DOM events (no
// browser extension runs in jsdom); the Playwright tests cover an injected wallet in Chromium.
describe('Wallet Standard discovery', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  it('registers a wallet loaded before the app when the app announces itself (app-ready)', () => {
    const wallet = createTestStandardWallet();
    registerStandardWallet(wallet);
    const onConnector = vi.fn();
    cleanups.push(watchStandardWallets(window, onConnector));
    expect(onConnector).toHaveBeenCalledTimes(1);
    expect(onConnector.mock.calls[0]![0]).toMatchObject({
      id: 'wallet-standard:Test Solana Wallet',
      type: 'ANNOUNCED',
      namespace: 'solana',
      name: 'Test Solana Wallet',
      imageUrl: wallet.icon,
      rdns: '',
      wallet,
    });
  });

  it('registers a wallet loaded after the app (register-wallet), once however often it registers', () => {
    const onConnector = vi.fn();
    cleanups.push(watchStandardWallets(window, onConnector));
    const wallet = createTestStandardWallet();
    registerStandardWallet(wallet);
    registerStandardWallet(wallet);
    window.dispatchEvent(new CustomEvent(APP_READY_EVENT, { detail: { register: () => () => undefined } }));
    expect(onConnector).toHaveBeenCalledTimes(1);
  });

  it('stops listening after cleanup', () => {
    const onConnector = vi.fn();
    watchStandardWallets(window, onConnector)();
    registerStandardWallet(createTestStandardWallet());
    expect(onConnector).not.toHaveBeenCalled();
  });

  it('ignores malformed registrations and keeps listening after a wallet callback throws', () => {
    const onConnector = vi.fn();
    cleanups.push(watchStandardWallets(window, onConnector));
    window.dispatchEvent(new CustomEvent(REGISTER_WALLET_EVENT, { detail: 'not a callback' }));
    window.dispatchEvent(
      new CustomEvent(REGISTER_WALLET_EVENT, {
        detail: () => {
          throw new Error('broken wallet');
        },
      }),
    );
    window.dispatchEvent(
      new CustomEvent(REGISTER_WALLET_EVENT, {
        detail: ({ register }: WalletStandardApi) => register(null as unknown as StandardWallet),
      }),
    );
    registerStandardWallet(createTestStandardWallet());
    expect(onConnector).toHaveBeenCalledTimes(1);
  });

  it('offers only wallets with a solana chain, standard:connect and solana:signMessage', () => {
    const onConnector = vi.fn();
    cleanups.push(watchStandardWallets(window, onConnector));
    const evmOnly = { ...createTestStandardWallet({ name: 'EVM only' }), chains: ['eip155:1'] };
    const noSign = createTestStandardWallet({ name: 'No sign', features: { 'solana:signMessage': undefined } });
    const noConnect = createTestStandardWallet({ name: 'No connect', features: { 'standard:connect': { version: '1.0.0' } } });
    // @latch/solana's "Latch" wallet forwards to the connected wallet: listing it would loop.
    const forwarder = createTestStandardWallet({ name: 'Latch', features: { [LATCH_FORWARDER_FEATURE]: { version: '1.0.0' } } });
    for (const wallet of [evmOnly, noSign, noConnect, forwarder]) registerStandardWallet(wallet);
    expect(onConnector).not.toHaveBeenCalled();
    expect(isSolanaWallet(createTestStandardWallet())).toBe(true);
    expect(isSolanaWallet({ name: '', chains: ['solana:mainnet'] } as unknown as StandardWallet)).toBe(false);
  });

  it('maps standard:disconnect to the connector, absent when the wallet lacks it', async () => {
    const onConnector = vi.fn();
    cleanups.push(watchStandardWallets(window, onConnector));
    const wallet = createTestStandardWallet();
    registerStandardWallet(wallet);
    registerStandardWallet(createTestStandardWallet({ name: 'No disconnect', features: { 'standard:disconnect': undefined } }));
    await onConnector.mock.calls[0]![0].disconnect();
    expect(wallet.disconnect).toHaveBeenCalledTimes(1);
    expect(onConnector.mock.calls[1]![0].disconnect).toBeUndefined();
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
