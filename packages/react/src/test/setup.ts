import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { uninstallWallets } from './fixtures.js';

afterEach(() => {
  // Vitest runs without globals, so Testing Library cannot register its own cleanup.
  cleanup();
  uninstallWallets();
  // What one test's Latch persisted (the connected wallet, a sign-in token) must not reconnect the next.
  globalThis.localStorage?.clear();
});
