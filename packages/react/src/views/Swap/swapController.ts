import { createConvertApi, createSwap, type SwapController } from '../../core/swap.js';
import { perLatch } from '../lazyView.js';

/** The swap store of `latch`. */
export const swapControllerFor = perLatch(
  (latch): SwapController =>
    createSwap({
      account: latch.account,
      accountData: latch.accountData,
      api: createConvertApi(latch.server),
      gateway: latch.gateway,
      transactions: latch.transactions,
      toasts: latch.toasts,
      modal: latch.modal,
      transactionStack: latch.transactionStack,
    }),
);
