import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'vite';

// One app source, two builds: wagmi v2 (the `wagmi` dependency) at /wagmi-example/, and with
// WAGMI_MAJOR=3 the same source against wagmi v3 (the npm alias `wagmi3`, and the @wagmi/core it
// brings) at /wagmi3-example/. Both go into the demo's dist/, which `latch serve` serves.
const v3 = process.env.WAGMI_MAJOR === '3';
const require = createRequire(import.meta.url);
const wagmi3 = dirname(require.resolve('wagmi3/package.json'));
const wagmi3Core = dirname(createRequire(join(wagmi3, 'package.json')).resolve('@wagmi/core/package.json'));
const name = v3 ? 'wagmi3-example' : 'wagmi-example';

export default defineConfig({
  base: `/${name}/`,
  esbuild: { jsx: 'automatic' },
  define: { 'import.meta.env.VITE_WAGMI_BUILD': JSON.stringify(v3 ? 'wagmi v3' : 'wagmi v2') },
  resolve: {
    alias: v3
      ? [
          { find: /^wagmi$/, replacement: join(wagmi3, 'dist/esm/exports/index.js') },
          { find: /^@wagmi\/core$/, replacement: join(wagmi3Core, 'dist/esm/exports/index.js') },
          { find: /^@wagmi\/core\/(.*)$/, replacement: `${wagmi3Core}/dist/esm/exports/$1.js` },
        ]
      : [],
  },
  build: {
    outDir: `../demo/dist/${name}`,
    // Outside this package's root, so Vite asks before emptying it.
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      // ox (inside viem) places /*#__PURE__*/ where Rollup cannot use it: harmless noise.
      onwarn(warning, warn) {
        if (warning.code !== 'INVALID_ANNOTATION') warn(warning);
      },
    },
  },
});
