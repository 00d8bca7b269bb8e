// @latch/wasm-walletconnect entry for browsers and bundlers: the WalletConnect
// engine, a wasm module of its own that a page loads beside @latch/wasm when a
// visitor pairs. init() loads this module only (@latch/wasm has its own), with
// @latch/wasm's loader.
import { wasmInit } from '@latch/wasm/loader';
import initBindings from './web/latch_wasm_walletconnect.js';

export * from './web/latch_wasm_walletconnect.js';
export { LatchError } from './latch-error.js';

export const init = wasmInit(initBindings, new URL('./web/latch_wasm_walletconnect_bg.wasm', import.meta.url));
