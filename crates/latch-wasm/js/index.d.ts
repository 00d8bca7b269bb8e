export * from './web/latch_wasm.js';
export { LATCH_CONSTANTS, LATCH_MESSAGES } from './constants.js';
export { LatchError } from './errors.js';
/** Loads the WebAssembly module once; await it before calling anything else. */
export function init(): Promise<void>;

import type { WalletConnectEvents } from './web/latch_wasm.js';
declare module './web/latch_wasm.js' {
  // wasm-bindgen cannot write generics: these overloads give each event's listener its payload type.
  interface WalletConnectClient {
    on<K extends keyof WalletConnectEvents>(event: K, listener: (payload: WalletConnectEvents[K]) => void): void;
    off<K extends keyof WalletConnectEvents>(event: K, listener: (payload: WalletConnectEvents[K]) => void): void;
  }
}
