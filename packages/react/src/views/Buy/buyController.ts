import { createOnramp, type OnrampController } from '../../core/onramp.js';
import { loadWasmExtra } from '../../core/wasmExtra.js';
import { perLatch } from '../lazyView.js';

/** The Buy store of `latch`: after the provider's window, balances and Activity are read again. */
export const buyControllerFor = perLatch(
  (latch): OnrampController =>
    createOnramp({
      server: latch.server,
      account: latch.account,
      toasts: latch.toasts,
      refresh: () => Promise.all([latch.refreshBalance(), latch.accountData.refreshTokens(true), latch.accountData.refreshActivity()]),
      onrampChain: async (caip) => (await loadWasmExtra()).onrampChain(caip),
    }),
);
