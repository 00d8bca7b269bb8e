// @latch/wasm entry for browsers and bundlers. Generated bindings live in ./web;
// this wrapper only adds an idempotent init() that also works under plain Node
// (e.g. Vitest), where fetch() cannot load a file: URL.
import initBindings from './web/latch_wasm.js';

export * from './web/latch_wasm.js';
export { LATCH_CONSTANTS, LATCH_MESSAGES } from './constants.js';
export { LatchError } from './errors.js';

let ready;

export function init() {
  ready ??= (async () => {
    const url = new URL('./web/latch_wasm_bg.wasm', import.meta.url);
    if (url.protocol === 'file:') {
      const fsModule = 'node:fs/promises';
      const { readFile } = await import(/* @vite-ignore */ fsModule);
      await initBindings({ module_or_path: await readFile(url) });
    } else {
      await initBindings({ module_or_path: url });
    }
  })();
  return ready;
}
