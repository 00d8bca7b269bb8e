// @latch/wasm-vault/approvals entry for Node >= 20: instantiates synchronously at import.
import { readFileSync } from 'node:fs';
import { initSync } from './approvals/latch_wasm_vault_approvals.js';

initSync({ module: readFileSync(new URL('./approvals/latch_wasm_vault_approvals_bg.wasm', import.meta.url)) });

export * from './approvals/latch_wasm_vault_approvals.js';

export function init() {
  return Promise.resolve();
}
