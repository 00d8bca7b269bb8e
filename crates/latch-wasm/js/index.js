// @latch/wasm entry for browsers and bundlers: the `core` module (what the modal shows and the
// connection checks). Generated bindings live in ./web; the rest of latch-core is the `extra`
// module, `@latch/wasm/extra`, loaded on its own when first needed.
import initBindings from './web/latch_wasm.js';
import { wasmInit } from './loader.js';

export * from './web/latch_wasm.js';
export { LATCH_CONSTANTS, LATCH_DEFAULT_FEATURES, LATCH_MESSAGES } from './constants.js';
export { LatchError } from './errors.js';

export const init = wasmInit(initBindings, new URL('./web/latch_wasm_bg.wasm', import.meta.url));
