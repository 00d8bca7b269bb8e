// The built @latch/wasm-vault's four modules in plain Node: the frame's whole key story
// (split, rebuild, both envelopes, every signature) against the vectors
// latch-vault's Rust tests use (ethers 6, @solana/web3.js, @noble/curves).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as checks from '@latch/wasm-vault';
import * as login from '@latch/wasm-vault/login';
import * as keys from '@latch/wasm-vault/keys';
import * as recoveryModule from '@latch/wasm-vault/recovery';
import { Wallet } from '@latch/wasm-vault/keys';
import { deriveShare, shareIndex, splitSeed, walletAccounts } from '@latch/wasm-vault/login';
import { envelopeInfo, openWithPasskey, openWithPassword, sealWithPasskey, sealWithPassword } from '@latch/wasm-vault/recovery';

const vectors = JSON.parse(
  readFileSync(new URL('../../latch-vault/tests/vectors/standard-tools.json', import.meta.url), 'utf8'),
);
const bytes = (hex) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
const hex = (array) => '0x' + Buffer.from(array).toString('hex');
const seed = bytes(vectors.seed);
const coefficients = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);

describe('@latch/wasm-vault', () => {
  const [device, auth, recovery] = splitSeed(seed, coefficients);
  const wallet = Wallet.fromShares(device, auth);

  it('splits, and any two shares give the same accounts and the third share', () => {
    expect([device, auth, recovery].map(shareIndex)).toEqual([1, 2, 3]);
    expect(wallet.evmAddress).toBe(vectors.evm.address);
    expect(wallet.solanaAddress).toBe(vectors.solana.address);
    const recovered = Wallet.fromShares(auth, recovery);
    expect(recovered.evmAddress).toBe(vectors.evm.address);
    // The login module's accounts, from any two shares, are the signing module's.
    for (const [a, b] of [[device, auth], [auth, recovery], [recovery, device]]) {
      expect(walletAccounts(a, b)).toEqual({ evm: vectors.evm.address, solana: vectors.solana.address });
    }
    expect(() => walletAccounts(device, device)).toThrow(expect.objectContaining({ name: 'VaultError' }));
    expect(deriveShare(auth, recovery, 1)).toBe(device);
    recovered.free();
  });

  it('signs like ethers, @solana/web3.js and @noble/curves', () => {
    for (const { message, signature } of vectors.personalSign) expect(wallet.personalSign(message)).toBe(signature);
    expect(wallet.signTypedData(JSON.stringify(vectors.typedData.data))).toBe(vectors.typedData.signature);
    for (const { request, raw } of vectors.transactions) expect(wallet.signTransaction(JSON.stringify(request))).toBe(raw);
    expect(hex(wallet.solanaSignMessage(bytes(vectors.solanaSignMessage.message)))).toBe(vectors.solanaSignMessage.signature);
    expect(hex(wallet.solanaSignTransaction(bytes(vectors.solanaSignTransaction.unsigned)))).toBe(
      vectors.solanaSignTransaction.signed,
    );
    expect(wallet.exportPrivateKeys().evm).toBe(vectors.evm.privateKey);
  });

  it('signs what its approval summary says to sign', () => {
    const account = wallet.evmAddress;
    const { message, signature } = vectors.personalSign[0];
    const approval = keys.approvalSummary('personal_sign', JSON.stringify([message, account]), account);
    expect(approval).toMatchObject({ method: 'personal_sign', summary: { kind: 'message' }, sign: message });
    expect(wallet.personalSign(approval.sign)).toBe(signature);
    expect(() => keys.approvalSummary('eth_sign', '[]', account)).toThrow(
      expect.objectContaining({ name: 'RequestError', message: 'Requested RPC call is not allowed' }),
    );
    // EIP-5792: 100 pending, 200 confirmed.
    expect(keys.callsStatus(2, [true, null], false)).toBe(100);
    expect(keys.callsStatus(2, [true, true], true)).toBe(200);
  });

  it('seals and opens the recovery share with a passkey PRF output, bound to the user', () => {
    const prf = new Uint8Array(32).fill(9);
    const salt = new Uint8Array(32).fill(3);
    const envelope = sealWithPasskey(recovery, 'user-1', prf, 'cred_ID-1', salt, new Uint8Array(12).fill(4));
    expect(envelope.length).toBeLessThanOrEqual(2048);
    const info = envelopeInfo(envelope);
    expect(info.kind).toBe('passkey');
    expect(info.credentialId).toBe('cred_ID-1');
    expect(Array.from(info.salt)).toEqual(Array.from(salt));
    expect(openWithPasskey(envelope, 'user-1', prf)).toBe(recovery);
    expect(() => openWithPasskey(envelope, 'user-2', prf)).toThrow(
      expect.objectContaining({ name: 'VaultError', code: 'DECRYPTION_FAILED' }),
    );
  });

  it('seals and opens with a password through Argon2id at the default cost', () => {
    const started = performance.now();
    const envelope = sealWithPassword(recovery, 'user-1', 'correct horse', new Uint8Array(16).fill(1), new Uint8Array(12));
    const sealMs = performance.now() - started;
    expect(JSON.parse(envelope)).toMatchObject({ v: 1, kind: 'password', m: 19456, t: 2, p: 1 });
    expect(envelopeInfo(envelope).kind).toBe('password');
    expect(openWithPassword(envelope, 'user-1', 'correct horse')).toBe(recovery);
    expect(() => openWithPassword(envelope, 'user-1', 'wrong')).toThrow(expect.objectContaining({ code: 'DECRYPTION_FAILED' }));
    console.log(`Argon2id (19 MiB, t=2) seal in wasm: ${sealMs.toFixed(0)} ms`);
  });

  it('throws VaultError with a code on bad input', () => {
    expect(() => shareIndex('0x04' + 'ab'.repeat(32))).toThrow(expect.objectContaining({ code: 'INVALID_SHARE' }));
    expect(() => Wallet.fromShares(auth, auth)).toThrow(expect.objectContaining({ code: 'SAME_SHARE_TWICE' }));
    expect(() => splitSeed(new Uint8Array(31), coefficients)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => wallet.signTransaction('{}')).toThrow(expect.objectContaining({ code: 'INVALID_TRANSACTION' }));
    expect(() => wallet.signTypedData('{}')).toThrow(expect.objectContaining({ code: 'INVALID_TYPED_DATA' }));
    expect(() => wallet.solanaSignTransaction(new Uint8Array([1]))).toThrow(
      expect.objectContaining({ code: 'INVALID_SOLANA_TRANSACTION' }),
    );
  });
});

describe('parseFrameRequest (latch-core embedded::frame)', () => {
  const { parseFrameRequest } = checks;
  it('answers a good request normalized, as plain JS values', () => {
    const request = parseFrameRequest(
      JSON.stringify({ id: 'a1', type: 'CONNECT_EMAIL', payload: { email: ' Bob@Example.COM ', extra: 1 } }),
    );
    expect(request).toEqual({ id: 'a1', type: 'CONNECT_EMAIL', payload: { email: 'Bob@example.com' } });
    expect(parseFrameRequest(JSON.stringify({ id: 'n', type: 'SWITCH_NETWORK', payload: { chainId: 10 } }))).toEqual({
      id: 'n',
      type: 'SWITCH_NETWORK',
      payload: { chainId: 'eip155:10' },
    });
  });
  it('throws a SchemaError with the behaviour 5.17 messages', () => {
    const refusal = (message) => {
      try {
        parseFrameRequest(message);
      } catch (error) {
        return `${error.name} ${error.message}`;
      }
      return 'accepted';
    };
    expect(refusal(JSON.stringify({ id: 'a', type: 'CONNECT_OTP', payload: {} }))).toBe('SchemaError otp: Required');
    expect(refusal(JSON.stringify({ id: 'a', type: 'CONNECT_EMAIL', payload: { email: 'x' } }))).toBe(
      'SchemaError email: Invalid input',
    );
    expect(refusal('{')).toBe('SchemaError payload: Invalid input');
  });
});

describe('the four modules (scripts/build-wasm, src/lib.rs)', () => {
  // The frame page loads `checks` alone: nothing of the other three may be in it, and no export
  // is built into two modules (each is in one file of src/, under one feature).
  const exported = (module) => Object.keys(module).filter((name) => !['default', 'init', 'initSync'].includes(name));
  it('has each export in exactly one module', () => {
    expect(exported(checks)).toEqual(expect.arrayContaining(['parseFrameRequest', 'classifyRpcMethod']));
    expect(exported(login)).toEqual(expect.arrayContaining(['splitSeed', 'deriveShare', 'shareIndex', 'walletAccounts']));
    expect(exported(keys)).toEqual(expect.arrayContaining(['Wallet', 'approvalSummary', 'prepareTransaction', 'callsStatus']));
    expect(exported(recoveryModule)).toEqual(expect.arrayContaining(['sealWithPassword', 'openWithPassword', 'envelopeInfo']));
    const all = [...exported(checks), ...exported(login), ...exported(keys), ...exported(recoveryModule)];
    expect(all.length).toBe(new Set(all).size);
  });
});
