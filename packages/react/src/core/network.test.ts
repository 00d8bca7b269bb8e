import { init } from '@latch/wasm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { devnet } from '../test/fixtures.js';
import { createNetworkController } from './network.js';
import { STORAGE_KEYS, type KeyValueStorage } from './storage.js';
import type { Network } from './types.js';

const devnetB: Network = { ...devnet, id: 31338, caipNetworkId: 'eip155:31338', name: 'Devnet B' };
const solana: Network = {
  ...devnet,
  id: '62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh',
  caipNetworkId: 'solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh',
  chainNamespace: 'solana',
  name: 'Solana Devnet',
};

function memoryStorage(entries: Record<string, string> = {}): KeyValueStorage & { entries: Map<string, string> } {
  const map = new Map(Object.entries(entries));
  return {
    entries: map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

function setup(stored: Record<string, string> = {}, networks: readonly Network[] = [devnet, devnetB]) {
  const storage = memoryStorage(stored);
  const controller = createNetworkController({ networks, defaultNetwork: networks[0]!, storage });
  return { storage, controller, state: () => controller.store.getState() };
}

beforeAll(() => init());

describe('the active network', () => {
  it('starts on the default network before anything is restored', () => {
    const { state } = setup({ [STORAGE_KEYS.activeNetwork]: 'eip155:31338' });
    expect(state()).toMatchObject({ activeNetwork: devnet, activeNamespace: 'eip155', supported: true });
  });

  it('stores the network and its namespace on a switch (behaviour 3.5)', () => {
    const { controller, storage, state } = setup({}, [devnet, solana]);
    controller.setActive('solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh');
    expect(state()).toMatchObject({ activeNetwork: solana, activeNamespace: 'solana', supported: true });
    expect(storage.getItem(STORAGE_KEYS.activeNetwork)).toBe('solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh');
    expect(storage.getItem(STORAGE_KEYS.activeNamespace)).toBe('solana');
  });

  it('makes the placeholder active for a network the host did not list (behaviour 3.3, 3.4)', async () => {
    const { controller, storage, state } = setup();
    controller.setActive('eip155:1');
    // Unsupported at once; the placeholder itself comes from the extra module.
    expect(state().supported).toBe(false);
    await vi.waitFor(() => expect(state().activeNetwork.caipNetworkId).toBe('eip155:1'));
    expect(state().activeNetwork).toEqual({
      id: 1,
      caipNetworkId: 'eip155:1',
      chainNamespace: 'eip155',
      name: 'Unknown Network',
      nativeCurrency: { name: '', symbol: '', decimals: 0 },
      rpcUrls: { default: { http: [] } },
    });
    expect(storage.getItem(STORAGE_KEYS.activeNetwork)).toBe('eip155:1');
    expect(state().activeNamespace).toBe('eip155');
  });

  it('a placeholder loading late does not undo a later switch to a listed network', async () => {
    const { controller, state } = setup();
    controller.setActive('eip155:1');
    controller.setActive('eip155:31338');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state()).toMatchObject({ activeNetwork: devnetB, supported: true });
  });

  it('ignores an id latch-core refuses, keeping the active network and storing nothing', () => {
    const { controller, state, storage } = setup();
    controller.setActive('eip155' as never);
    expect(state()).toMatchObject({ activeNetwork: devnet, supported: true });
    expect(storage.getItem(STORAGE_KEYS.activeNetwork)).toBeNull();
  });
});

describe('the network at start (behaviour 3.6)', () => {
  it('restores the stored network when the host lists it', () => {
    const { controller, state } = setup({ [STORAGE_KEYS.activeNetwork]: 'eip155:31338' });
    controller.restore();
    expect(state()).toMatchObject({ activeNetwork: devnetB, supported: true });
  });

  it('restores the placeholder for a stored network of a known namespace', async () => {
    const { controller, state } = setup({ [STORAGE_KEYS.activeNetwork]: 'eip155:5' });
    controller.restore();
    expect(state().supported).toBe(false);
    await vi.waitFor(() => expect(state().activeNetwork.caipNetworkId).toBe('eip155:5'));
    expect(state().activeNetwork).toMatchObject({ caipNetworkId: 'eip155:5', name: 'Unknown Network' });
  });

  it('falls back to the default for another namespace, nothing stored, or corrupt storage', () => {
    for (const stored of ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', undefined, 'not a network']) {
      const { controller, state } = setup(stored ? { [STORAGE_KEYS.activeNetwork]: stored } : {}, [devnetB, devnet]);
      controller.restore();
      expect(state(), String(stored)).toMatchObject({ activeNetwork: devnetB, supported: true });
    }
  });
});

describe('connections per namespace (behaviour 2.14)', () => {
  it('remembers connected namespaces and the connector of each, and forgets one', () => {
    const { controller, storage } = setup();
    controller.rememberConnection('eip155', 'dev.latch.testwallet');
    controller.rememberConnection('solana', 'Solana Wallet');
    controller.rememberConnection('eip155', 'walletConnect');
    expect(controller.connectedNamespaces()).toEqual(['solana', 'eip155']);
    expect(controller.connectorId('eip155')).toBe('walletConnect');
    expect(JSON.parse(storage.getItem(STORAGE_KEYS.connectedNamespaces)!)).toEqual(['solana', 'eip155']);
    controller.forgetConnection('solana');
    expect(controller.connectedNamespaces()).toEqual(['eip155']);
    expect(controller.connectorId('solana')).toBeUndefined();
    controller.forgetConnection('eip155');
    expect(storage.getItem(STORAGE_KEYS.connectedNamespaces)).toBeNull();
  });

  it('reads corrupt or foreign stored lists as nothing connected', () => {
    for (const value of ['{', '"eip155"', '["cosmos", 5]']) {
      const { controller } = setup({ [STORAGE_KEYS.connectedNamespaces]: value });
      expect(controller.connectedNamespaces(), value).toEqual([]);
    }
  });
});
