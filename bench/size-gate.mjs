// The size gate (`make size-gate`, part of `make test`): fails when a wasm module or a chunk of the
// demo's production build grows more than 1 kB (gzip) beyond size-budget.json, when a chunk
// appears or goes that the file does not list, or when the JS before the first open or the
// Connect view passes its budget. `node bench/size-gate.mjs --update` writes today's sizes as the
// new baseline: commit it with the change that explains the growth.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildDemo, kB, staticClosure, sum } from './ui-sizes.mjs';

const root = resolve(import.meta.dirname, '..');
const budgetFile = join(root, 'size-budget.json');
const GROWTH_ALLOWED = 1000;

const chunks = await buildDemo({ write: false });
const measured = new Map();
for (const chunk of chunks.values()) {
  if (chunk.file.endsWith('.html')) continue;
  const key = chunk.isEntry ? 'entry' : chunk.name;
  if (measured.has(key)) throw new Error(`two chunks named ${key}: give one a distinct name`);
  measured.set(key, chunk);
}

// What the page loads before the first open (without React, which the host has anyway), and
// what the Connect view adds: the modal chunk's static closure and the core wasm module.
const reactFiles = [...chunks.values()].filter((chunk) => chunk.name === 'react').map((chunk) => chunk.file);
const withoutReact = (files) => [...files].filter((file) => !reactFiles.includes(file));
const entries = [...chunks.values()].filter((chunk) => chunk.isEntry).map((chunk) => chunk.file);
const firstLoad = withoutReact(staticClosure(chunks, entries));
const modal = measured.get('Modal');
const coreWasm = measured.get('latch_wasm_bg.wasm');
if (!modal || !coreWasm) throw new Error('the demo build has no Modal chunk or core wasm module');
const connect = new Set([...firstLoad, ...withoutReact(staticClosure(chunks, [modal.file])), coreWasm.file]);
const totals = { firstLoad: sum(chunks, firstLoad), connect: sum(chunks, connect) };

if (process.argv.includes('--update')) {
  const previous = JSON.parse(readFileSync(budgetFile, 'utf8'));
  const sizes = Object.fromEntries([...measured.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, chunk]) => [key, chunk.gzip]));
  writeFileSync(budgetFile, `${JSON.stringify({ ...previous, sizes }, null, 2)}\n`);
  console.log(`wrote ${Object.keys(sizes).length} sizes to size-budget.json`);
  process.exit(0);
}

const budget = JSON.parse(readFileSync(budgetFile, 'utf8'));
const failures = [];
for (const [key, chunk] of measured) {
  const allowed = budget.sizes[key];
  if (allowed === undefined) failures.push(`${key} (${chunk.file}, ${chunk.gzip} B gzip) is not in size-budget.json`);
  else if (chunk.gzip > allowed + GROWTH_ALLOWED) failures.push(`${key}: ${chunk.gzip} B gzip, budget ${allowed} B + ${GROWTH_ALLOWED} B`);
}
for (const key of Object.keys(budget.sizes)) {
  if (!measured.has(key)) failures.push(`${key} is in size-budget.json but not in the build`);
}
for (const [what, limit] of Object.entries(budget.totals)) {
  if (totals[what] > limit) failures.push(`${what}: ${totals[what]} B gzip, budget ${limit} B`);
}

for (const [key, chunk] of measured) console.log(`${key.padEnd(28)} ${String(chunk.gzip).padStart(7)} B gzip (budget ${budget.sizes[key] ?? '—'})`);
console.log(`JS before the first open, without React: ${kB(totals.firstLoad)} kB gzip (budget ${kB(budget.totals.firstLoad)} kB)`);
console.log(`Connect view, wasm included, without React: ${kB(totals.connect)} kB gzip (budget ${kB(budget.totals.connect)} kB)`);
if (failures.length > 0) {
  console.error(`\nsize gate failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('size gate: met');
