// @latch/wasm-vault entry for Node >= 20: instantiates synchronously at import.
import { readFileSync } from 'node:fs';
import { initSync } from './web/latch_wasm_vault.js';

initSync({ module: readFileSync(new URL('./web/latch_wasm_vault_bg.wasm', import.meta.url)) });

export * from './web/latch_wasm_vault.js';

export function init() {
  return Promise.resolve();
}
