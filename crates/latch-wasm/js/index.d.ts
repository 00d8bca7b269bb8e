export * from './web/latch_wasm.js';
export { LATCH_CONSTANTS, LATCH_DEFAULT_FEATURES, LATCH_MESSAGES } from './constants.js';
export { LatchError } from './errors.js';
/** Loads the WebAssembly module once; await it before calling anything else. */
export function init(): Promise<void>;
