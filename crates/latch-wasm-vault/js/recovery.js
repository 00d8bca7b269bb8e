// @latch/wasm-vault/recovery entry for browsers and bundlers: the `recovery` module (the
// recovery share's envelopes: Argon2id, AES-GCM), loaded only when a recovery password is set or
// entered: import it dynamically.
// Each of the package's four modules has its own init(), which loads it once with
// @latch/wasm's loader (plain JS, no wasm of @latch/wasm's comes with it).
import { wasmInit } from '@latch/wasm/loader';
import initBindings from './recovery/latch_wasm_vault_recovery.js';

export * from './recovery/latch_wasm_vault_recovery.js';

export const init = wasmInit(initBindings, new URL('./recovery/latch_wasm_vault_recovery_bg.wasm', import.meta.url));
