import type { Latch } from '../../core/createLatch.js';
import { createRegisterName, type RegisterNameController } from '../../core/registerName.js';

// One registration draft per Latch, made when the view first opens (it is in the views' chunk).
const controllers = new WeakMap<Latch, RegisterNameController>();

/** The name registration store of `latch`, signing through the host signing path. */
export function registerNameControllerFor(latch: Latch): RegisterNameController {
  let controller = controllers.get(latch);
  if (!controller) {
    controller = createRegisterName({
      account: latch.account,
      accountData: latch.accountData,
      modal: latch.modal,
      signMessage: (message) => latch.signMessage(message),
    });
    controllers.set(latch, controller);
  }
  return controller;
}
