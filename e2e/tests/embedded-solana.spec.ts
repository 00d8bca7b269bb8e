// The embedded wallet on Solana (issue 28): an e-mail sign-up in the wallet frame (real SMTP, the
// frame `latch --dev` serves), then the Solana sign methods approved in the frame's own panel on
// the Solana devnet: a message whose ed25519 signature is checked here with node's crypto, and a
// SOL transfer built with @solana/web3.js, signed and sent by the frame through latch's gateway,
// whose receiver's balance is read from the devnet itself.
import { createPublicKey, verify } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { codeFor } from '../fixtures/mail.js';
import { setRecoveryPassword } from '../fixtures/recovery.js';
import { ask, openFrame } from '../fixtures/frame.js';
import { lamportsOf as lamports, solanaRpc as rpc } from '../fixtures/solana-devnet.js';
import { readSolanaDevnet } from '../fixtures/stack.js';


/** An ed25519 public key (32 raw bytes) as node's KeyObject. */
const ed25519Key = (raw: Uint8Array) =>
  createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') }, format: 'jwk' });

test('an e-mail wallet signs a Solana message and sends SOL on the devnet after approval in the frame', async ({ page }) => {
  test.setTimeout(90_000);
  const { caipNetworkId: chainId } = readSolanaDevnet();
  const email = `solana-${Date.now()}@example.com`;
  await openFrame(page);
  expect((await ask(page, 'CONNECT_EMAIL', { email })).type).toBe('CONNECT_EMAIL_SUCCESS');
  const connecting = ask(page, 'CONNECT_OTP', { otp: await codeFor(email, 0) });
  const frame = page.frameLocator('iframe[title="wallet"]');
  await setRecoveryPassword(frame);
  const connected = await connecting;
  const accounts = connected.payload.accounts as { address: string; namespace: string }[];
  const address = accounts.find((account) => account.namespace === 'solana')!.address;
  const owner = new PublicKey(address);
  const panel = frame.getByTestId('approve-transaction');

  // solana_signMessage: the panel shows the text; the signature verifies under the account's key.
  const text = `Sign in to the demo as ${email}`;
  const message = new TextEncoder().encode(text);
  const signing = ask(page, 'RPC_REQUEST', {
    method: 'solana_signMessage',
    params: { message: bs58(message), pubkey: address },
    chainId,
  });
  await expect(panel.getByRole('heading', { level: 1 })).toHaveText('Sign message');
  await expect(panel).toContainText(text);
  await panel.getByTestId('approve-confirm').click();
  const signed = await signing;
  expect(signed.type).toBe('RPC_REQUEST_SUCCESS');
  const signature = unbs58((signed.payload as { signature: string }).signature);
  expect(signature).toHaveLength(64);
  expect(verify(null, message, ed25519Key(owner.toBytes()), signature)).toBe(true);
  expect(verify(null, new TextEncoder().encode('another'), ed25519Key(owner.toBytes()), signature)).toBe(false);

  // Another account's key is refused before any panel.
  const stranger = Keypair.generate().publicKey.toBase58();
  expect(
    await ask(page, 'RPC_REQUEST', { method: 'solana_signMessage', params: { message: bs58(message), pubkey: stranger }, chainId }),
  ).toEqual({ type: 'RPC_REQUEST_ERROR', payload: { message: 'params: the request names another account', code: -32602 } });

  // Fund the new account on the devnet, then send 0.25 SOL to a fresh receiver.
  await rpc('requestAirdrop', [address, 2_000_000_000]);
  await expect.poll(() => lamports(address), { timeout: 20_000 }).toBe(2_000_000_000n);
  const receiver = Keypair.generate().publicKey;
  const { value } = await rpc<{ value: { blockhash: string } }>('getLatestBlockhash', [{ commitment: 'confirmed' }]);
  const transaction = new Transaction({ feePayer: owner, recentBlockhash: value.blockhash }).add(
    SystemProgram.transfer({ fromPubkey: owner, toPubkey: receiver, lamports: 250_000_000 }),
  );
  const wire = transaction.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');

  // A rejection answers 4001 and sends nothing.
  const rejected = ask(page, 'RPC_REQUEST', { method: 'solana_signAndSendTransaction', params: { transaction: wire }, chainId });
  await expect(panel).toBeVisible();
  await panel.getByTestId('approve-reject').click();
  expect(await rejected).toEqual({ type: 'RPC_REQUEST_ERROR', payload: { message: 'User rejected the request', code: 4001 } });

  const sending = ask(page, 'RPC_REQUEST', {
    method: 'solana_signAndSendTransaction',
    params: { transaction: wire, sendOptions: { preflightCommitment: 'confirmed', maxRetries: 2 } },
    chainId,
  });
  // The panel shows what is signed: the payer, the blockhash and the transfer, decoded.
  await expect(panel.getByRole('heading', { level: 1 })).toHaveText('Approve transaction');
  await expect(panel).toContainText('SOL transfer');
  await expect(panel).toContainText(receiver.toBase58());
  await expect(panel).toContainText('0.25 SOL');
  await expect(panel).toContainText(value.blockhash);
  await panel.getByTestId('approve-confirm').click();
  const sent = await sending;
  expect(sent.type).toBe('RPC_REQUEST_SUCCESS');
  const sentSignature = (sent.payload as { signature: string }).signature;
  expect(unbs58(sentSignature)).toHaveLength(64);
  await expect.poll(() => lamports(receiver.toBase58()), { timeout: 20_000 }).toBe(250_000_000n);
  expect(await lamports(address)).toBeLessThan(1_750_000_000n);
});

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (the WalletConnect Solana encoding), written here independently of Latch's. */
function bs58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

function unbs58(text: string): Uint8Array {
  let n = 0n;
  for (const char of text) n = n * 58n + BigInt(ALPHABET.indexOf(char));
  const hex = n === 0n ? '' : n.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = text.length - text.replace(/^1+/, '').length;
  return new Uint8Array([...new Uint8Array(zeros), ...body]);
}
