// What the demo costs a page, from a production build of apps/demo: every chunk's gzip size,
// the JavaScript the page loads before the modal is opened (the entry and its static imports),
// and everything the Connect view needs (that, the chunks the opening imports, and the wasm).
// Issue 6 budgets: ≤ 25 kB gzip before the first open; ≤ 120 kB gzip for the Connect view.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const demo = join(root, 'apps/demo');

/** Gzip at level 9 (as `scripts/build-wasm` and Vite's own report count). */
export const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;
export const kB = (bytes) => (bytes / 1000).toFixed(1);

/**
 * Builds the demo in production mode; resolves to its chunks and assets with their sizes.
 * `write: false` measures without touching apps/demo/dist.
 */
export function buildDemo({ write = true } = {}) {
  return buildApp(demo, { write });
}

/** Builds the app in `dir` (its vite.config.ts) in production mode, as buildDemo does the demo. */
export async function buildApp(dir, { write = true } = {}) {
  const chunks = new Map();
  await build({
    root: dir,
    build: { write },
    configFile: join(dir, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    plugins: [
      {
        name: 'latch-bench-sizes',
        generateBundle(_options, bundle) {
          for (const item of Object.values(bundle)) {
            const bytes = Buffer.from(item.type === 'chunk' ? item.code : item.source);
            chunks.set(item.fileName, {
              file: item.fileName,
              // The chunk's name without its content hash (`SendView`, `latch_wasm_bg.wasm`).
              name: item.type === 'chunk' ? item.name : item.fileName.replace(/^assets\//, '').replace(/-[\w-]{8}(\.\w+)$/, '$1'),
              type: item.type,
              isEntry: item.type === 'chunk' && item.isEntry,
              imports: item.type === 'chunk' ? item.imports : [],
              dynamicImports: item.type === 'chunk' ? item.dynamicImports : [],
              // The styles a chunk brings in (a <link> the page loads with it).
              css: item.type === 'chunk' ? [...(item.viteMetadata?.importedCss ?? [])] : [],
              // Which packages make up a chunk, for the report.
              sources: item.type === 'chunk' ? describeModules(Object.keys(item.modules)) : '',
              code: item.type === 'chunk' ? item.code : undefined,
              raw: bytes.length,
              gzip: gzipSize(bytes),
            });
          }
        },
      },
    ],
  });
  return chunks;
}

function describeModules(ids) {
  const names = new Set();
  for (const id of ids) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
    if (match) names.add(match[1]);
    else if (id.includes('/packages/react/')) names.add('@latch/react');
    else if (id.includes('/packages/wasm/extra')) names.add('@latch/wasm/extra (bindings)');
    else if (id.includes('/packages/wasm/')) names.add('@latch/wasm (bindings)');
    else if (id.includes('/packages/wasm-walletconnect/')) names.add('@latch/wasm-walletconnect (bindings)');
    else if (id.includes('/packages/wasm-vault/')) names.add('@latch/wasm-vault (bindings)');
    else if (id.includes('/apps/vault/')) names.add('wallet frame');
    else if (id.includes('/apps/demo/')) names.add('demo app');
    else names.add(id.replace(/^\0/, ''));
  }
  return [...names].join(', ');
}

/** The chunk files a chunk needs before it runs: itself and its static imports, transitively. */
export function staticClosure(chunks, files) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of chunks.get(file)?.imports ?? []) visit(next);
  };
  files.forEach(visit);
  return seen;
}

export const sum = (chunks, files, key = 'gzip') => [...files].reduce((total, file) => total + chunks.get(file)[key], 0);

/** The size rows of the report; `connectFiles` are what the browser fetched to show the Connect view. */
export function sizeReport(chunks, connectFiles) {
  const lines = ['| file | what | raw | gzip |', '| --- | --- | ---: | ---: |'];
  for (const chunk of [...chunks.values()].sort((a, b) => b.gzip - a.gzip)) {
    if (chunk.file.endsWith('.html')) continue;
    const what = chunk.type === 'asset' ? 'asset' : `${chunk.isEntry ? 'entry' : 'chunk'}: ${chunk.sources}`;
    lines.push(`| \`${chunk.file}\` | ${what} | ${kB(chunk.raw)} kB | ${kB(chunk.gzip)} kB |`);
  }
  const entries = [...chunks.values()].filter((chunk) => chunk.isEntry).map((chunk) => chunk.file);
  const firstLoad = staticClosure(chunks, entries);
  // apps/demo/vite.config.ts puts React in a chunk named `react`.
  const react = [...chunks.keys()].filter((file) => /^assets\/react-[\w-]+\.js$/.test(file));
  const latchFirst = [...firstLoad].filter((file) => !react.includes(file));
  const connect = new Set(connectFiles);
  const connectLatch = [...connect].filter((file) => !react.includes(file));
  return {
    table: lines.join('\n'),
    firstLoad: { files: [...firstLoad], gzip: sum(chunks, firstLoad), withoutReact: sum(chunks, latchFirst), react: sum(chunks, react) },
    connect: { files: [...connect], gzip: sum(chunks, connect), withoutReact: sum(chunks, connectLatch) },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const chunks = await buildDemo();
  const entries = [...chunks.values()].filter((chunk) => chunk.isEntry).map((chunk) => chunk.file);
  const report = sizeReport(chunks, [...staticClosure(chunks, entries)]);
  console.log(report.table);
  console.log(`first load: ${kB(report.firstLoad.gzip)} kB gzip (React ${kB(report.firstLoad.react)} kB, the rest ${kB(report.firstLoad.withoutReact)} kB)`);
}
