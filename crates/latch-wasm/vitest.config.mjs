import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['crates/latch-wasm/tests-js/**/*.test.js'],
    environment: 'node',
    // Node loads @latch/wasm's own `node` entry, which reads the .wasm next to it.
    server: { deps: { external: [/packages\/wasm\//] } },
  },
});
