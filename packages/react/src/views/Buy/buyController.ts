import type { Latch } from '../../core/createLatch.js';
import { createOnramp, type OnrampController } from '../../core/onramp.js';
import { loadWasmExtra } from '../../core/wasmExtra.js';

// One Buy store per Latch, made when Buy first opens so the page's first load does not carry it.
const controllers = new WeakMap<Latch, OnrampController>();

/** The Buy store of `latch`: after the provider's window, balances and Activity are read again. */
export function buyControllerFor(latch: Latch): OnrampController {
  let controller = controllers.get(latch);
  if (!controller) {
    controller = createOnramp({
      server: latch.server,
      account: latch.account,
      toasts: latch.toasts,
      refresh: () => Promise.all([latch.refreshBalance(), latch.accountData.refreshTokens(true), latch.accountData.refreshActivity()]),
      onrampChain: async (caip) => (await loadWasmExtra()).onrampChain(caip),
    });
    controllers.set(latch, controller);
  }
  return controller;
}
