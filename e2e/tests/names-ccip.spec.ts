// Latch names resolve everywhere (issue 27): a name registered through `latch`'s profile API
// resolves with viem's ENS actions (getEnsAddress, getEnsText) on the devnet, through the
// Universal Resolver, the zone's offchain resolver (EIP-3668 OffchainLookup) and `latch`'s
// CCIP-Read gateway, whose signed answer the resolver checks. A forged answer is refused by the
// resolver contract. No browser: viem in Node against the e2e stack's devnet and `latch`.
import { expect, test } from '@playwright/test';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getAddress,
  http,
  keccak256,
  namehash,
  parseAbi,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, sign } from 'viem/accounts';
import { getEnsAddress, getEnsText, packetToBytes } from 'viem/ens';
import { E2E_RPC_URL, E2E_SERVER_URL, readDevnet } from '../fixtures/stack.js';

const devnet = readDevnet();
const contracts = devnet.contracts as { offchainResolver: Address; universalResolver: Address };
const client = createPublicClient({ transport: http(E2E_RPC_URL) });
const universalResolverAddress = contracts.universalResolver;
const ZONE = 'latch.id';
/** ENSIP-11: the devnet chain's coin type. */
const COIN_TYPE = 0x80000000 + devnet.chainId;
const AVATAR = `${E2E_SERVER_URL}/avatar/latch-dev.png`;
/** anvil's account 9: the gateway's `--dev` signer, which the devnet's resolver trusts. */
const DEV_SIGNER_KEY: Hex = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';

const resolverAbi = parseAbi([
  'function resolve(bytes name, bytes data) view returns (bytes)',
  'function resolveWithProof(bytes response, bytes extraData) view returns (bytes)',
  'function addr(bytes32 node) view returns (address)',
  'error UntrustedSigner(address signer)',
  'error AnswerExpired(uint64 expires)',
  'error MalformedSignature()',
]);

/** Registers `label.<zone>` for a fresh key through the profile API, as the modal does. */
async function registerName(label: string, attributes: Record<string, string>) {
  const account = privateKeyToAccount(generatePrivateKey());
  const name = `${label}.${ZONE}`;
  const message = JSON.stringify({ name, attributes, timestamp: Math.floor(Date.now() / 1000) });
  const signature = await account.signMessage({ message });
  const response = await fetch(`${E2E_SERVER_URL}/v1/profile/account?projectId=demo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ coin_type: COIN_TYPE, address: account.address, message, signature }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return { name, address: account.address };
}

const freshLabel = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 8)}`;

test('a registered name resolves through the chain and the gateway: address and avatar', async () => {
  const { name, address } = await registerName(freshLabel('ccip'), { avatar: AVATAR });
  expect(await getEnsAddress(client, { name, universalResolverAddress })).toBe(address);
  // By coin type viem returns the record's bytes as they are (lower-case hex).
  const byCoin = await getEnsAddress(client, { name, coinType: BigInt(COIN_TYPE), universalResolverAddress });
  expect(byCoin && getAddress(byCoin)).toBe(address);
  expect(await getEnsText(client, { name, key: 'avatar', universalResolverAddress })).toBe(AVATAR);
  // A name nobody registered: the resolver's "no record" answer, which viem reads as null.
  const nobody = `${freshLabel('nobody')}.${ZONE}`;
  expect(await getEnsAddress(client, { name: nobody, universalResolverAddress })).toBeNull();
  expect(await getEnsText(client, { name: nobody, key: 'avatar', universalResolverAddress })).toBeNull();
});

/** The request the resolver sends the gateway for `addr(name)`: resolve(dnsName, addr(node)). */
function addrRequest(name: string): Hex {
  const data = encodeFunctionData({ abi: resolverAbi, functionName: 'addr', args: [namehash(name)] });
  return encodeFunctionData({ abi: resolverAbi, functionName: 'resolve', args: [toHex(packetToBytes(name)), data] });
}

/** A gateway answer for `request`, signed by `key` the way the gateway signs. */
async function answer(request: Hex, result: Hex, key: Hex, expires = BigInt(Math.floor(Date.now() / 1000) + 300)) {
  const digest = keccak256(
    encodePacked(['bytes', 'address', 'uint64', 'bytes32', 'bytes32'], ['0x1900', contracts.offchainResolver, expires, keccak256(request), keccak256(result)]),
  );
  const sig = await sign({ hash: digest, privateKey: key, to: 'hex' });
  return encodeAbiParameters([{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }], [result, expires, sig]);
}

/** The revert of `resolveWithProof(response, request)`, by error name; `undefined` if it returns. */
async function refusal(response: Hex, request: Hex): Promise<string | undefined> {
  try {
    await client.readContract({
      address: contracts.offchainResolver,
      abi: resolverAbi,
      functionName: 'resolveWithProof',
      args: [response, request],
    });
    return undefined;
  } catch (error) {
    const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError);
    return (reverted as ContractFunctionRevertedError | null)?.data?.errorName ?? String(error);
  }
}

test('the resolver refuses a forged gateway answer and takes the real one', async () => {
  const { name, address } = await registerName(freshLabel('forge'), {});
  const request = addrRequest(name);
  // The real gateway's answer (its GET form, the URL the resolver names) verifies.
  const fromGateway = await fetch(`${E2E_SERVER_URL}/ccip/${contracts.offchainResolver}/${request}.json`);
  expect(fromGateway.status).toBe(200);
  const { data } = (await fromGateway.json()) as { data: Hex };
  const result = await client.readContract({
    address: contracts.offchainResolver,
    abi: resolverAbi,
    functionName: 'resolveWithProof',
    args: [data, request],
  });
  expect(result).toBe(encodeAbiParameters([{ type: 'address' }], [address]));

  // Someone else's key claiming the name is theirs: refused.
  const attacker = privateKeyToAccount(generatePrivateKey()).address;
  const forged = await answer(request, encodeAbiParameters([{ type: 'address' }], [attacker]), generatePrivateKey());
  expect(await refusal(forged, request)).toBe('UntrustedSigner');
  // The real answer replayed for another request (another name): its signature no longer recovers the signer.
  expect(await refusal(data, addrRequest(`other.${ZONE}`))).toBe('UntrustedSigner');
  // The trusted key, but expired: refused too.
  const stale = await answer(request, encodeAbiParameters([{ type: 'address' }], [address]), DEV_SIGNER_KEY, 1n);
  expect(await refusal(stale, request)).toBe('AnswerExpired');
  // The trusted key with a fresh expiry is what the gateway does: accepted.
  const good = await answer(request, encodeAbiParameters([{ type: 'address' }], [address]), DEV_SIGNER_KEY);
  expect(await refusal(good, request)).toBeUndefined();
});
