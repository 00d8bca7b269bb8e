// @latch/wasm-vault/approvals entry for browsers and bundlers: the `approvals` module (approval
// summaries, prepared transactions, EIP-5792 statuses), loaded at the first approval: import it
// dynamically. Each of the package's four modules has its own init(), which loads it once with
// @latch/wasm's loader (plain JS, no wasm of @latch/wasm's comes with it).
import { wasmInit } from '@latch/wasm/loader';
import initBindings from './approvals/latch_wasm_vault_approvals.js';

export * from './approvals/latch_wasm_vault_approvals.js';

export const init = wasmInit(initBindings, new URL('./approvals/latch_wasm_vault_approvals_bg.wasm', import.meta.url));
