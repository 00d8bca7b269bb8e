// The embedded wallet's Solana account as a Wallet Standard wallet (issue 28), the interface every
// other Solana wallet gives Latch, so the Account view, Send and sign-in use it unchanged. Each
// feature is one RPC_REQUEST to the frame in the WalletConnect Solana shape; the frame shows its
// approval panel and latch-core (through the frame) checks and signs. Only encodings here: base58
// and base64 of the bytes the Wallet Standard hands over.
import { fromBase64, toBase64 } from '../base64.js';
import type { StandardWallet, StandardWalletAccount } from '../types.js';
import { loadWasmExtra } from '../wasmExtra.js';
import type { FrameClient } from './frameClient.js';
import { frameRequest, type ProviderHooks } from './provider.js';

const SIGN_FEATURES = ['solana:signMessage', 'solana:signTransaction', 'solana:signAndSendTransaction'];

const transactionOf = (text: unknown) => fromBase64(text, 'The wallet returned no transaction');

/**
 * `address` (base58) with its `publicKey`, on `chains` (the host's Solana networks). `chainOf` is
 * the network a request without a chain is for (the account's current one).
 */
export function createEmbeddedSolanaWallet(
  client: FrameClient,
  address: string,
  chains: readonly string[],
  hooks: ProviderHooks = {},
): Promise<StandardWallet> {
  return loadWasmExtra().then(({ solanaBase58Decode, solanaBase58Encode }) => {
    const account: StandardWalletAccount = {
      address,
      publicKey: solanaBase58Decode(address),
      chains,
      features: SIGN_FEATURES,
    };
    const rpc = <T>(method: string, params: Record<string, unknown>, chainId?: string): Promise<T> =>
      frameRequest<T>(client, hooks, { method, params, ...(chainId && { chainId }) });
    const signature = (answer: { signature?: unknown }) => {
      if (typeof answer.signature !== 'string') throw new Error('The wallet returned no signature');
      return solanaBase58Decode(answer.signature);
    };
    const inOrder = async <I, O>(inputs: I[], one: (input: I) => Promise<O>): Promise<O[]> => {
      const out: O[] = [];
      for (const input of inputs) out.push(await one(input));
      return out;
    };
    return {
      version: '1.0.0',
      name: 'Embedded wallet',
      icon: '',
      chains,
      accounts: [account],
      features: {
        'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: [account] }) },
        'solana:signMessage': {
          version: '1.0.0',
          signMessage: (...inputs: { message: Uint8Array }[]) =>
            inOrder(inputs, async ({ message }) => {
              const answer = await rpc<{ signature?: unknown }>('solana_signMessage', { message: solanaBase58Encode(message), pubkey: address });
              return { signedMessage: message, signature: signature(answer) };
            }),
        },
        'solana:signTransaction': {
          version: '1.0.0',
          supportedTransactionVersions: ['legacy', 0],
          signTransaction: (...inputs: { transaction: Uint8Array; chain?: string }[]) =>
            inOrder(inputs, async ({ transaction, chain }) => {
              const answer = await rpc<{ transaction?: unknown }>('solana_signTransaction', { transaction: toBase64(transaction) }, chain);
              return { signedTransaction: transactionOf(answer.transaction) };
            }),
        },
        'solana:signAndSendTransaction': {
          version: '1.0.0',
          supportedTransactionVersions: ['legacy', 0],
          signAndSendTransaction: (...inputs: { transaction: Uint8Array; chain: string; options?: Record<string, unknown> }[]) =>
            inOrder(inputs, async ({ transaction, chain, options }) => {
              const sendOptions = { preflightCommitment: 'confirmed', ...options };
              const answer = await rpc<{ signature?: unknown }>(
                'solana_signAndSendTransaction',
                { transaction: toBase64(transaction), sendOptions },
                chain,
              );
              return { signature: signature(answer) };
            }),
        },
      },
    };
  });
}
