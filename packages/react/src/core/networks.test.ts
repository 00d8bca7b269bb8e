import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createTestLatch,
  createTestProvider,
  devnet,
  installWallet,
  stubGateway,
  testWalletInfo,
  whenOpen,
} from '../test/fixtures.js';
import { createTestStandardWallet, registerStandardWallet, solanaDevnet } from '../test/standardWallet.js';
import { LatchAdapterError } from './adapters.js';
import { currentView } from './modal.js';
import type { Network } from './types.js';

const devnetB: Network = { ...devnet, id: 31338, caipNetworkId: 'eip155:31338', name: 'Latch Devnet B' };
const polkadot: Network = {
  id: '91b171bb158e2d3848fa23a9f1c25182',
  caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182',
  chainNamespace: 'polkadot',
  name: 'Polkadot',
  nativeCurrency: { name: 'DOT', symbol: 'DOT', decimals: 10 },
  rpcUrls: { default: { http: ['http://127.0.0.1:9944'] } },
};
const solanaOther: Network = { ...solanaDevnet, id: 'otherCluster', caipNetworkId: 'solana:otherCluster', name: 'Other' };

// Wallets are test doubles and `fetch` is stubbed for the gateway; e2e/tests/networks.spec.ts adds
// and removes the devnet's second chain with a real wallet, server and anvil.
describe('networks at run time (behaviour 3.8)', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  it('adds a network not yet known, once; the list, the store and the host array', async () => {
    const configured = [devnet];
    const latch = createTestLatch({ networks: configured });
    const seen: (readonly Network[])[] = [];
    latch.networksStore.subscribe(() => seen.push(latch.networksStore.getState().networks));
    await expect(latch.addNetwork(devnetB)).resolves.toBe(true);
    expect(latch.networks.map(({ caipNetworkId }) => caipNetworkId)).toEqual(['eip155:31337', 'eip155:31338']);
    // Only unknown networks are added: the same CAIP-2 id again changes nothing.
    await expect(latch.addNetwork({ ...devnetB, name: 'Again' })).resolves.toBe(false);
    expect(latch.networks.map(({ name }) => name)).toEqual(['Latch Devnet', 'Latch Devnet B']);
    expect(seen).toHaveLength(1);
    expect(configured).toEqual([devnet]);
  });

  it('refuses a namespace without an adapter: Chain adapter not found', async () => {
    const latch = createTestLatch();
    await expect(latch.addNetwork(polkadot)).rejects.toThrow(LatchAdapterError);
    await expect(latch.addNetwork(polkadot)).rejects.toMatchObject({
      code: 'CHAIN_ADAPTER_NOT_FOUND',
      message: 'Chain adapter not found',
      detail: 'polkadot',
    });
    expect(latch.networks).toEqual([devnet]);
  });

  it('refuses a malformed network with latch-core\'s message', async () => {
    const latch = createTestLatch();
    await expect(latch.addNetwork({ ...devnetB, caipNetworkId: 'eip155' as never })).rejects.toThrow(
      'Invalid CAIP-2 network id',
    );
    await expect(latch.addNetwork({ ...devnetB, chainNamespace: 'solana' })).rejects.toThrow(
      'Network eip155:31338 is not in namespace solana',
    );
    await expect(latch.addNetwork(undefined as never)).rejects.toThrow('Chain adapter not found');
    expect(latch.networks).toEqual([devnet]);
  });

  it('removes a network that exists, by CAIP-2 id or id; the last one stays', async () => {
    const latch = createTestLatch({ networks: [devnet, devnetB, solanaDevnet] });
    await expect(latch.removeNetwork('eip155:31338')).resolves.toBe(devnetB);
    await expect(latch.removeNetwork('eip155:31338')).rejects.toMatchObject({
      code: 'NETWORK_NOT_FOUND',
      message: 'Network not found',
    });
    await expect(latch.removeNetwork(solanaDevnet.id)).resolves.toBe(solanaDevnet);
    await expect(latch.removeNetwork(31337)).rejects.toMatchObject({
      code: 'LAST_NETWORK',
      message: 'At least one network must be configured',
    });
    expect(latch.networks).toEqual([devnet]);
  });

  it('the default network follows a removal', async () => {
    const latch = createTestLatch({ networks: [devnet, devnetB], defaultNetwork: devnetB });
    expect(latch.defaultNetwork).toBe(devnetB);
    await latch.removeNetwork(devnetB.caipNetworkId);
    expect(latch.defaultNetwork).toBe(devnet);
  });

  it('an account on a removed network is on an unsupported one; adding it back shows Account again', async () => {
    stubGateway();
    installWallet(createTestProvider());
    const latch = createTestLatch({ networks: [devnet, devnetB] });
    cleanups.push(latch.mount(window));
    await latch.connect(testWalletInfo.uuid);
    expect(latch.account.getState()).toMatchObject({ caipNetworkId: 'eip155:31337', balanceStatus: 'ready' });
    latch.modal.close();

    await latch.removeNetwork(devnet.caipNetworkId);
    // Behaviour 3.4: the unsupported-chain view opens and no balance is shown.
    await whenOpen(latch);
    expect(currentView(latch.modal.store.getState())).toBe('UnsupportedChain');
    expect(latch.account.getState()).toMatchObject({ balance: undefined, balanceStatus: 'idle' });

    await latch.addNetwork(devnet);
    expect(currentView(latch.modal.store.getState())).toBe('Account');
    await expect.poll(() => latch.account.getState().balanceStatus).toBe('ready');
  });

  it('a Solana account on a removed network moves to the next Solana network', async () => {
    stubGateway();
    registerStandardWallet(createTestStandardWallet());
    const latch = createTestLatch({ networks: [devnet, solanaDevnet, solanaOther] });
    cleanups.push(latch.mount(window));
    await vi.dynamicImportSettled();
    await latch.connect('wallet-standard:Test Solana Wallet');
    const { address } = latch.account.getState();
    expect(latch.account.getState().caipNetworkId).toBe(solanaDevnet.caipNetworkId);
    await latch.removeNetwork(solanaDevnet.caipNetworkId);
    expect(latch.account.getState().caipAddress).toBe(`solana:otherCluster:${address}`);
    expect(latch.connection.getState().status).toBe('connected');
  });

  it('a Solana network added after mounting starts offering Solana wallets', async () => {
    stubGateway();
    registerStandardWallet(createTestStandardWallet());
    const latch = createTestLatch();
    cleanups.push(latch.mount(window));
    expect(latch.connection.getState().connectors).toEqual([]);
    await vi.dynamicImportSettled();
    expect(latch.connection.getState().connectors).toEqual([]);
    await latch.addNetwork(solanaDevnet);
    await vi.dynamicImportSettled();
    expect(latch.connection.getState().connectors.map(({ id }) => id)).toEqual(['wallet-standard:Test Solana Wallet']);
  });
});
