import { isUserRejection } from '@latch/wasm';

/**
 * Whether a wallet's error says the user declined (EIP-1193 4001, or WalletConnect's 5000–5002,
 * by latch-core's rule): a choice to respect, not a failure to report. Needs the wasm core loaded.
 */
export function declinedByUser(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && isUserRejection(code);
}
