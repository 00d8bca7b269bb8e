import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { loadModal } from '../components/LatchProvider/lazyModal.js';
import { uninstallWallets } from './fixtures.js';
import { unregisterStandardWallets } from './standardWallet.js';

// The modal is a lazily loaded chunk; loaded once here, tests see it render at the opening as it
// does in a page where the idle preload has run. LatchProvider.test.tsx checks the lazy path itself.
beforeAll(async () => {
  await loadModal();
});

afterEach(() => {
  // Vitest runs without globals, so Testing Library cannot register its own cleanup.
  cleanup();
  uninstallWallets();
  unregisterStandardWallets();
  // What one test's Latch persisted (the connected wallet, a sign-in token) must not reconnect the next.
  globalThis.localStorage?.clear();
});
