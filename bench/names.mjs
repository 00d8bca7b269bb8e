// The timings of scripts/bench-names: sequential requests, one at a time, so each latency is
// the request's own (no queueing behind others).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { ccipRequest, createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { getEnsAddress } from 'viem/ens';

const [api, rpc, file] = process.argv.slice(2);
const fixture = JSON.parse(readFileSync(file, 'utf8'));
const universalResolverAddress = fixture.contracts.universalResolver;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 500);

// Registered as the modal does: the owner signs the registration message.
const account = privateKeyToAccount(generatePrivateKey());
const name = 'benchmark.latch.id';
const message = JSON.stringify({ name, attributes: { bio: 'bench' }, timestamp: Math.floor(Date.now() / 1000) });
const registered = await fetch(`${api}/v1/profile/account?projectId=demo`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    coin_type: 0x80000000 + fixture.chainId,
    address: account.address,
    message,
    signature: await account.signMessage({ message }),
  }),
});
if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`);

// viem's own gateway request, captured on its way out.
let lookup;
const client = createPublicClient({
  transport: http(rpc),
  ccipRead: {
    request: async (request) => {
      lookup = request;
      return ccipRequest(request);
    },
  },
});
const resolve = () => getEnsAddress(client, { name, universalResolverAddress });
if ((await resolve()) !== account.address) throw new Error('the name did not resolve to its owner');
const { sender, data } = lookup;

async function timed(send) {
  const started = performance.now();
  const response = await send();
  const body = await response.json();
  const took = performance.now() - started;
  if (!response.ok || !body.data?.startsWith('0x')) throw new Error(`bad answer: ${JSON.stringify(body)}`);
  return took;
}
const post = () =>
  fetch(`${api}/ccip`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sender, data }) });
const get = () => fetch(`${api}/ccip/${sender}/${data}.json`);

function summary(label, times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)].toFixed(2);
  console.log(`${label.padEnd(48)} p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  (${times.length} requests)`);
}

async function rounds(run) {
  for (let i = 0; i < 20; i++) await run(); // warm the connection and the store's pages
  const times = [];
  for (let i = 0; i < ROUNDS; i++) times.push(await run());
  return times;
}

console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${new Date().toISOString().slice(0, 10)}`);
summary('CCIP-Read answer, POST /ccip', await rounds(() => timed(post)));
summary('CCIP-Read answer, GET /ccip/{sender}/{data}.json', await rounds(() => timed(get)));
summary(
  'viem getEnsAddress end to end (chain + gateway)',
  await rounds(async () => {
    const started = performance.now();
    if ((await resolve()) !== account.address) throw new Error('resolution changed');
    return performance.now() - started;
  }),
);
