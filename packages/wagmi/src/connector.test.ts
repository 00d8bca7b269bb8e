import { connect, createConfig, disconnect, getAccount, getConnectorClient, switchChain } from '@wagmi/core';
import { describe, expect, it } from 'vitest';
import { latchConnector, latchTransports, latchWagmiChains } from './index.js';
import { ADDRESS_A, ADDRESS_B, fakeLatch } from '../../adapters-test/fakeLatch.mjs';

function setup(options: Parameters<typeof fakeLatch>[0] = {}) {
  const fake = fakeLatch(options);
  const config = createConfig({
    chains: latchWagmiChains(fake.latch),
    connectors: [latchConnector(fake.latch)],
    transports: latchTransports(fake.latch),
    multiInjectedProviderDiscovery: false,
    storage: null,
  });
  const [connector] = config.connectors;
  return { ...fake, config, connector: connector! };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('latchConnector', () => {
  it('opens the Latch modal on connect and resolves with the account the visitor connects', async () => {
    const { config, connector, calls, connectWallet } = setup();
    const connecting = connect(config, { connector });
    await settle();
    expect(calls).toEqual(['open {"namespace":"eip155"}']);
    connectWallet(ADDRESS_A, 31338);
    await expect(connecting).resolves.toEqual({ accounts: [ADDRESS_A], chainId: 31338 });
    expect(getAccount(config)).toMatchObject({ status: 'connected', address: ADDRESS_A, chainId: 31338 });
  });

  it('reuses a connection Latch already has without opening the modal', async () => {
    const { connector, calls, connectWallet } = setup();
    connectWallet();
    await expect(connector.connect()).resolves.toEqual({ accounts: [ADDRESS_A], chainId: 31337 });
    await expect(connector.connect({ withCapabilities: true })).resolves.toEqual({
      accounts: [{ address: ADDRESS_A, capabilities: {} }],
      chainId: 31337,
    });
    expect(calls).toEqual([]);
  });

  it('rejects as the user declining when the modal closes without a connection', async () => {
    const { config, connector, modal } = setup();
    const connecting = connect(config, { connector });
    await settle();
    modal.store.setState({ open: false });
    await expect(connecting).rejects.toThrow(/User rejected/);
    expect(getAccount(config).status).toBe('disconnected');
  });

  it('follows Latch: a connection made in the modal, account and chain changes, and disconnect', async () => {
    const { config, account, latch, connectWallet } = setup();
    await settle(); // wagmi sets its connectors up asynchronously
    connectWallet();
    expect(getAccount(config)).toMatchObject({ status: 'connected', address: ADDRESS_A, chainId: 31337 });
    account.setState({ address: ADDRESS_B });
    expect(getAccount(config).address).toBe(ADDRESS_B);
    account.setState({ caipNetworkId: 'eip155:31338' });
    expect(getAccount(config).chainId).toBe(31338);
    latch.disconnect();
    expect(getAccount(config).status).toBe('disconnected');
  });

  it("wagmi's disconnect and switchChain act on Latch", async () => {
    const { config, calls, connectWallet, connection } = setup();
    await settle();
    connectWallet(); // a connection made in the modal is wagmi's at once
    await expect(switchChain(config, { chainId: 31338 })).resolves.toMatchObject({ id: 31338 });
    expect(getAccount(config).chainId).toBe(31338);
    await disconnect(config);
    expect(calls).toEqual(['switch eip155:31338', 'disconnect']);
    expect(connection.getState().status).toBe('disconnected');
    expect(getAccount(config).status).toBe('disconnected');
  });

  it('reports a declined switch as the user rejecting it, and a chain Latch lacks as unsupported', async () => {
    const { config, connectWallet } = setup({ switchFails: 'rejected' });
    await settle();
    connectWallet(); // a connection made in the modal is wagmi's at once
    await expect(switchChain(config, { chainId: 31338 })).rejects.toThrow(/User rejected/);
    await expect(switchChain(config, { chainId: 1 })).rejects.toThrow(/not one of Latch's networks/);
  });

  it('hands wagmi the wallet provider of the Latch connection', async () => {
    const { config, connector, provider, connectWallet } = setup();
    await expect(connector.getProvider()).rejects.toThrow(/Provider not found/);
    await settle();
    connectWallet(); // a connection made in the modal is wagmi's at once
    expect(await connector.getProvider()).toBe(provider);
    expect((await getConnectorClient(config)).account.address).toBe(ADDRESS_A);
  });

  it('reconnects after a reload only once Latch has restored its session', async () => {
    const { connector, connection, connectWallet } = setup();
    connection.setState({ status: 'connecting' });
    const authorized = connector.isAuthorized();
    connectWallet();
    await expect(authorized).resolves.toBe(true);
    connection.setState({ status: 'disconnected', activeConnectorId: undefined });
    await expect(connector.isAuthorized()).resolves.toBe(false);
  });
});

describe('latchWagmiChains and latchTransports', () => {
  it("turn Latch's EVM networks into viem chains and gateway transports", async () => {
    const { latch } = fakeLatch();
    expect(latchWagmiChains(latch).map(({ id, name }) => [id, name])).toEqual([
      [31337, 'Chain 31337'],
      [31338, 'Chain 31338'],
    ]);
    const transport = latchTransports(latch)[31338]!({});
    await expect(transport.request({ method: 'eth_chainId' })).resolves.toBe('0x7a6a');
  });
});
