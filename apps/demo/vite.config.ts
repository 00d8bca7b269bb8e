import { defineConfig } from 'vite';

// The Latch server serves dist/ at `/` and answers the API on the same origin.
export default defineConfig({
  base: '/',
  // @vitejs/plugin-react is not used: esbuild's automatic runtime is all the JSX this app needs.
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      output: {
        // React in a chunk of its own: a host app has it anyway, so `make bench-ui` reports
        // what Latch adds separately (and React's chunk stays cached across Latch updates).
        manualChunks: (id) => (/\/node_modules\/(react|react-dom|scheduler)\//.test(id) ? 'react' : undefined),
      },
    },
  },
});
