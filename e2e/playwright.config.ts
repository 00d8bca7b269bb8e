import { defineConfig } from '@playwright/test';
import { E2E_SERVER_URL } from './fixtures/stack.js';

// Debian's Chromium (scripts/setup installs it); Playwright never downloads a browser here.
// Without the background-networking flags Chromium floods a closed network with lookups.
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './fixtures/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    // This run's latch, on the port global setup chose: workers load this file again, after global
    // setup has put the port in the environment they inherit (fixtures/stack.ts).
    baseURL: E2E_SERVER_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.LATCH_CHROMIUM ?? '/usr/bin/chromium',
      args: chromiumArgs,
    },
  },
});
