// @latch/wasm/extra entry for Node >= 20: instantiates synchronously at import.
import { readFileSync } from 'node:fs';
import { initSync } from './extra/latch_wasm_extra.js';

initSync({ module: readFileSync(new URL('./extra/latch_wasm_extra_bg.wasm', import.meta.url)) });

export * from './extra/latch_wasm_extra.js';
export { LatchError } from './errors.js';

export function init() {
  return Promise.resolve();
}
