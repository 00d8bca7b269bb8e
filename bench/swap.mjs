// The quote timings of scripts/bench-swap: sequential requests, one at a time, so each
// latency is the request's own (no queueing behind others).
import { readFileSync } from 'node:fs';
import os from 'node:os';

const [api, rpc, file] = process.argv.slice(2);
const fixture = JSON.parse(readFileSync(file, 'utf8'));
const { usdc, ltk, lbt, lct } = fixture.contracts;
const user = fixture.accounts[1].address;
const quoteUrl = (from, to, amount) =>
  `${api}/v1/convert/quotes?projectId=demo&amount=${amount}&from=eip155:31337:${from.address}&to=eip155:31337:${to.address}&userAddress=${user}`;
// Both markets are read for every quote (V2 pairs and V3 pools, one Multicall3 batch each, side
// by side); the first route only V2 can fill, the second only V3 (LBT and LCT have V3 pools only).
const routes = [
  { name: 'two-hop quote (V2: USDC → WETH → LTK)', url: quoteUrl(usdc, ltk, '1000000000'), source: 'uniswap-v2' },
  { name: 'two-hop quote (V3: LBT → WETH → LCT)', url: quoteUrl(lbt, lct, '1000000000000000000'), source: 'uniswap-v3' },
];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);

async function quote({ url, source }) {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.json();
  const took = performance.now() - started;
  const best = body.quotes?.[0];
  if (!response.ok || best?.path?.length !== 3 || best.source !== source) throw new Error(`bad quote: ${JSON.stringify(body)}`);
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
for (const route of routes) {
  await quote(route); // pool addresses are looked up once for the life of the process
  const warm = [];
  for (let i = 0; i < ROUNDS; i++) warm.push(await quote(route));
  const cold = [];
  for (let i = 0; i < ROUNDS; i++) {
    await mine();
    cold.push(await quote(route));
  }
  summary(`${route.name}, warm block cache`, warm);
  summary(`${route.name}, cold (new block each request)`, cold);
}
