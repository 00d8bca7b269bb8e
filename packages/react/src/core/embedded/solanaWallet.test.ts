import { solanaBase58Encode } from '@latch/wasm/extra';
import { describe, expect, it, vi } from 'vitest';
import { FrameError, type FrameClient } from './frameClient.js';
import { createEmbeddedSolanaWallet } from './solanaWallet.js';

const ADDRESS = '7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv';
const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';
const SIGNATURE = Uint8Array.from({ length: 64 }, (_, i) => i);

type Features = Record<string, Record<string, (...inputs: unknown[]) => Promise<readonly Record<string, unknown>[]>>>;

/** A frame that answers each RPC_REQUEST with `answer(payload)`. */
function frame(answer: (payload: Record<string, unknown>) => unknown) {
  const request = vi.fn(async (type: string, payload?: Record<string, unknown>) => {
    expect(type).toBe('RPC_REQUEST');
    return answer(payload ?? {});
  });
  return { client: { request } as unknown as FrameClient, request };
}

describe("the embedded wallet's Solana account as a Wallet Standard wallet", () => {
  it('signs a message through the frame in the WalletConnect shape', async () => {
    const { client, request } = frame(() => ({ signature: solanaBase58Encode(SIGNATURE) }));
    const settled = vi.fn();
    const wallet = await createEmbeddedSolanaWallet(client, ADDRESS, [DEVNET], { settled });
    const [account] = wallet.accounts;
    expect(account?.address).toBe(ADDRESS);
    expect(account?.publicKey).toHaveLength(32);
    expect(wallet.chains).toEqual([DEVNET]);
    const message = new TextEncoder().encode('hello');
    const features = wallet.features as Features;
    const [output] = await features['solana:signMessage']!.signMessage!({ account, message });
    expect(request).toHaveBeenCalledWith('RPC_REQUEST', {
      method: 'solana_signMessage',
      params: { message: solanaBase58Encode(message), pubkey: ADDRESS },
    });
    expect(output?.signature).toEqual(SIGNATURE);
    expect(output?.signedMessage).toEqual(message);
    expect(settled).toHaveBeenCalledWith(true);
  });

  it('signs and sends a transaction on the chain asked for, with confirmed preflight', async () => {
    const { client, request } = frame(() => ({ signature: solanaBase58Encode(SIGNATURE) }));
    const wallet = await createEmbeddedSolanaWallet(client, ADDRESS, [DEVNET]);
    const features = wallet.features as Features;
    const transaction = Uint8Array.from([1, 2, 3]);
    const [output] = await features['solana:signAndSendTransaction']!.signAndSendTransaction!({
      account: wallet.accounts[0],
      transaction,
      chain: DEVNET,
    });
    expect(request).toHaveBeenCalledWith('RPC_REQUEST', {
      method: 'solana_signAndSendTransaction',
      params: { transaction: 'AQID', sendOptions: { preflightCommitment: 'confirmed' } },
      chainId: DEVNET,
    });
    expect(output?.signature).toEqual(SIGNATURE);

    const signed = frame(() => ({ signature: 'x', transaction: 'BAUG' }));
    const again = await createEmbeddedSolanaWallet(signed.client, ADDRESS, [DEVNET]);
    const [result] = await (again.features as Features)['solana:signTransaction']!.signTransaction!({ transaction });
    expect(result?.signedTransaction).toEqual(Uint8Array.from([4, 5, 6]));
  });

  it("passes on the frame's rejection with its code; a refused method is reported", async () => {
    const rejected = frame(() => {
      throw new FrameError('User rejected the request', 4001);
    });
    const settled = vi.fn();
    const refused = vi.fn();
    const wallet = await createEmbeddedSolanaWallet(rejected.client, ADDRESS, [DEVNET], { settled, refused });
    const sign = (wallet.features as Features)['solana:signMessage']!.signMessage!;
    await expect(sign({ message: Uint8Array.from([1]) })).rejects.toMatchObject({ code: 4001, message: 'User rejected the request' });
    expect(settled).toHaveBeenCalledWith(false);
    expect(refused).not.toHaveBeenCalled();

    const notAllowed = frame(() => {
      throw new FrameError('Requested RPC call is not allowed', 4200);
    });
    const other = await createEmbeddedSolanaWallet(notAllowed.client, ADDRESS, [DEVNET], { refused });
    await expect((other.features as Features)['solana:signMessage']!.signMessage!({ message: Uint8Array.from([1]) })).rejects.toMatchObject({ code: 4200 });
    expect(refused).toHaveBeenCalledOnce();
  });
});
