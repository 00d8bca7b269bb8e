// The size gate (`make size-gate`, part of `make test`): fails when a wasm module or a chunk of the
// demo's production build grows more than 1 kB (gzip) beyond size-budget.json, when a chunk
// appears or goes that the file does not list, or when the JS before the first open or the
// Connect view passes its budget. The wallet frame (apps/vault) is gated the same way: each of its
// chunks and wasm modules (named `vault/…`), and what it loads before the user is connected and
// once signed in (issue 28: ≤ 80 kB each). `node bench/size-gate.mjs --update` writes today's sizes as the new baseline: commit
// it with the change that explains the growth.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildApp, buildDemo, kB, staticClosure, sum } from './ui-sizes.mjs';

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
// what the Connect view adds: the modal chunk's static closure, English and the core wasm module.
const reactFiles = [...chunks.values()].filter((chunk) => chunk.name === 'react').map((chunk) => chunk.file);
const withoutReact = (files) => [...files].filter((file) => !reactFiles.includes(file));
const entries = [...chunks.values()].filter((chunk) => chunk.isEntry).map((chunk) => chunk.file);
const firstLoad = withoutReact(staticClosure(chunks, entries));
const modal = measured.get('Modal');
const coreWasm = measured.get('latch_wasm_bg.wasm');
const english = measured.get('en');
if (!modal || !coreWasm || !english) throw new Error('the demo build has no Modal chunk, English catalogue or core wasm module');
// The modal opens with English's whole catalogue, a chunk of its own.
const connect = new Set([...firstLoad, ...withoutReact(staticClosure(chunks, [modal.file, english.file])), coreWasm.file]);

// The wallet frame: its page's JS and CSS and the `checks` module before the user is connected;
// `login` joins at login (issue 28's 80 kB holds for both), `keys` at the first approval,
// `recovery` when a password is set or entered.
const vaultChunks = await buildApp(join(root, 'apps/vault'), { write: false });
const vaultMeasured = new Map();
for (const chunk of vaultChunks.values()) {
  if (chunk.file.endsWith('.html')) continue;
  const key = `vault/${chunk.name}`;
  if (vaultMeasured.has(key)) throw new Error(`two frame chunks named ${key}: give one a distinct name`);
  vaultMeasured.set(key, chunk);
}
// A lazy module: its .wasm and its bindings' chunk (named after @latch/wasm-vault's entry file).
const vaultModule = (name) => {
  const wasm = vaultMeasured.get(`vault/latch_wasm_vault_${name}_bg.wasm`);
  if (!wasm) throw new Error(`the frame build has no ${name} wasm module`);
  if (name === 'checks') return [wasm.file];
  const bindings = vaultMeasured.get(`vault/${name}`);
  if (!bindings) throw new Error(`the frame build has no chunk named ${name} (the ${name} module's bindings)`);
  return [wasm.file, ...staticClosure(vaultChunks, [bindings.file])];
};
const frameEntry = [...vaultChunks.values()].find((chunk) => chunk.isEntry && chunk.name === 'frame');
if (!frameEntry) throw new Error('the frame build has no entry named frame');
const framePage = staticClosure(vaultChunks, [frameEntry.file]);
for (const file of [...framePage]) for (const css of vaultChunks.get(file).css) framePage.add(css);
const frameBeforeConnect = new Set([...framePage, ...vaultModule('checks')]);
const frameLogin = new Set([...frameBeforeConnect, ...vaultModule('login')]);
const frameKeys = new Set([...frameLogin, ...vaultModule('keys')]);
const frameAll = new Set([...frameKeys, ...vaultModule('recovery')]);
for (const [key, chunk] of vaultMeasured) measured.set(key, chunk);

const totals = {
  firstLoad: sum(chunks, firstLoad),
  connect: sum(chunks, connect),
  frameBeforeConnect: sum(vaultChunks, frameBeforeConnect),
  frameLogin: sum(vaultChunks, frameLogin),
};

if (process.argv.includes('--update')) {
  const previous = JSON.parse(readFileSync(budgetFile, 'utf8'));
  const sizes = Object.fromEntries([...measured.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, chunk]) => [key, chunk.gzip]));
  writeFileSync(budgetFile, `${JSON.stringify({ ...previous, sizes }, null, 2)}\n`);
  console.log(`wrote ${Object.keys(sizes).length} sizes to size-budget.json`);
  process.exit(0);
}

const budget = JSON.parse(readFileSync(budgetFile, 'utf8'));
const failures = [];

// The page has only `enPage` of English until the modal loads the whole catalogue: code that can
// run without the modal (the entry and what it loads other than the modal chunk) may name only
// those keys. Keys are found as string literals in the built code.
const localesDir = join(root, 'packages/react/src/locales');
const keysOf = (file) => [...readFileSync(join(localesDir, file), 'utf8').matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]);
const pageKeys = new Set(keysOf('enPage.ts'));
const modalKeys = keysOf('en.ts').filter((key) => !pageKeys.has(key));
const catalogueChunks = new Set([...chunks.values()].filter((chunk) => /^assets\/(en|de|es|fr|pt|ja|zh-CN|ko|tr|ru|enPage)-/.test(chunk.file)).map((chunk) => chunk.file));
const withoutModal = new Set();
const visit = (file) => {
  if (withoutModal.has(file) || file === modal.file || catalogueChunks.has(file)) return;
  withoutModal.add(file);
  const chunk = chunks.get(file);
  for (const next of [...(chunk?.imports ?? []), ...(chunk?.dynamicImports ?? [])]) visit(next);
};
entries.forEach(visit);
// Literals that share a key's name without naming the message.
const notMessages = new Map([['unsupportedChain', 'a WalletRequestError kind (core/transactions.ts)']]);
for (const file of withoutModal) {
  // React's own chunk says 'close' and 'cancel' as DOM event names.
  if (reactFiles.includes(file)) continue;
  const code = chunks.get(file).code ?? '';
  for (const key of modalKeys.filter((name) => !notMessages.has(name))) {
    if (code.includes(`"${key}"`) || code.includes(`'${key}'`)) failures.push(`${file} names the message ${key}, which is not in locales/enPage.ts`);
  }
}
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

for (const [key, chunk] of measured) console.log(`${key.padEnd(40)} ${String(chunk.gzip).padStart(7)} B gzip (budget ${budget.sizes[key] ?? '—'})`);
console.log(`JS before the first open, without React: ${kB(totals.firstLoad)} kB gzip (budget ${kB(budget.totals.firstLoad)} kB)`);
console.log(`Connect view, wasm included, without React: ${kB(totals.connect)} kB gzip (budget ${kB(budget.totals.connect)} kB)`);
console.log(
  `Wallet frame before connecting (page JS and CSS, checks module): ${kB(totals.frameBeforeConnect)} kB gzip (budget ${kB(budget.totals.frameBeforeConnect)} kB)`,
);
console.log(`Wallet frame signed in (+ the login module): ${kB(totals.frameLogin)} kB gzip (budget ${kB(budget.totals.frameLogin)} kB)`);
// Not gated as totals (their parts are): shown for BENCHMARKS.md's rows.
console.log(`Wallet frame with keys (+ at the first approval): ${kB(sum(vaultChunks, frameKeys))} kB gzip`);
console.log(`Wallet frame with recovery too (+ when a password is set or entered): ${kB(sum(vaultChunks, frameAll))} kB gzip`);
if (failures.length > 0) {
  console.error(`\nsize gate failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('size gate: met');
