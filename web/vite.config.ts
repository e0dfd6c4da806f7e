import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { catalogs } from './vite-plugin-catalogs.js';
import { cssPreload } from './vite-plugin-css-preload.js';

/** Where the Fastify server listens in development (see server config: PORT, HOST). */
const API_TARGET = 'http://127.0.0.1:3000';

/**
 * The server refuses state-changing requests whose Origin is not its own, so the proxied request
 * carries the target's origin instead of the Vite dev server's.
 */
const apiProxy: Record<string, ProxyOptions> = {
  '/api': { target: API_TARGET, changeOrigin: true, headers: { origin: API_TARGET } },
};

/**
 * React Router's package exports name only its development build, warnings included
 * (https://github.com/remix-run/react-router/issues/14102); the browser gets the production build it ships beside it.
 */
const reactRouterProduction = [
  { find: /^react-router$/, replacement: fileURLToPath(new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
  { find: /^react-router\/dom$/, replacement: fileURLToPath(new URL('../node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)) },
];

export default defineConfig(({ command, isSsrBuild }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [catalogs(), cssPreload(), react(), tailwindcss()],
  resolve: { alias: command === 'build' && !isSsrBuild ? reactRouterProduction : [] },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // A prerendered page names the modules it needs in <link rel="modulepreload"> tags (scripts/module-preloads.ts, from
    // the manifest below) and links start loading their page on hover (preloadPagesOnIntent), so the client carries no
    // table of every chunk's dependencies.
    modulePreload: false,
    manifest: true,
    rolldownOptions: {
      // The app (index.html → main.tsx) and the loader a prerendered page names instead of it (load-after-paint.ts).
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        'load-after-paint': fileURLToPath(new URL('src/load-after-paint.ts', import.meta.url)),
      },
      output: {
        // The libraries the entry imports (React, ReactDOM, the router, Lingui) in one file rather than several small
        // shared chunks: fewer requests and better compression on the first visit, while the app's own code stays a
        // file of its own (one script of both would be one longer task for the browser's main thread).
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /node_modules/, tags: ['$initial'] },
            // Small modules that many pages share in different combinations (the landing page uses all of them): one
            // file, rather than a tiny chunk for each combination (a request each, ~0.1 KB of imports and exports each).
            // Only these modules: what they import stays where it was (the entry, the catalogues).
            {
              name: 'page-shared',
              test: /src\/i18n\/format\.ts|shared\/money\.ts|useStoreMoney\.ts|trial-request\.ts|shared\/plan-months\.ts/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
}));
