// @latch/wasm-vault entry for browsers and bundlers: the embedded-wallet
// frame's keys (latch-vault), a wasm module of its own that only the frame
// page loads. init() loads it once, with @latch/wasm's loader (plain JS, no
// wasm of @latch/wasm's comes with it).
import { wasmInit } from '@latch/wasm/loader';
import initBindings from './web/latch_wasm_vault.js';

export * from './web/latch_wasm_vault.js';

export const init = wasmInit(initBindings, new URL('./web/latch_wasm_vault_bg.wasm', import.meta.url));
