import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // Type tests of the public API (`npm test` runs them with --typecheck).
    typecheck: { include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    setupFiles: ['src/test/setup.ts'],
    unstubGlobals: true,
    // Node loads @latch/wasm and @latch/wasm-walletconnect (the QR encoder) itself (their `node`
    // entries read the .wasm from disk); run through
    // Vite's transform, import.meta.url no longer points at the file.
    server: { deps: { external: [/packages\/wasm(-walletconnect)?\//] } },
  },
});
