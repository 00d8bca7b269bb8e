// `make bench-core`: what @latch/wasm costs a page. Size of its two modules (raw and
// gzip) and the per-call time of the hot functions called from JS (Node, the
// same V8 as Chromium). Budgets (issue 3): ≤ 150 kB gzip; a formatting call ≤ 2 µs.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as core from '@latch/wasm';
import * as extra from '@latch/wasm/extra';

await Promise.all([core.init(), extra.init()]);
const wasm = { ...extra, ...core };
const sizes = Object.entries({ core: 'web/latch_wasm_bg.wasm', extra: 'extra/latch_wasm_extra_bg.wasm' }).map(([name, file]) => {
  const module = readFileSync(new URL(`../packages/wasm/${file}`, import.meta.url));
  return { name, raw: module.length, gzip: gzipSync(module, { level: 9 }).length };
});

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const NOW = 1_763_770_000_000;
const WC_URI = 'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303';
const cases = {
  formatBalance: () => wasm.formatBalance('9999.99987', 'ETH'),
  formatUnits: () => wasm.formatUnits('0x21e19e0c9bab2400000', 18),
  truncateAddress: () => wasm.truncateAddress(ADDRESS),
  parseCaipAddress: () => wasm.parseCaipAddress(`eip155:1:${ADDRESS}`),
  toChecksumAddress: () => wasm.toChecksumAddress(ADDRESS.toLowerCase()),
  formatValue: () => wasm.formatValue(1234.5678),
  formatNumber: () => wasm.formatNumber('1234567.891', 2),
  formatRelativeTime: () => wasm.formatRelativeTime(NOW - 7_200_000, NOW),
  isValidAddress: () => wasm.isValidAddress('eip155', ADDRESS),
  classifyRpcMethod: () => wasm.classifyRpcMethod('eth_sendTransaction'),
  buildNativeDeepLink: () => wasm.buildNativeDeepLink('rainbow:', WC_URI),
};

/** Median over several rounds of the mean time per call, in microseconds. */
function measure(fn, calls = 100_000, rounds = 7) {
  for (let i = 0; i < 10_000; i++) fn(); // warm up the JIT and the module
  const perCall = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    perCall.push(Number(process.hrtime.bigint() - start) / calls / 1000);
  }
  return perCall.sort((a, b) => a - b)[Math.floor(rounds / 2)];
}

for (const { name, raw, gzip } of sizes) {
  console.log(`@latch/wasm ${name} module: ${raw} bytes raw, ${gzip} bytes gzip (budget 150 kB gzip: ${gzip <= 150_000 ? 'met' : 'MISSED'})`);
}
for (const [name, fn] of Object.entries(cases)) {
  const us = measure(fn);
  console.log(`${name.padEnd(20)} ${us.toFixed(3)} µs/call`);
}
