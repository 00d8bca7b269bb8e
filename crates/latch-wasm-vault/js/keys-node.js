// @latch/wasm-vault/keys entry for Node >= 20: instantiates synchronously at import.
import { readFileSync } from 'node:fs';
import { initSync } from './keys/latch_wasm_vault_keys.js';

initSync({ module: readFileSync(new URL('./keys/latch_wasm_vault_keys_bg.wasm', import.meta.url)) });

export * from './keys/latch_wasm_vault_keys.js';

export function init() {
  return Promise.resolve();
}
