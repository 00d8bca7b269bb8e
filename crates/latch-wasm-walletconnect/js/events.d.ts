// Appended to index.d.ts of @latch/wasm-walletconnect by scripts/build-wasm.
import type { WalletConnectEvents, WalletConnectProviderEvents } from './web/latch_wasm_walletconnect.js';
declare module './web/latch_wasm_walletconnect.js' {
  // wasm-bindgen cannot write generics: these overloads give each event's listener its payload type.
  interface WalletConnectClient {
    on<K extends keyof WalletConnectEvents>(event: K, listener: (payload: WalletConnectEvents[K]) => void): void;
    off<K extends keyof WalletConnectEvents>(event: K, listener: (payload: WalletConnectEvents[K]) => void): void;
  }
  interface WalletConnectProvider {
    on<K extends keyof WalletConnectProviderEvents>(
      event: K,
      listener: (payload: WalletConnectProviderEvents[K]) => void,
    ): void;
    removeListener<K extends keyof WalletConnectProviderEvents>(
      event: K,
      listener: (payload: WalletConnectProviderEvents[K]) => void,
    ): void;
  }
}
