import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHECKSUMMED_ACCOUNT,
  createTestLatch,
  createTestProvider,
  devnet,
  installWallet,
  stubGateway,
  testWalletInfo,
} from '../test/fixtures.js';
import { createTestStandardWallet, registerStandardWallet, solanaDevnet } from '../test/standardWallet.js';
import { LatchAdapterError } from './adapters.js';

const SOLANA_CONNECTOR_ID = 'wallet-standard:Test Solana Wallet';

// Wallets are EIP-1193 and Wallet Standard test doubles (no extension runs in jsdom) and `fetch` is
// stubbed for the gateway; the real wallets are covered by the end-to-end tests.
describe('getProvider (the universal provider)', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  function setup() {
    stubGateway();
    const provider = createTestProvider();
    const wallet = createTestStandardWallet();
    installWallet(provider);
    registerStandardWallet(wallet);
    const latch = createTestLatch({ networks: [devnet, solanaDevnet] });
    cleanups.push(latch.mount(window));
    return { latch, provider, wallet };
  }

  it('is undefined in every namespace before a wallet connects', () => {
    const { latch } = setup();
    expect(latch.getProvider('eip155')).toBeUndefined();
    expect(latch.getProvider('solana')).toBeUndefined();
  });

  it('hands out the EIP-1193 provider of a connected EVM wallet, and nothing for solana', async () => {
    const { latch, provider } = setup();
    await latch.connect(testWalletInfo.uuid);
    expect(latch.account.getState().address).toBe(CHECKSUMMED_ACCOUNT);
    expect(latch.getProvider('eip155')).toBe(provider);
    expect(latch.getProvider('solana')).toBeUndefined();
    latch.disconnect();
    expect(latch.getProvider('eip155')).toBeUndefined();
  });

  it('hands out the Wallet Standard wallet of a connected Solana wallet, and nothing for eip155', async () => {
    const { latch, wallet } = setup();
    await vi.dynamicImportSettled();
    await latch.connect(SOLANA_CONNECTOR_ID);
    const solana = latch.getProvider('solana');
    expect(solana).toBe(wallet);
    expect(solana?.accounts.map(({ address }) => address)).toEqual([latch.account.getState().address]);
    expect(latch.getProvider('eip155')).toBeUndefined();
  });

  it('refuses a namespace without an adapter with the documented message (behaviour 2.15)', () => {
    const { latch } = setup();
    for (const namespace of ['polkadot', 'bip122', 'cosmos', '', undefined]) {
      const call = () => latch.getProvider(namespace as never);
      expect(call).toThrow(LatchAdapterError);
      expect(call).toThrow('Chain adapter not found');
      try {
        call();
      } catch (error) {
        expect(error).toMatchObject({ code: 'CHAIN_ADAPTER_NOT_FOUND', detail: String(namespace) });
      }
    }
  });

  it('a Solana wallet that drops solana:signMessage: UniversalAdapter:signMessage - provider is undefined', async () => {
    const { latch, wallet } = setup();
    await vi.dynamicImportSettled();
    await latch.connect(SOLANA_CONNECTOR_ID);
    expect(latch.connection.getState().status).toBe('connected');
    // Latch offers only wallets with the feature; a wallet may still replace its features later.
    (wallet.features as Record<string, unknown>)['solana:signMessage'] = undefined;
    // latch.signMessage reports wallet failures as WalletRequestError, the adapter's error its cause.
    const error = await latch.signMessage('hello').catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ kind: 'failed', message: 'UniversalAdapter:signMessage - provider is undefined' });
    expect((error as { cause?: unknown }).cause).toBeInstanceOf(LatchAdapterError);
    expect((error as { cause?: unknown }).cause).toMatchObject({ code: 'PROVIDER_UNDEFINED', detail: 'Test Solana Wallet' });
    expect(wallet.signMessage).not.toHaveBeenCalled();
  });
});
