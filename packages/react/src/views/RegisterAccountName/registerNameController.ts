import { createRegisterName, type RegisterNameController } from '../../core/registerName.js';
import { perLatch } from '../lazyView.js';

/** The name registration store of `latch`, signing through the host signing path. */
export const registerNameControllerFor = perLatch(
  (latch): RegisterNameController =>
    createRegisterName({
      account: latch.account,
      accountData: latch.accountData,
      modal: latch.modal,
      signMessage: (message) => latch.signMessage(message),
    }),
);
