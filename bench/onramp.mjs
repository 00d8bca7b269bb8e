// `make bench-onramp`: latency of GET /v1/onramp/options and POST /v1/onramp/quote answered from
// latch's cache (issue 26 budget: p99 ≤ 20 ms). Starts `latch serve --dev` (BENCH_LATCH, the release
// build by default) on a free port with the sandbox provider and no devnet: the quote is the
// marked estimate (no devnet runs, so the sandbox has no price), cached after the first answer, as the options are.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = process.env.BENCH_LATCH ?? 'target/release/latch';
const rounds = Number(process.env.ROUNDS ?? 2000);
const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const latch = spawn(bin, ['serve', '--dev', '--port', String(port)], {
  env: { ...process.env, LATCH_DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-onramp-')), LATCH_LOG: 'error',
    // Rate limits off: one client asks thousands of times in a row.
    LATCH_PROJECT_RATE_LIMIT: '{per_second=0, burst=1}', LATCH_IP_RATE_LIMIT: '{per_second=0, burst=1}' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise((resolve) => latch.stdout.on('data', (chunk) => String(chunk).includes('latch serving') && resolve()));
const base = `http://127.0.0.1:${port}`;
const quoteBody = JSON.stringify({ purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '25', network: 'eip155:31337' });

async function measure(name, call) {
  await call(); // fills the cache
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    const response = await call();
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(3);
  console.log(`| ${name} | ${rounds} | ${at(0.5)} ms | ${at(0.9)} ms | ${at(0.99)} ms |`);
}

try {
  console.log('| call | requests | p50 | p90 | p99 |\n| --- | ---: | ---: | ---: | ---: |');
  await measure('GET /v1/onramp/options', () => fetch(`${base}/v1/onramp/options?projectId=demo`));
  await measure('POST /v1/onramp/quote', () => fetch(`${base}/v1/onramp/quote?projectId=demo`, { method: 'POST', body: quoteBody }));
} finally {
  latch.kill();
}
