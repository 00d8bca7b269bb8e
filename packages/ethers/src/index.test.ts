import { BrowserProvider, JsonRpcSigner } from 'ethers';
import { providers as ethers5Providers } from 'ethers5';
import { describe, expect, it, vi } from 'vitest';
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
    // Each change is awaited by what it delivers, not by a fixed delay: under load a signer can take
    // longer than any delay, and a later change would then overtake it (its generation wins).
    const delivered = (count: number) => vi.waitFor(() => expect(seen).toHaveLength(count), { timeout: 5_000 });
    await delivered(1);
    connectWallet(ADDRESS_A, 31337);
    await delivered(2);
    account.setState({ address: ADDRESS_B });
    await delivered(3);
    account.setState({ caipNetworkId: 'eip155:31338' });
    await delivered(4);
    latch.disconnect();
    await delivered(5);
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
    const delivered = (count: number) => vi.waitFor(() => expect(chains).toHaveLength(count), { timeout: 5_000 });
    await delivered(1);
    account.setState({ caipNetworkId: 'eip155:31338' });
    await delivered(2);
    latch.disconnect();
    await delivered(3);
    stop();
    expect(chains).toEqual([31337, 31338, undefined]);
  });
});
