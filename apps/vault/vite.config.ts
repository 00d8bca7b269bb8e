import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// latch serves dist/ on the frame's own origin (embedded.vault_listen): index.html is the frame,
// social-callback.html the social popup's last page (at /social/callback), assets/ hashed files.
export default defineConfig({
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The CSP allows no inline script: the module preload polyfill would be one.
    modulePreload: false,
    rollupOptions: {
      input: {
        frame: resolve(import.meta.dirname, 'index.html'),
        callback: resolve(import.meta.dirname, 'social-callback.html'),
      },
    },
  },
});
