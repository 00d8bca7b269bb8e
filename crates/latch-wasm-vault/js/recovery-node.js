// @latch/wasm-vault/recovery entry for Node >= 20: instantiates synchronously at import.
import { readFileSync } from 'node:fs';
import { initSync } from './recovery/latch_wasm_vault_recovery.js';

initSync({ module: readFileSync(new URL('./recovery/latch_wasm_vault_recovery_bg.wasm', import.meta.url)) });

export * from './recovery/latch_wasm_vault_recovery.js';

export function init() {
  return Promise.resolve();
}
