import { defineConfig } from 'vite';

// Served by `latch serve` from the demo's dist/, at /ethers-example/.
export default defineConfig({
  base: '/ethers-example/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: '../demo/dist/ethers-example',
    // Outside this package's root, so Vite asks before emptying it.
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
  },
});
