// @latch/wasm-vault entry for browsers and bundlers: the `checks` module (the host's messages
// checked, RPC methods classified), which the frame page loads with itself.
// Each of the package's four modules has its own init(), which loads it once with
// @latch/wasm's loader (plain JS, no wasm of @latch/wasm's comes with it).
import { wasmInit } from '@latch/wasm/loader';
import initBindings from './checks/latch_wasm_vault_checks.js';

export * from './checks/latch_wasm_vault_checks.js';

export const init = wasmInit(initBindings, new URL('./checks/latch_wasm_vault_checks_bg.wasm', import.meta.url));
