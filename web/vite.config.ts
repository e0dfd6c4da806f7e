import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { catalogs } from './vite-plugin-catalogs';

/** Where the Fastify server listens in development (see server config: PORT, HOST). */
const API_TARGET = 'http://127.0.0.1:3000';

/**
 * The server refuses state-changing requests whose Origin is not its own, so the proxied request
 * carries the target's origin instead of the Vite dev server's.
 */
const apiProxy: Record<string, ProxyOptions> = {
  '/api': { target: API_TARGET, changeOrigin: true, headers: { origin: API_TARGET } },
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [catalogs(), react(), tailwindcss()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // Every browser the site supports preloads modules natively; the polyfill would ship to all.
    modulePreload: { polyfill: false },
  },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
});
