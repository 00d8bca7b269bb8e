import { BrowserProvider, JsonRpcSigner } from 'ethers';
import { providers as ethers5Providers } from 'ethers5';
import { describe, expect, it } from 'vitest';
import { getLatchBrowserProvider, getLatchSigner, LatchNotConnectedError, watchLatchSigner } from './index.js';
import { getLatchWeb3Provider, watchLatchWeb3Provider } from './v5.js';
import { ADDRESS_A, ADDRESS_B, fakeLatch } from '../../adapters-test/fakeLatch.mjs';

// ethers batches requests for 10 ms before sending them.
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

describe('ethers v6', () => {
  it('needs a connected EVM wallet', async () => {
    const { latch } = fakeLatch();
    expect(() => getLatchBrowserProvider(latch)).toThrow(LatchNotConnectedError);
    await expect(getLatchSigner(latch)).rejects.toThrow('No EVM wallet is connected through Latch');
  });

  it('gives a BrowserProvider and a signer for the connected account on its chain', async () => {
    const { latch, connectWallet } = fakeLatch();
    connectWallet(ADDRESS_A, 31338);
    const provider = getLatchBrowserProvider(latch);
    expect(provider).toBeInstanceOf(BrowserProvider);
    expect(getLatchBrowserProvider(latch)).toBe(provider);
    expect((await provider.getNetwork()).chainId).toBe(31338n);
    const signer = await getLatchSigner(latch);
    expect(signer).toBeInstanceOf(JsonRpcSigner);
    expect(signer.address).toBe(ADDRESS_A);
  });

  it('follows account and chain changes, and disconnect', async () => {
    const { latch, account, connectWallet } = fakeLatch();
    const seen: Array<string | undefined> = [];
    const stop = watchLatchSigner(latch, (current) =>
      seen.push(current && `${current.signer.address}@${current.chainId}`),
    );
    connectWallet(ADDRESS_A, 31337);
    await settle();
    account.setState({ address: ADDRESS_B });
    await settle();
    account.setState({ caipNetworkId: 'eip155:31338' });
    await settle();
    latch.disconnect();
    await settle();
    stop();
    connectWallet(ADDRESS_A, 31337);
    await settle();
    expect(seen).toEqual([undefined, `${ADDRESS_A}@31337`, `${ADDRESS_B}@31337`, `${ADDRESS_B}@31338`, undefined]);
  });
});

describe('ethers v5', () => {
  it('gives a Web3Provider over the connection, following changes', async () => {
    const { latch, account, connectWallet } = fakeLatch();
    expect(() => getLatchWeb3Provider(latch, ethers5Providers.Web3Provider)).toThrow(LatchNotConnectedError);
    connectWallet(ADDRESS_A, 31337);
    const provider = getLatchWeb3Provider(latch, ethers5Providers.Web3Provider);
    expect(await provider.getSigner().getAddress()).toBe(ADDRESS_A);
    expect((await provider.getNetwork()).chainId).toBe(31337);
    const chains: Array<number | undefined> = [];
    const stop = watchLatchWeb3Provider(latch, ethers5Providers.Web3Provider, (next) => {
      void next?.getNetwork().then(({ chainId }) => chains.push(chainId));
      if (!next) chains.push(undefined);
    });
    await settle();
    account.setState({ caipNetworkId: 'eip155:31338' });
    await settle();
    latch.disconnect();
    await settle();
    stop();
    expect(chains).toEqual([31337, 31338, undefined]);
  });
});
