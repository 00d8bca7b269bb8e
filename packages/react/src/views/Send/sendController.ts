import type { Latch } from '../../core/createLatch.js';
import { createSend, type SendController } from '../../core/send.js';

// One send draft per Latch, made when Send first opens so the page's first load does not carry it.
const controllers = new WeakMap<Latch, SendController>();

/**
 * The send store of `latch`. Seam: a Solana account's send goes through `sendSolana`, which the
 * Solana transfer module sets; until it does, a Solana draft shows "Unsupported chain".
 */
export function sendControllerFor(latch: Latch): SendController {
  let controller = controllers.get(latch);
  if (!controller) {
    controller = createSend({
      account: latch.account,
      accountData: latch.accountData,
      networks: latch.networks,
      gateway: latch.gateway,
      transactions: latch.transactions,
      toasts: latch.toasts,
      modal: latch.modal,
    });
    controllers.set(latch, controller);
  }
  return controller;
}
