// Byte and JSON encodings shared by the chain and the RPC layer.
import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';

import { getBase58Decoder, getBase58Encoder } from '@solana/kit';

const b58enc = getBase58Encoder();
const b58dec = getBase58Decoder();

/** Bytes → base58 string. */
export const toBase58 = (bytes) => b58dec.decode(bytes);

/** Base58 string → bytes; throws on characters outside the alphabet. */
export const fromBase58 = (text) => new Uint8Array(b58enc.encode(text));

export const toBase64 = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Strict base64 (Node's decoder silently skips bad characters). */
export function fromBase64(text) {
  if (typeof text !== 'string' || text.length % 4 !== 0 || !BASE64.test(text)) throw new Error('invalid base64');
  return new Uint8Array(Buffer.from(text, 'base64'));
}

export const sha256 = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

// RFC 8410 PKCS#8 prefix for a raw 32-byte ed25519 seed.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A Solana keypair from a 32-byte seed: `secretKey` is seed ‖ public key, as solana-keygen writes it. */
export function keypairFromSeed(seed) {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = new Uint8Array(Buffer.from(jwk.x, 'base64url'));
  const secretKey = new Uint8Array(64);
  secretKey.set(seed, 0);
  secretKey.set(publicKey, 32);
  return { publicKey, secretKey, address: toBase58(publicKey), sign: (message) => new Uint8Array(sign(null, message, privateKey)) };
}

/** Solana's compact-u16 ("shortvec") length prefix. */
export function compactU16(n) {
  const out = [];
  let rest = n;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

// JSON with exact u64s: bigints are written as bare integers (JSON.rawJSON is not in Node 20).
const BIG = '\u0000big:';
const BIG_PATTERN = /"\\u0000big:(\d+)"/g;
export function stringify(value) {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${BIG}${v}` : v)).replace(BIG_PATTERN, '$1');
}

/** A u64 as a JSON number when exact, else as a bigint for `stringify`. */
export const u64 = (n) => (BigInt(n) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : BigInt(n));

/** `amount` (base units) with `decimals` as the RPC's uiAmountString: no trailing zeros, no exponent. */
export function uiAmountString(amount, decimals) {
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

export function tokenAmount(amount, decimals) {
  const s = uiAmountString(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(s), uiAmountString: s };
}
