import { loadWasmExtra } from './wasmExtra.js';

/**
 * The base58 text of a Solana signature (64 bytes), as latch-core writes it: the form RPC and
 * explorers use for a transaction's id. For @latch/solana, whose wallets answer
 * `solana:signAndSendTransaction` with the bytes. Loads `@latch/wasm/extra` on first use; throws
 * the core's `LatchError` for anything but 64 bytes.
 */
export async function solanaSignatureText(signature: Uint8Array): Promise<string> {
  return (await loadWasmExtra()).solanaSignatureText(signature);
}
