/**
 * An idempotent `init()` for a wasm-bindgen `--target web` module: the first call loads and
 * instantiates the module at `url` (read from disk for a `file:` URL), every call returns that
 * same promise.
 */
export function wasmInit(
  initBindings: (options: { module_or_path: URL | Uint8Array }) => Promise<unknown>,
  url: URL,
): () => Promise<void>;
