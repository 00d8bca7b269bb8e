// Writes the vectors of tests.rs with viem (an independent ABI, DNS-packet and secp256k1 implementation).
// Run from the repository root (viem is in its node_modules): `node crates/latch-core/src/ccip/gen-vectors.mjs`.
import { writeFileSync } from 'node:fs';
import { encodeFunctionData, encodePacked, keccak256, toHex, parseAbi, namehash, encodeAbiParameters } from 'viem';
import { packetToBytes } from 'viem/ens';
import { sign, privateKeyToAccount } from 'viem/accounts';
const abi = parseAbi(['function resolve(bytes name, bytes data) view returns (bytes)', 'function addr(bytes32) view returns (address)', 'function addr(bytes32, uint256) view returns (bytes)', 'function text(bytes32, string) view returns (string)']);
const name = 'alice.latch.id';
const node = namehash(name);
const dns = toHex(packetToBytes(name));
const inner = {
  addr: encodeFunctionData({ abi, functionName: 'addr', args: [node] }),
  coin: encodeFunctionData({ abi, functionName: 'addr', args: [node, 0x80000000n + 31337n] }),
  text: encodeFunctionData({ abi, functionName: 'text', args: [node, 'avatar'] }),
};
const out = { dns };
for (const [k, v] of Object.entries(inner)) out[k] = encodeFunctionData({ abi, functionName: 'resolve', args: [dns, v] });
const resolver = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const result = encodeAbiParameters([{ type: 'string' }], ['https://example.test/a.png']);
out.result = result;
const hash = keccak256(encodePacked(['bytes', 'address', 'uint64', 'bytes32', 'bytes32'], ['0x1900', resolver, 1700000000n, keccak256(out.text), keccak256(result)]));
out.hash = hash;
const pk = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const sig = await sign({ hash, privateKey: pk, to: 'hex' });
out.sig = sig;
out.response = encodeAbiParameters([{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }], [result, 1700000000n, sig]);
out.signer = privateKeyToAccount(pk).address;
writeFileSync(new URL('vectors.json', import.meta.url), `${JSON.stringify(out, null, 1)}\n`);
