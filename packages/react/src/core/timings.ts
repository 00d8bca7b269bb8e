import { LATCH_CONSTANTS } from '@latch/wasm';

/**
 * Behaviour 7.4's default debounce: every input that asks the server as the visitor types (swap
 * quotes, on-ramp quotes, name suggestions) waits this long after the last change. The wallet
 * search has its own documented wait (behaviour 7.8), and the Send receiver is resolved on blur.
 */
export const DEBOUNCE_MS: number = LATCH_CONSTANTS.timings.debounceMs;

/** Behaviour 1.5 / 7.4: work left by going back waits this long, so it does not stall the transition. */
export const BACK_CLEANUP_MS: number = LATCH_CONSTANTS.timings.backCleanupMs;

/** Behaviour 1.8: the modal's height follows a view change over this long. */
export const MODAL_HEIGHT_MS: number = LATCH_CONSTANTS.modal.heightMs;

/**
 * Whether the visitor asked for less motion (`prefers-reduced-motion: reduce`): CSS drops the
 * animations itself; JS that times motion asks this. False without `matchMedia` (SSR, old browsers).
 */
export function prefersReducedMotion(): boolean {
  return typeof globalThis.matchMedia === 'function' && globalThis.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
