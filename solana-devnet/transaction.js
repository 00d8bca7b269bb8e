// Wire-format transactions: parsing (strict: every byte accounted for), signature checks, fees.
import { createPublicKey, verify } from 'node:crypto';

import { getCompiledTransactionMessageDecoder } from '@solana/kit';

import { compactU16, fromBase58, toBase58 } from './encoding.js';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
export const LAMPORTS_PER_SIGNATURE = 5000n;
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n;
const MAX_UNITS = 1_400_000n;

const messageDecoder = getCompiledTransactionMessageDecoder();

function readCompactU16(bytes, offset) {
  let value = 0;
  for (let i = 0; i < 3; i += 1) {
    if (offset + i >= bytes.length) throw new Error('truncated length');
    const byte = bytes[offset + i];
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return [value, offset + i + 1];
  }
  throw new Error('length too long');
}

/**
 * Decodes a compiled message and checks it is self-consistent (what Solana calls sanitising):
 * indexes in range, signer counts possible. Throws with a short reason.
 */
export function parseMessage(messageBytes) {
  let message;
  let end;
  try {
    [message, end] = messageDecoder.read(messageBytes, 0);
  } catch (err) {
    throw new Error(`invalid message: ${err.message}`);
  }
  if (end !== messageBytes.length) throw new Error('invalid message: trailing bytes');
  const { header, staticAccounts, instructions } = message;
  const lookups = message.addressTableLookups ?? [];
  const loadedCount = lookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0);
  const keyCount = staticAccounts.length + loadedCount;
  if (header.numSignerAccounts === 0 || header.numSignerAccounts > staticAccounts.length) {
    throw new Error('invalid message: signer count');
  }
  if (header.numReadonlySignerAccounts >= header.numSignerAccounts) throw new Error('invalid message: no writable fee payer');
  if (header.numReadonlyNonSignerAccounts > staticAccounts.length - header.numSignerAccounts) {
    throw new Error('invalid message: readonly count');
  }
  if (new Set(staticAccounts).size !== staticAccounts.length) throw new Error('invalid message: duplicate account key');
  for (const ix of instructions) {
    if (ix.programAddressIndex === 0 || ix.programAddressIndex >= staticAccounts.length) {
      throw new Error('invalid message: program index');
    }
    for (const i of ix.accountIndices ?? []) if (i >= keyCount) throw new Error('invalid message: account index');
  }
  return message;
}

/** Parses a wire transaction: `{ signatures (base58), signatureBytes, messageBytes, message }`. */
export function parseTransaction(bytes) {
  const [count, start] = readCompactU16(bytes, 0);
  const messageStart = start + 64 * count;
  if (messageStart > bytes.length) throw new Error('truncated signatures');
  const signatureBytes = [];
  for (let i = 0; i < count; i += 1) signatureBytes.push(bytes.subarray(start + 64 * i, start + 64 * (i + 1)));
  const messageBytes = bytes.subarray(messageStart);
  const message = parseMessage(messageBytes);
  if (count !== message.header.numSignerAccounts) throw new Error('signature count does not match the message');
  return { signatures: signatureBytes.map(toBase58), signatureBytes, messageBytes, message };
}

function publicKey(address) {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(fromBase58(address)).toString('base64url') },
    format: 'jwk',
  });
}

/** True when every signature is a valid ed25519 signature of the message by its signer. */
export function signaturesValid(tx) {
  return tx.signatureBytes.every((sig, i) => {
    try {
      return verify(null, tx.messageBytes, publicKey(tx.message.staticAccounts[i]), sig);
    } catch {
      return false;
    }
  });
}

const u32 = (data, at) => data[at] | (data[at + 1] << 8) | (data[at + 2] << 16) | (data[at + 3] * 2 ** 24);
const u64 = (data, at) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).readBigUInt64LE(at);

/**
 * The fee the runtime charges: 5000 lamports per signature plus the priority fee
 * (compute-unit price × limit, rounded up; the limit defaults to 200k per non-compute-budget instruction).
 */
export function messageFee(message) {
  let price = 0n;
  let limit = null;
  let other = 0n;
  for (const ix of message.instructions) {
    const data = ix.data ?? new Uint8Array();
    if (message.staticAccounts[ix.programAddressIndex] !== COMPUTE_BUDGET_PROGRAM) {
      other += 1n;
    } else if (data[0] === 2 && data.length === 5) {
      limit = BigInt(u32(data, 1));
    } else if (data[0] === 3 && data.length === 9) {
      price = u64(data, 1);
    }
  }
  const units = limit ?? (other * DEFAULT_UNITS_PER_INSTRUCTION < MAX_UNITS ? other * DEFAULT_UNITS_PER_INSTRUCTION : MAX_UNITS);
  const priority = (price * units + 999_999n) / 1_000_000n;
  return LAMPORTS_PER_SIGNATURE * BigInt(message.header.numSignerAccounts) + priority;
}

/** True when the first instruction advances a durable nonce (such transactions carry a nonce, not a blockhash). */
export function usesDurableNonce(message) {
  const ix = message.instructions[0];
  if (!ix || message.staticAccounts[ix.programAddressIndex] !== SYSTEM_PROGRAM) return false;
  const data = ix.data ?? new Uint8Array();
  return data.length === 4 && u32(data, 0) === 4;
}

/** A signed legacy System transfer (how the faucet pays airdrops, as solana-test-validator's faucet does). */
export function transferTransaction(payer, to, lamports, blockhash) {
  const data = Buffer.alloc(12);
  data.writeUInt32LE(2, 0);
  data.writeBigUInt64LE(lamports, 4);
  const message = Buffer.concat([
    Buffer.from([1, 0, 1]),
    Buffer.from(compactU16(3)),
    Buffer.from(payer.publicKey),
    Buffer.from(fromBase58(to)),
    Buffer.from(fromBase58(SYSTEM_PROGRAM)),
    Buffer.from(fromBase58(blockhash)),
    Buffer.from(compactU16(1)),
    Buffer.from([2, ...compactU16(2), 0, 1, ...compactU16(data.length)]),
    data,
  ]);
  return new Uint8Array(Buffer.concat([Buffer.from(compactU16(1)), Buffer.from(payer.sign(message)), message]));
}
