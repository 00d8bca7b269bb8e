import { onceUntilFailure } from './onceUntilFailure.js';
import type { QrCode } from './walletConnect.js';

/**
 * The QR encoder, which lives in `@latch/wasm-walletconnect` (the pairing QR code's), loaded at
 * the first call: the Receive view draws the address with the same encoder, and a page that
 * paired already has the module. After a failure (e.g. offline) the next call tries again.
 */
export const loadQrEncoder: () => Promise<(text: string) => QrCode> = onceUntilFailure(() =>
  import('@latch/wasm-walletconnect').then(async (module) => {
    await module.init();
    return (text: string) => module.qrCode(text);
  }),
);
