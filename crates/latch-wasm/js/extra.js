// @latch/wasm/extra entry for browsers and bundlers: the `extra` module, the part of latch-core
// the modal does not need to show (sign-in messages and signatures, form checks, the network
// catalogue, policies, Solana send transactions). Import it dynamically where it is first needed; init() loads this
// module only (the core module has its own).
import initBindings from './extra/latch_wasm_extra.js';
import { wasmInit } from './loader.js';

export * from './extra/latch_wasm_extra.js';
export { LatchError } from './errors.js';

export const init = wasmInit(initBindings, new URL('./extra/latch_wasm_extra_bg.wasm', import.meta.url));
