// @latch/wasm-vault/login entry for Node >= 20: instantiates synchronously at import.
import { readFileSync } from 'node:fs';
import { initSync } from './login/latch_wasm_vault_login.js';

initSync({ module: readFileSync(new URL('./login/latch_wasm_vault_login_bg.wasm', import.meta.url)) });

export * from './login/latch_wasm_vault_login.js';

export function init() {
  return Promise.resolve();
}
