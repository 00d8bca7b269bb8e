import { LatchError } from '@latch/wasm';
import { buildSolanaTransfer, solanaAssociatedTokenAddress } from '@latch/wasm/extra';
import { describe, expect, it, vi } from 'vitest';
import { toBase58 } from '../test/base58.js';
import { createTestStandardWallet, solanaDevnet, testSolanaKey } from '../test/standardWallet.js';
import type { Gateway } from './gateway.js';
import { RpcError } from './gateway.js';
import {
  SOLANA_SEND_FAILED_MESSAGE,
  SolanaSendError,
  SolanaSendRejectedError,
  sendSolanaTransfer,
  type SolanaSendToken,
} from './solanaTransfer.js';
import type { StandardWalletAccount } from './types.js';
import { solanaConnector } from './walletStandard.js';

// The wallet is a Wallet Standard test double signing with a real ed25519 key and the gateway a
// stand-in answering the two reads; the bytes are checked against latch-core's own build (its
// vectors check those against @solana/web3.js), and e2e/tests/solana-send.spec.ts sends for real
// on the Solana devnet through a real `latch`.
const sender = testSolanaKey(7);
const receiver = testSolanaKey(8).address;
const BLOCKHASH = 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N';
const MINT = '8hLX1tyjXmUYYLbKsaevDBykWZXAyMYuYAJrXUvrnmBP';
const USDC: SolanaSendToken = { type: 'spl', mint: MINT, decimals: 6 };
const NATIVE: SolanaSendToken = { type: 'native' };
const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });

type Input = { account: StandardWalletAccount; transaction: Uint8Array; chain: string };

function setup({
  receiverAccount = false,
  sendFeature = 'signAndSend' as 'signAndSend' | 'signOnly' | 'none',
  rejectSign = false,
  gatewayError = undefined as Error | undefined,
} = {}) {
  /** The wallet signs the message (the bytes after the one signature slot) with its key. */
  const sign = (transaction: Uint8Array) => {
    const signature = sender.sign(transaction.slice(65));
    const signed = transaction.slice();
    signed.set(signature, 1);
    return { signature, signed };
  };
  const signAndSendTransaction = vi.fn(async (...inputs: Input[]) => {
    if (rejectSign) throw rejection();
    return inputs.map(({ transaction }) => ({ signature: sign(transaction).signature }));
  });
  const signTransaction = vi.fn(async (...inputs: Input[]) => {
    if (rejectSign) throw rejection();
    return inputs.map(({ transaction }) => ({ signedTransaction: sign(transaction).signed }));
  });
  const features: Record<string, unknown> = {};
  if (sendFeature === 'signAndSend') features['solana:signAndSendTransaction'] = { version: '1.0.0', signAndSendTransaction };
  if (sendFeature !== 'none') features['solana:signTransaction'] = { version: '1.0.0', signTransaction };
  const wallet = createTestStandardWallet({ key: sender, authorised: true, features });
  const calls: { method: string; params: readonly unknown[] }[] = [];
  const gateway: Gateway = {
    async request(caipNetworkId, method, params) {
      expect(caipNetworkId).toBe(solanaDevnet.caipNetworkId);
      calls.push({ method, params });
      if (gatewayError) throw gatewayError;
      switch (method) {
        case 'getLatestBlockhash':
          return { context: { slot: 5 }, value: { blockhash: BLOCKHASH, lastValidBlockHeight: 155 } };
        case 'getAccountInfo':
          return { context: { slot: 5 }, value: receiverAccount ? { lamports: 2039280, data: ['', 'base64'] } : null };
        case 'sendTransaction':
          return 'gateway-signature';
        default:
          throw new RpcError(-32601, `unexpected ${method}`);
      }
    },
  };
  const send = (token: SolanaSendToken, amount: string, to = receiver) =>
    sendSolanaTransfer({
      connector: solanaConnector(wallet),
      address: sender.address,
      network: solanaDevnet,
      gateway,
      token,
      amount,
      receiver: to,
    });
  return { send, calls, signAndSendTransaction, signTransaction };
}

describe('sendSolanaTransfer', () => {
  it('sends SOL with solana:signAndSendTransaction on the network chain and returns the base58 signature', async () => {
    const { send, calls, signAndSendTransaction } = setup();
    const signature = await send(NATIVE, '1.5');

    expect(calls.map(({ method }) => method)).toEqual(['getLatestBlockhash']);
    expect(signAndSendTransaction).toHaveBeenCalledTimes(1);
    const input = signAndSendTransaction.mock.calls[0]![0]!;
    expect(input.chain).toBe(solanaDevnet.caipNetworkId);
    expect(input.account.address).toBe(sender.address);
    expect(Array.from(input.transaction)).toEqual(
      Array.from(buildSolanaTransfer({ from: sender.address, to: receiver, amount: '1.5', recentBlockhash: BLOCKHASH })),
    );
    expect(signature).toBe(toBase58(sender.sign(input.transaction.slice(65))));
  });

  it("creates the receiver's token account when the gateway finds none", async () => {
    const { send, calls, signAndSendTransaction } = setup({ receiverAccount: false });
    await send(USDC, '12.5');
    const ata = solanaAssociatedTokenAddress(receiver, MINT);
    expect(calls.find(({ method }) => method === 'getAccountInfo')?.params[0]).toBe(ata);
    const { transaction } = signAndSendTransaction.mock.calls[0]![0]!;
    const base = { from: sender.address, to: receiver, amount: '12.5', mint: MINT, decimals: 6, recentBlockhash: BLOCKHASH };
    expect(Array.from(transaction)).toEqual(Array.from(buildSolanaTransfer({ ...base, createReceiverAccount: true })));
  });

  it('sends the token alone when the receiver already has the account', async () => {
    const { send, signAndSendTransaction } = setup({ receiverAccount: true });
    await send(USDC, '12.5');
    const { transaction } = signAndSendTransaction.mock.calls[0]![0]!;
    const base = { from: sender.address, to: receiver, amount: '12.5', mint: MINT, decimals: 6, recentBlockhash: BLOCKHASH };
    expect(Array.from(transaction)).toEqual(Array.from(buildSolanaTransfer({ ...base, createReceiverAccount: false })));
  });

  it('falls back to solana:signTransaction and sends the signed bytes through the gateway', async () => {
    const { send, calls, signTransaction } = setup({ sendFeature: 'signOnly' });
    expect(await send(NATIVE, '0.25')).toBe('gateway-signature');
    const signed: Uint8Array = (await signTransaction.mock.results[0]!.value)[0].signedTransaction;
    const sent = calls.find(({ method }) => method === 'sendTransaction')!;
    expect(sent.params).toEqual([
      Buffer.from(signed).toString('base64'),
      { encoding: 'base64', preflightCommitment: 'confirmed' },
    ]);
  });

  it('reports a declined request as a rejection, not a failure', async () => {
    const { send } = setup({ rejectSign: true });
    await expect(send(NATIVE, '1')).rejects.toBeInstanceOf(SolanaSendRejectedError);
  });

  it("reports other failures with the documented message and the cause", async () => {
    const cause = new RpcError(-32002, 'Transaction simulation failed');
    const { send } = setup({ gatewayError: cause });
    const error = await send(NATIVE, '1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SolanaSendError);
    expect((error as SolanaSendError).message).toBe(SOLANA_SEND_FAILED_MESSAGE);
    expect((error as SolanaSendError).message).toBe('Failed to send transaction. Please try again.');
    expect((error as SolanaSendError).cause).toBe(cause);
  });

  it('fails when the wallet cannot send transactions', async () => {
    const { send, calls } = setup({ sendFeature: 'none' });
    await expect(send(NATIVE, '1')).rejects.toBeInstanceOf(SolanaSendError);
    expect(calls).toEqual([]);
  });

  it("refuses input the user can fix with the core's message, before any network call", async () => {
    const { send, calls } = setup();
    const cases: [string, string, string][] = [
      ['', receiver, 'Please enter a valid amount and receiver address'],
      ['1', '', 'Please enter a valid amount and receiver address'],
      ['1', 'nope', 'Invalid Solana address'],
      ['0', receiver, 'Invalid amount: must be greater than zero'],
      ['1.0000000001', receiver, 'Invalid amount: more decimal places than the token has'],
    ];
    for (const [amount, to, message] of cases) {
      const error = await send(NATIVE, amount, to).catch((e: unknown) => e);
      expect(error, `${amount} to ${to}`).toBeInstanceOf(LatchError);
      expect((error as Error).message).toBe(message);
    }
    expect(calls).toEqual([]);
  });
});
