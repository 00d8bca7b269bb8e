// @latch/wasm entry for Node >= 20: instantiates synchronously at import, so
// init() resolves at once and the same code runs in Node and the browser.
import { readFileSync } from 'node:fs';
import { initSync } from './web/latch_wasm.js';

initSync({ module: readFileSync(new URL('./web/latch_wasm_bg.wasm', import.meta.url)) });

export * from './web/latch_wasm.js';
export { LATCH_CONSTANTS, LATCH_DEFAULT_FEATURES, LATCH_MESSAGES } from './constants.js';
export { LatchError } from './errors.js';

export function init() {
  return Promise.resolve();
}
