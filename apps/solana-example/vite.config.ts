import { defineConfig } from 'vite';

// Served by `latch serve` from the demo's dist/, at /solana-example/.
export default defineConfig({
  base: '/solana-example/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: '../demo/dist/solana-example',
    // Outside this package's root, so Vite asks before emptying it.
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
  },
});
