import { defineConfig } from 'vite';

// `latch serve --static-dir apps/demo/dist` serves the demo at `/`; the dev wallet is built into
// its `devwallet/` folder after the demo (whose build empties dist/), so one server serves both.
export default defineConfig({
  base: '/devwallet/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: '../demo/dist/devwallet',
    // Outside this package's root, so Vite asks before emptying it.
    emptyOutDir: true,
    // A development tool: one chunk of the sign-client, viem and React is fine.
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      // ox (inside @walletconnect/utils) places /*#__PURE__*/ where Rollup cannot use it: harmless noise.
      onwarn(warning, warn) {
        if (warning.code !== 'INVALID_ANNOTATION') warn(warning);
      },
    },
  },
});
