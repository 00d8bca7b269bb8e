import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { loadModal } from '../components/LatchProvider/lazyModal.js';
import { loadCatalogue } from '../locales/index.js';
import { uninstallWallets } from './fixtures.js';
import { unregisterStandardWallets } from './standardWallet.js';

// The modal is a lazily loaded chunk; loaded once here, tests see it render at the opening as it
// does in a page where the idle preload has run. LatchProvider.test.tsx checks the lazy path itself.
// Likewise the English catalogue, which a page loads with the modal.
beforeAll(async () => {
  await Promise.all([loadModal(), loadCatalogue('en')]);
});

// jsdom loads no images: an <img> or `new Image()` never fires `load` or `error`, so opening the
// modal would always wait out its 2 s image race (behaviour 1.4). This stand-in for the browser's image
// loading fires `load` a task after `src` is set; real image loading runs in the Playwright tests.
if (typeof HTMLImageElement !== 'undefined') {
  Object.defineProperty(HTMLImageElement.prototype, 'src', {
    configurable: true,
    get(this: HTMLImageElement) {
      return this.getAttribute('src') ?? '';
    },
    set(this: HTMLImageElement, url: string) {
      this.setAttribute('src', url);
      setTimeout(() => this.dispatchEvent(new Event('load')));
    },
  });
}

afterEach(() => {
  // Vitest runs without globals, so Testing Library cannot register its own cleanup.
  cleanup();
  uninstallWallets();
  unregisterStandardWallets();
  // What one test's Latch persisted (the connected wallet, a sign-in token) must not reconnect the next.
  globalThis.localStorage?.clear();
});
