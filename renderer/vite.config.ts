// Builds the renderer into dist/renderer, which `mnemo serve --ui` and the Electron shell serve at `/`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // The CSP allows no inline script, so Vite must not inline its module-preload polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    // `vite dev` next to `mnemo serve --port 7766`: the API and the token exchange are proxied.
    proxy: { '/v1': 'http://127.0.0.1:7766', '/ui': 'http://127.0.0.1:7766' },
  },
});
