// The quote timings of scripts/bench-swap: sequential requests, one at a time, so each
// latency is the request's own (no queueing behind others).
import { readFileSync } from 'node:fs';
import os from 'node:os';

const [api, rpc, file] = process.argv.slice(2);
const fixture = JSON.parse(readFileSync(file, 'utf8'));
const { usdc, ltk } = fixture.contracts;
const user = fixture.accounts[1].address;
const url = `${api}/v1/convert/quotes?projectId=demo&amount=1000000000&from=eip155:31337:${usdc.address}&to=eip155:31337:${ltk.address}&userAddress=${user}`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);

async function quote() {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.json();
  const took = performance.now() - started;
  if (!response.ok || body.quotes?.[0]?.path?.length !== 3) throw new Error(`bad quote: ${JSON.stringify(body)}`);
  return took;
}

const mine = () =>
  fetch(rpc, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]}' });

function summary(name, times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)].toFixed(2);
  console.log(`${name.padEnd(44)} p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  (${times.length} requests)`);
}

console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${new Date().toISOString().slice(0, 10)}`);
await quote(); // pool addresses are looked up once for the life of the process
const warm = [];
for (let i = 0; i < ROUNDS; i++) warm.push(await quote());
const cold = [];
for (let i = 0; i < ROUNDS; i++) {
  await mine();
  cold.push(await quote());
}
summary('two-hop quote, warm block cache', warm);
summary('two-hop quote, cold (new block each request)', cold);
