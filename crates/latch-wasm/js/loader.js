// The one loader of every Latch wasm module (@latch/wasm's two, @latch/wasm-walletconnect):
// an idempotent init() over a wasm-bindgen `--target web` binding, that also works under plain
// Node (e.g. Vitest), where fetch() cannot load a file: URL. Each entry passes its module's URL
// as `new URL('…_bg.wasm', import.meta.url)` itself, the form bundlers find and emit.
export function wasmInit(initBindings, url) {
  let ready;
  return () =>
    (ready ??= (async () => {
      if (url.protocol === 'file:') {
        const fsModule = 'node:fs/promises';
        const { readFile } = await import(/* @vite-ignore */ fsModule);
        await initBindings({ module_or_path: await readFile(url) });
      } else {
        await initBindings({ module_or_path: url });
      }
    })());
}
