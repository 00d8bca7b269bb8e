// @latch/wasm-vault entry for Node >= 20: instantiates synchronously at import.
import { readFileSync } from 'node:fs';
import { initSync } from './checks/latch_wasm_vault_checks.js';

initSync({ module: readFileSync(new URL('./checks/latch_wasm_vault_checks_bg.wasm', import.meta.url)) });

export * from './checks/latch_wasm_vault_checks.js';

export function init() {
  return Promise.resolve();
}
