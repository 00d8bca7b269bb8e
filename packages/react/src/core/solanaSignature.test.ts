import { describe, expect, it } from 'vitest';
import { solanaSignatureText } from './solanaSignature.js';
import { toBase58 } from '../test/base58.js';

describe('solanaSignatureText', () => {
  it('is the base58 text of a 64-byte signature, as latch-core writes it', async () => {
    const signature = Uint8Array.from({ length: 64 }, (_, index) => (index * 37 + 11) % 256);
    expect(await solanaSignatureText(signature)).toBe(toBase58(signature));
    expect(await solanaSignatureText(new Uint8Array(64))).toBe('1'.repeat(64));
  });

  it('refuses anything but 64 bytes with a clear error', async () => {
    await expect(solanaSignatureText(new Uint8Array(63))).rejects.toThrow('Invalid signature');
  });
});
