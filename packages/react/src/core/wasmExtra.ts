import { onceUntilFailure } from './onceUntilFailure.js';

/**
 * `@latch/wasm/extra`: the part of latch-core the modal does not need to show (sign-in messages,
 * the text of a Solana signature), a wasm module of its own so the Connect view does not wait for
 * it. Fetched at the first call, or earlier when the browser is idle after the modal opens with
 * sign-in on, so signing in does not wait either. Idempotent; after a failure (e.g. offline) the
 * next call tries again. A module-level cache of code, like `@latch/wasm`'s own `init()`; no
 * state of any Latch instance.
 */
type WasmExtra = typeof import('@latch/wasm/extra');

export const loadWasmExtra: () => Promise<WasmExtra> = onceUntilFailure(() =>
  import('@latch/wasm/extra').then(async (module) => {
    await module.init();
    return module;
  }),
);
