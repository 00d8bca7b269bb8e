import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { uninstallWallets } from './fixtures.js';

afterEach(() => {
  // Vitest runs without globals, so Testing Library cannot register its own cleanup.
  cleanup();
  uninstallWallets();
});
