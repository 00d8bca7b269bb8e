import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['crates/latch-wasm-vault/tests-js/**/*.test.js'],
    environment: 'node',
    // Argon2id at OWASP's cost runs in the module: seconds on a slow CI core.
    testTimeout: 60_000,
    // Node loads @latch/wasm-vault's own `node` entry, which reads the .wasm next to it.
    server: { deps: { external: [/packages\/wasm-vault\//] } },
  },
});
