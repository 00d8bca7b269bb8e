// Writes solana_transfer.json beside this file from the reference implementations:
// @solana/web3.js 1.x (MIT) compiles and serializes the transactions, @solana/spl-token 0.4
// (Apache-2.0) builds the token instructions and derives associated token addresses. latch-core
// must give the same bytes (tests/vectors_solana_transfer.rs, and the built @latch/wasm through
// crates/latch-wasm/tests-js). Run from the repository root: node crates/latch-core/vectors/solana_transfer.gen.mjs
import { writeFileSync } from 'node:fs';
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import {
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';

// Fixed keys, so the file is the same on every run.
const key = (byte) => Keypair.fromSeed(new Uint8Array(32).fill(byte)).publicKey;
const bytesKey = (byte) => new PublicKey(new Uint8Array(32).fill(byte));
const alice = key(1);
const bob = key(2);
const carol = key(3);
const usdc = new PublicKey('8hLX1tyjXmUYYLbKsaevDBykWZXAyMYuYAJrXUvrnmBP'); // the Solana devnet's USDC mint
const mint2022 = bytesKey(9);
const blockhash = bytesKey(42).toBase58();
// A program-derived (off-curve) receiver: a token account can belong to one.
const pdaOwner = PublicKey.findProgramAddressSync([Buffer.from('vault')], TOKEN_PROGRAM_ID)[0];

/** Decimal text to base units with BigInt, the reference for the amount cases. */
function units(text, decimals) {
  const [whole, padded = ''] = text.split('.');
  const fraction = padded.replace(/0+$/, '');
  if (fraction.length > decimals) throw new Error(`${text} has more than ${decimals} decimals`);
  return (BigInt(whole || '0') * 10n ** BigInt(decimals) + BigInt((fraction.padEnd(decimals, '0') || '0'))).toString();
}

function wire(payer, instructions) {
  const message = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions }).compileToLegacyMessage();
  return Array.from(new VersionedTransaction(message).serialize());
}

function sol(from, to, amount) {
  return {
    input: [{ from: from.toBase58(), to: to.toBase58(), amount, recentBlockhash: blockhash }],
    expected: wire(from, [SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: BigInt(units(amount, 9)) })]),
  };
}

function spl(from, to, mint, amount, decimals, { program, create = true, name } = {}) {
  const programId = program ?? TOKEN_PROGRAM_ID;
  const source = getAssociatedTokenAddressSync(mint, from, true, programId);
  const destination = getAssociatedTokenAddressSync(mint, to, true, programId);
  const instructions = [];
  if (create) instructions.push(createAssociatedTokenAccountIdempotentInstruction(from, destination, to, mint, programId));
  instructions.push(
    createTransferCheckedInstruction(source, mint, destination, from, BigInt(units(amount, decimals)), decimals, [], programId),
  );
  const request = { from: from.toBase58(), to: to.toBase58(), amount, decimals, mint: mint.toBase58(), recentBlockhash: blockhash };
  if (name) request.tokenProgram = programId.toBase58();
  if (!create) request.createReceiverAccount = false;
  return { input: [request], expected: wire(from, instructions) };
}

const request = (fields) => ({ from: alice.toBase58(), to: bob.toBase58(), amount: '1', recentBlockhash: blockhash, ...fields });
const failure = (fields, error) => ({ input: [request(fields)], error });

const ata = (owner, mint, program) => ({
  input: program ? [owner.toBase58(), mint.toBase58(), program.toBase58()] : [owner.toBase58(), mint.toBase58()],
  expected: getAssociatedTokenAddressSync(mint, owner, true, program ?? TOKEN_PROGRAM_ID).toBase58(),
});

const amounts = [
  ['1', 9], ['0.1', 9], ['1.5', 6], ['12.345678', 6], ['0.000000001', 9], ['18446744073.709551615', 9],
  ['18446744073709551615', 0], ['1.50', 1], ['.5', 1], ['007', 0],
];

const vectors = {
  buildSolanaTransfer: [
    sol(alice, bob, '1.5'),
    sol(alice, carol, '0.000000001'),
    sol(bob, alice, '18446744073.709551615'),
    spl(alice, bob, usdc, '12.345678', 6),
    spl(alice, bob, usdc, '250', 6, { create: false }),
    spl(alice, pdaOwner, usdc, '0.5', 6),
    spl(carol, bob, mint2022, '3.000000001', 9, { program: TOKEN_2022_PROGRAM_ID, name: true }),
    spl(carol, bob, mint2022, '7', 9, { program: TOKEN_PROGRAM_ID, name: true, create: false }),
    failure({ amount: '' }, 'Please enter a valid amount and receiver address'),
    failure({ to: '  ' }, 'Please enter a valid amount and receiver address'),
    failure({ to: 'not-an-address' }, 'Invalid Solana address'),
    failure({ from: 'x' }, 'Invalid Solana address'),
    failure({ amount: '0' }, 'Invalid amount: must be greater than zero'),
    failure({ amount: '-1' }, 'Invalid amount: must not be negative'),
    failure({ amount: '1e3' }, 'Invalid amount: not a decimal number'),
    failure({ amount: '0.0000000001' }, 'Invalid amount: more decimal places than the token has'),
    failure({ amount: '18446744073.709551616' }, 'Invalid amount: too large for this token'),
    failure({ decimals: 6 }, 'Invalid Solana transfer: SOL has 9 decimals'),
    failure({ recentBlockhash: 'abc' }, 'Invalid Solana transfer: recentBlockhash must be a base58 hash of 32 bytes'),
    failure({ mint: usdc.toBase58() }, "Invalid Solana transfer: a token transfer needs the mint's decimals"),
    failure({ mint: usdc.toBase58(), decimals: 6, amount: '1.0000001' }, 'Invalid amount: more decimal places than the token has'),
    failure({ mint: 'bad', decimals: 6 }, 'Invalid Solana address'),
    failure(
      { mint: usdc.toBase58(), decimals: 6, tokenProgram: SystemProgram.programId.toBase58() },
      'Invalid Solana transfer: tokenProgram must be the Token or the Token-2022 program',
    ),
    failure({ createReceiverAccount: true }, 'Invalid Solana transfer: tokenProgram and createReceiverAccount need a mint'),
  ],
  solanaAssociatedTokenAddress: [
    ata(alice, usdc),
    ata(bob, usdc, TOKEN_PROGRAM_ID),
    ata(carol, mint2022, TOKEN_2022_PROGRAM_ID),
    ata(pdaOwner, usdc),
    ata(new PublicKey('7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv'), usdc),
    { input: ['bad', usdc.toBase58()], error: 'Invalid Solana address' },
    {
      input: [alice.toBase58(), usdc.toBase58(), alice.toBase58()],
      error: 'Invalid Solana transfer: tokenProgram must be the Token or the Token-2022 program',
    },
  ],
  parseSolanaAmount: [
    ...amounts.map(([text, decimals]) => ({ input: [text, decimals], expected: units(text, decimals) })),
    { input: ['', 9], error: 'Invalid amount: not a decimal number' },
    { input: ['0', 9], error: 'Invalid amount: must be greater than zero' },
    { input: ['-0.5', 9], error: 'Invalid amount: must not be negative' },
    { input: ['1.5', 0], error: 'Invalid amount: more decimal places than the token has' },
    { input: ['18446744073709551616', 0], error: 'Invalid amount: too large for this token' },
  ],
};

const out = new URL('./solana_transfer.json', import.meta.url);
// One line per byte array keeps the file readable.
const text = JSON.stringify(vectors, null, 1).replace(/\[\s*(\d+(?:,\s*\d+)*)\s*\]/g, (_, list) => `[${list.replace(/\s+/g, '')}]`);
writeFileSync(out, `${text}\n`);
console.log(`wrote ${out.pathname}`);
