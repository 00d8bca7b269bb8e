import type { Latch } from '../../core/createLatch.js';
import { createConvertApi, createSwap, type SwapController } from '../../core/swap.js';

// One swap draft per Latch, made when Swap first opens so the page's first load does not carry it.
const controllers = new WeakMap<Latch, SwapController>();

/** The swap store of `latch`. */
export function swapControllerFor(latch: Latch): SwapController {
  let controller = controllers.get(latch);
  if (!controller) {
    controller = createSwap({
      account: latch.account,
      accountData: latch.accountData,
      api: createConvertApi(latch.server),
      gateway: latch.gateway,
      transactions: latch.transactions,
      toasts: latch.toasts,
      modal: latch.modal,
      transactionStack: latch.transactionStack,
    });
    controllers.set(latch, controller);
  }
  return controller;
}
