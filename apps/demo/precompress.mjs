// Writes `<file>.br` and `<file>.gz` beside each compressible file of the built demo, so
// `latch serve --static-dir` can send them to browsers that accept them without compressing
// on every request. Usage: node precompress.mjs <dir>
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.wasm', '.svg', '.json']);
const dir = process.argv[2];
if (!dir) throw new Error('usage: node precompress.mjs <dir>');

function* files(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (COMPRESSIBLE.has(extname(name))) yield path;
  }
}

let raw = 0;
let brotli = 0;
for (const path of files(dir)) {
  const bytes = readFileSync(path);
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  raw += bytes.length;
  brotli += br.length;
}
console.log(`precompress: ${raw} bytes → ${brotli} bytes brotli (and gzip) in ${dir}`);
