// What the module throws is @latch/wasm's own LatchError (one class for both
// modules, so `instanceof` holds whichever package a caller imported it from).
export { LatchError } from '@latch/wasm/errors';
