// @latch/wasm-vault/login entry for browsers and bundlers: the `login` module (shares split and
// combined, the accounts two shares give), loaded at login: import it dynamically.
// Each of the package's four modules has its own init(), which loads it once with
// @latch/wasm's loader (plain JS, no wasm of @latch/wasm's comes with it).
import { wasmInit } from '@latch/wasm/loader';
import initBindings from './login/latch_wasm_vault_login.js';

export * from './login/latch_wasm_vault_login.js';

export const init = wasmInit(initBindings, new URL('./login/latch_wasm_vault_login_bg.wasm', import.meta.url));
