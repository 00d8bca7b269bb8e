import { toBase64 } from './base64.js';
import type { Gateway } from './gateway.js';
import type { Network, StandardWallet, StandardWalletAccount } from './types.js';
import { declinedByUser } from './walletErrors.js';
import { feature } from './walletStandard.js';
import { loadWasmExtra } from './wasmExtra.js';

/** Behaviour 5.6: the Send view's alert for a Solana send that did not go out. */
export const SOLANA_SEND_FAILED_MESSAGE = 'Failed to send transaction. Please try again.';

/** The user declined the transaction in the wallet: a choice to respect, not a failure to report. */
export class SolanaSendRejectedError extends Error {
  override readonly name = 'SolanaSendRejectedError';
  readonly code = 'SOLANA_SEND_REJECTED';
  constructor(options?: { cause?: unknown }) {
    super('The wallet declined the transaction', options);
  }
}

/** The send failed (gateway, wallet or chain); `cause` says why, the message is the documented (behaviour 5.6). */
export class SolanaSendError extends Error {
  override readonly name = 'SolanaSendError';
  readonly code = 'SOLANA_SEND_FAILED';
  constructor(options?: { cause?: unknown }) {
    super(SOLANA_SEND_FAILED_MESSAGE, options);
  }
}

/** What is sent: SOL, or an SPL token (its mint, decimals and program: Token or Token-2022). */
export type SolanaSendToken =
  | { type: 'native' }
  | { type: 'spl'; mint: string; decimals: number; tokenProgram?: string };

export interface SolanaTransferInput {
  /** The signing wallet: a Solana connector's, or the embedded wallet's Solana account. */
  connector: { wallet: StandardWallet };
  /** The sender: an account of the connector's wallet. */
  address: string;
  /** A `solana` network; its CAIP-2 id is the Wallet Standard chain and the gateway's chain. */
  network: Network;
  gateway: Gateway;
  token: SolanaSendToken;
  /** Whole tokens as the user typed them, e.g. `"1.5"`. */
  amount: string;
  /** The receiver's wallet address (base58). */
  receiver: string;
}

/** The parts of the Wallet Standard's Solana send features Latch uses. */
interface SolanaSignAndSendTransactionFeature {
  signAndSendTransaction(
    ...inputs: { account: StandardWalletAccount; transaction: Uint8Array; chain: string }[]
  ): Promise<readonly { signature: Uint8Array }[]>;
}
interface SolanaSignTransactionFeature {
  signTransaction(
    ...inputs: { account: StandardWalletAccount; transaction: Uint8Array; chain?: string }[]
  ): Promise<readonly { signedTransaction: Uint8Array }[]>;
}

/**
 * Sends SOL or an SPL token from `address` and returns the transaction's base58 signature once the
 * chain accepted it (not yet confirmed). latch-core builds the transaction (`buildSolanaTransfer`,
 * wasm `extra`) from a recent blockhash and, for a token, whether the receiver's associated token
 * account exists (both read through the Latch gateway); the wallet signs and sends it with
 * `solana:signAndSendTransaction`, or signs with `solana:signTransaction` and the gateway sends it.
 *
 * Throws the core's `LatchError` for input the user can fix (behaviour 5.5 "Please enter a valid amount and
 * receiver address", `Invalid amount: …`, `Invalid Solana address`), `SolanaSendRejectedError`
 * when the user declines in the wallet, and `SolanaSendError` (behaviour 5.6's message) for anything else.
 */
export async function sendSolanaTransfer(input: SolanaTransferInput): Promise<string> {
  const { connector, address, network, gateway, token, amount, receiver } = input;
  const wasm = await loadWasmExtra().catch((cause: unknown) => {
    throw new SolanaSendError({ cause });
  });
  const chain = network.caipNetworkId;
  const request = (method: string, params: readonly unknown[]) => gateway.request(chain, method, params);
  const spl = token.type === 'spl' ? token : undefined;

  // Input errors (the core's LatchError, shown as they are) come before any network call: the
  // same build with a stand-in blockhash (32 zero bytes) checks every field the user typed.
  const draft = {
    from: address,
    to: receiver,
    amount,
    ...(spl && { mint: spl.mint, decimals: spl.decimals, tokenProgram: spl.tokenProgram }),
  };
  const placeholderHash = '11111111111111111111111111111111';
  wasm.buildSolanaTransfer({ ...draft, recentBlockhash: placeholderHash });

  const { wallet } = connector;
  // The wallet wants its own account object back, not a copy.
  const account = wallet.accounts.find((candidate) => candidate.address === address);
  const signAndSend = feature<SolanaSignAndSendTransactionFeature>(
    wallet,
    'solana:signAndSendTransaction',
    'signAndSendTransaction',
  );
  const signOnly = feature<SolanaSignTransactionFeature>(wallet, 'solana:signTransaction', 'signTransaction');
  if (!account || (!signAndSend && !signOnly)) {
    throw new SolanaSendError({ cause: new Error(`${wallet.name} cannot send transactions for ${address}`) });
  }

  try {
    const [blockhash, receiverAccountExists] = await Promise.all([
      request('getLatestBlockhash', [{ commitment: 'confirmed' }]).then(readBlockhash),
      spl
        ? request('getAccountInfo', [
            wasm.solanaAssociatedTokenAddress(receiver.trim(), spl.mint, spl.tokenProgram),
            { encoding: 'base64', commitment: 'confirmed' },
          ]).then((result) => (result as { value?: unknown } | null)?.value != null)
        : Promise.resolve(true),
    ]);
    const transaction = wasm.buildSolanaTransfer({
      ...draft,
      ...(spl && { createReceiverAccount: !receiverAccountExists }),
      recentBlockhash: blockhash,
    });
    if (signAndSend) {
      const [output] = await signAndSend.signAndSendTransaction({ account, transaction, chain });
      if (!output) throw new Error(`${wallet.name} returned no signature`);
      return wasm.solanaSignatureText(output.signature);
    }
    const [output] = (await signOnly?.signTransaction({ account, transaction, chain })) ?? [];
    if (!output) throw new Error(`${wallet.name} returned no signed transaction`);
    const signature = await request('sendTransaction', [
      toBase64(output.signedTransaction),
      { encoding: 'base64', preflightCommitment: 'confirmed' },
    ]);
    if (typeof signature !== 'string') throw new Error('sendTransaction returned no signature');
    return signature;
  } catch (cause) {
    if (declinedByUser(cause)) throw new SolanaSendRejectedError({ cause });
    throw new SolanaSendError({ cause });
  }
}

function readBlockhash(result: unknown): string {
  const blockhash = (result as { value?: { blockhash?: unknown } } | null)?.value?.blockhash;
  if (typeof blockhash !== 'string') throw new Error('getLatestBlockhash returned no blockhash');
  return blockhash;
}
