// @latch/wasm-walletconnect entry for browsers and bundlers: the WalletConnect
// engine, a wasm module of its own that a page loads beside @latch/wasm when a
// visitor pairs. init() loads this module only (@latch/wasm has its own).
import initBindings from './web/latch_wasm_walletconnect.js';

export * from './web/latch_wasm_walletconnect.js';
export { LatchError } from './latch-error.js';

let ready;

export function init() {
  ready ??= (async () => {
    const url = new URL('./web/latch_wasm_walletconnect_bg.wasm', import.meta.url);
    if (url.protocol === 'file:') {
      const fsModule = 'node:fs/promises';
      const { readFile } = await import(/* @vite-ignore */ fsModule);
      await initBindings({ module_or_path: await readFile(url) });
    } else {
      await initBindings({ module_or_path: url });
    }
  })();
  return ready;
}
