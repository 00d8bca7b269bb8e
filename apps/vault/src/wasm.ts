// The frame's wasm (@latch/wasm-vault, BENCHMARKS.md "The wallet frame"): the `checks` module
// comes with the page (validate.ts, rpc.ts import it); `login` (shares, the accounts they give),
// `keys` (signing, approval summaries) and `recovery` are fetched the first time they are needed, one load shared by every caller. The frame must
// never fetch them earlier (e2e/tests/embedded.spec.ts watches its requests).
type Module = { init: () => Promise<void> };

/** One load shared by every caller, the module initialized once; a failed load is retried. */
export function lazy<T extends Module>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () =>
    (pending ??= load()
      .then(async (module) => {
        await module.init();
        return module;
      })
      .catch((error: unknown) => {
        // A failed fetch (the network dropped) is tried again by the next caller.
        pending = null;
        throw error;
      }));
}

/** Shares split and combined, the accounts two shares give: at login. */
export const loadLogin = lazy(() => import('@latch/wasm-vault/login'));
/** The `Wallet` that signs, approval summaries: at the first approval. */
export const loadKeys = lazy(() => import('@latch/wasm-vault/keys'));
/** The recovery share's envelopes (Argon2id): only while a recovery password is set or entered. */
export const loadRecovery = lazy(() => import('@latch/wasm-vault/recovery'));

export type Wallet = import('@latch/wasm-vault/keys').Wallet;
