export * from './extra/latch_wasm_extra.js';
export { LatchError } from './errors.js';
/** Loads this WebAssembly module once (not the core one); await it before calling anything else. */
export function init(): Promise<void>;
