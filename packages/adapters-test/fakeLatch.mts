import type { Eip1193Provider, Latch, Network } from '@latch/react';
import { store } from './store.mjs';

const network = (id: number): Network => ({
  id,
  caipNetworkId: `eip155:${id}`,
  chainNamespace: 'eip155',
  name: `Chain ${id}`,
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [`http://127.0.0.1:${id}`] } },
});

export const ADDRESS_A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
export const ADDRESS_B = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

/**
 * The parts of a Latch instance the adapters read, driven by the test as the modal and the
 * wallet would drive the real one. `calls` records what the adapter asked Latch to do.
 * @latch/wagmi's and @latch/ethers' tests share this file; outside both packages' `src`, no build
 * emits it (`.mts`: an ES module without a package.json of its own).
 */
export function fakeLatch({ switchFails }: { switchFails?: 'rejected' | 'failed' } = {}) {
  // Answers as a wallet on the account's chain would: what ethers and viem ask before signing.
  const provider: Eip1193Provider = {
    request: async ({ method }) => {
      const { address, caipNetworkId } = account.getState();
      if (method === 'eth_chainId') return `0x${Number(caipNetworkId?.split(':')[1] ?? 1).toString(16)}`;
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') return address ? [address] : [];
      throw new Error(`unexpected ${method}`);
    },
    on: () => undefined,
    removeListener: () => undefined,
  };
  const calls: string[] = [];
  const connection = store<{ status: string; connectors: unknown[]; activeConnectorId?: string }>({
    status: 'disconnected',
    connectors: [{ id: 'wallet', type: 'ANNOUNCED', name: 'Wallet', imageUrl: '', rdns: 'test.wallet', provider }],
  });
  const account = store<{ address?: string; caipNetworkId?: string }>({});
  const modal = { store: store({ open: false }), open: (options?: unknown) => {
    calls.push(`open ${JSON.stringify(options)}`);
    modal.store.setState({ open: true });
  } };
  const networks = [network(31337), network(31338)];
  const latch = {
    networks,
    connection,
    account,
    modal,
    disconnect() {
      calls.push('disconnect');
      connection.setState({ status: 'disconnected', activeConnectorId: undefined });
      account.setState({ address: undefined, caipNetworkId: undefined });
    },
    async switchNetwork(target: Network) {
      calls.push(`switch ${target.caipNetworkId}`);
      if (switchFails) throw Object.assign(new Error('switch failed'), { kind: switchFails });
      account.setState({ caipNetworkId: target.caipNetworkId });
    },
    gateway: { request: async (caip: string, method: string) => (method === 'eth_chainId' ? `0x${Number(caip.split(':')[1]).toString(16)}` : null) },
  };
  /** The visitor connects `address` on `chainId` (the modal's wallet list, or a reload's restore). */
  const connectWallet = (address = ADDRESS_A, chainId = 31337) => {
    connection.setState({ status: 'connected', activeConnectorId: 'wallet' });
    account.setState({ address, caipNetworkId: `eip155:${chainId}` });
    modal.store.setState({ open: false });
  };
  return { latch: latch as unknown as Latch, provider, calls, connection, account, modal, connectWallet };
}
