export * from './web/latch_wasm_walletconnect.js';
export { LatchError } from '@latch/wasm/errors';
/** Loads this WebAssembly module once; await it before calling anything else. */
export function init(): Promise<void>;
