// @latch/wasm-vault/keys entry for browsers and bundlers: the `keys` module (the `Wallet` that
// signs, approval summaries), loaded at the first approval: import it dynamically.
// Each of the package's four modules has its own init(), which loads it once with
// @latch/wasm's loader (plain JS, no wasm of @latch/wasm's comes with it).
import { wasmInit } from '@latch/wasm/loader';
import initBindings from './keys/latch_wasm_vault_keys.js';

export * from './keys/latch_wasm_vault_keys.js';

export const init = wasmInit(initBindings, new URL('./keys/latch_wasm_vault_keys_bg.wasm', import.meta.url));
