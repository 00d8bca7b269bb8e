export * from './login/latch_wasm_vault_login.js';
/** Loads this WebAssembly module once (not the package's other three); await it before calling anything else. */
export function init(): Promise<void>;
/** What every export throws: an `Error` named `VaultError` with latch-vault's code. */
export interface VaultError extends Error {
  name: 'VaultError';
  code: string;
}
