import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { inlineEntryCssPlugin } from './inline-css.ts';
import { precompressPlugin } from './precompress.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Where `npm run console:dev` forwards API calls: a kernel started with `npm start`. */
const apiTarget = process.env.CONSOLE_API ?? 'http://127.0.0.1:8080';
const apiPaths = [
  '/auth',
  '/streams',
  '/messages',
  '/components',
  '/component-types',
  '/codecs',
  '/codec-kinds',
  '/workflows',
  '/bpmn',
  '/studio',
  '/sql',
  '/alerts',
  '/alert-signals',
  '/logs',
  '/audit',
  '/users',
  '/roles',
  '/api-tokens',
  '/identity-providers',
  '/tenants',
  '/dashboard',
  '/migration',
  '/agent',
  '/openapi.json',
  '/health',
  '/ready',
];

export default defineConfig({
  root: here,
  // The kernel's console plugin serves the built app under /console/ (hashed files under /console/assets/).
  base: '/console/',
  // The entry's style sheet inside index.html (one request less before the first paint), and
  // brotli and gzip copies of each file, written at build time so no visitor waits for them.
  plugins: [react(), inlineEntryCssPlugin(), precompressPlugin()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // Never inline assets as data: URIs; the Content-Security-Policy only allows 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
  server: {
    host: '127.0.0.1',
    proxy: Object.fromEntries(
      apiPaths.map((path) => [path, { target: apiTarget, changeOrigin: false, ws: path === '/studio' }]),
    ),
  },
});
