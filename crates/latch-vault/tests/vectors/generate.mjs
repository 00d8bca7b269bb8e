// Writes standard-tools.json: what ethers 6 (BIP-32, EIP-191, EIP-712,
// transactions), ed25519-hd-key (SLIP-0010), @solana/web3.js 1 (keypairs,
// transactions) and @noble/curves (ed25519 messages) give for one fixed seed. latch-vault's tests
// (tests/standard_tools.rs) must give the same bytes: ECDSA (RFC 6979) and
// ed25519 are deterministic, so signatures match exactly.
//
// Run from the repository root (ethers and @solana/web3.js are in its
// node_modules); ed25519-hd-key (MIT) is not a dependency of the project:
//   npm install --prefix /tmp/vaultgen ed25519-hd-key@2.0.0
//   NODE_PATH=/tmp/vaultgen/node_modules node crates/latch-vault/tests/vectors/generate.mjs
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { HDNodeWallet, Transaction, hexlify } from 'ethers';
import { Keypair, PublicKey, SystemProgram, Transaction as SolanaTransaction } from '@solana/web3.js';
import { ed25519 } from '@noble/curves/ed25519';

const require = createRequire(import.meta.url);
const { derivePath } = require(require.resolve('ed25519-hd-key', { paths: process.env.NODE_PATH.split(':') }));

const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const evm = HDNodeWallet.fromSeed(seed).derivePath("m/44'/60'/0'/0/0");
const solanaKey = derivePath("m/44'/501'/0'/0'", Buffer.from(seed).toString('hex')).key;
const solana = Keypair.fromSeed(solanaKey);

const text = 'Sign in to Latch: héllo ✓';
const bytes = Uint8Array.from([0, 1, 2, 0xff, 0x80]);

// EIP-712's own example, signed by this key.
const mail = {
  domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' }, { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' },
    ],
    Person: [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }],
    Mail: [{ name: 'from', type: 'Person' }, { name: 'to', type: 'Person' }, { name: 'contents', type: 'string' }],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
};
const { EIP712Domain: _, ...mailTypes } = mail.types;

// eth_sendTransaction's JSON-RPC form (hex quantities), as the frame gets it
// once nonce, gas and fees are filled in.
const q = (n) => '0x' + BigInt(n).toString(16);
const requests = [
  { type: '0x0', chainId: q(31337), nonce: q(7), gasPrice: q(2_000_000_000n), gas: q(21000), to: '0x3535353535353535353535353535353535353535', value: q(10n ** 18n), data: '0x' },
  {
    type: '0x2', chainId: q(1), nonce: q(300), maxPriorityFeePerGas: q(1_500_000_000n), maxFeePerGas: q(80_000_000_000n), gas: q(90000),
    to: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', value: q(0),
    data: '0xa9059cbb000000000000000000000000bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb00000000000000000000000000000000000000000000000000000000000f4240',
    accessList: [{ address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', storageKeys: ['0x' + '00'.repeat(31) + '03', '0x' + '11'.repeat(32)] }],
  },
  // Contract creation (no `to`), with `input` as newer clients name the data.
  { type: '0x2', chainId: q(31337), nonce: q(0), maxPriorityFeePerGas: q(1), maxFeePerGas: q(2), gas: q(100000), value: q(5), input: '0x6080604052' },
];
const forEthers = ({ type, gas, input, data, to, ...rest }) => ({ ...rest, type: Number(type), gasLimit: gas, data: input ?? data, to: to ?? null });

const solanaTx = new SolanaTransaction({ feePayer: solana.publicKey, recentBlockhash: new PublicKey(Uint8Array.from({ length: 32 }, (_, i) => 200 - i)).toBase58() });
solanaTx.add(SystemProgram.transfer({ fromPubkey: solana.publicKey, toPubkey: new PublicKey(Uint8Array.from({ length: 32 }, (_, i) => i + 100)), lamports: 12345 }));
const unsigned = solanaTx.serialize({ requireAllSignatures: false, verifySignatures: false });
solanaTx.sign(solana);

const hex = (b) => hexlify(b);
const vectors = {
  seed: hex(seed),
  evm: { path: "m/44'/60'/0'/0/0", privateKey: evm.privateKey, address: evm.address },
  solana: { path: "m/44'/501'/0'/0'", privateKey: hex(solanaKey), address: solana.publicKey.toBase58() },
  personalSign: [
    { message: text, signature: await evm.signMessage(text) },
    { message: hex(bytes), signature: await evm.signMessage(bytes) },
  ],
  typedData: { data: mail, signature: await evm.signTypedData(mail.domain, mailTypes, mail.message) },
  transactions: await Promise.all(requests.map(async (request) => {
    const raw = await evm.signTransaction(forEthers(request));
    return { request, raw, hash: Transaction.from(raw).hash };
  })),
  solanaSignMessage: { message: hex(bytes), signature: hex(ed25519.sign(bytes, solanaKey)) },
  solanaSignTransaction: { unsigned: hex(unsigned), signed: hex(solanaTx.serialize()) },
};
const json = JSON.stringify(vectors, null, 2) + '\n';
writeFileSync(new URL('./standard-tools.json', import.meta.url), json);
console.log('wrote standard-tools.json');
