// @latch/wasm-walletconnect entry for Node >= 20: instantiates synchronously at import.
import { readFileSync } from 'node:fs';
import { initSync } from './web/latch_wasm_walletconnect.js';

initSync({ module: readFileSync(new URL('./web/latch_wasm_walletconnect_bg.wasm', import.meta.url)) });

export * from './web/latch_wasm_walletconnect.js';
export { LatchError } from './latch-error.js';

export function init() {
  return Promise.resolve();
}
