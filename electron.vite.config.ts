import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { catalogs } from './web/vite-plugin-catalogs.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The desktop app: `desktop/main` (Node, in Electron's main process), `desktop/preload` (the sandboxed
 * bridge, CommonJS because a sandboxed preload cannot be an ES module) and `desktop/renderer` (the
 * React screens from web/). Main and preload bundle everything they use except Electron itself and the
 * keychain's native module, so the packaged app carries none of the server's dependencies.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: here('desktop/main/index.ts') },
        external: ['electron', '@napi-rs/keyring', /^node:/],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: here('desktop/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: here('desktop/renderer'),
    plugins: [catalogs(), react(), tailwindcss()],
    // The file:// page loads its assets relatively.
    base: './',
    build: {
      outDir: here('out/renderer'),
      emptyOutDir: true,
      minify: true,
      modulePreload: { polyfill: false },
      rollupOptions: { input: { index: here('desktop/renderer/index.html') } },
    },
  },
});
