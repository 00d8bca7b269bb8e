import { defineConfig } from 'vite';

// The Latch server serves dist/ at `/` and answers the API on the same origin.
export default defineConfig({
  base: '/',
  // @vitejs/plugin-react is not used: esbuild's automatic runtime is all the JSX this app needs.
  esbuild: { jsx: 'automatic' },
  build: { outDir: 'dist', emptyOutDir: true },
});
