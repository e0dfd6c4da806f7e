import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { appBrandOf, loadBrand } from './desktop/brand.js';
import { BUILDER_BASE_FILE, BUILDER_CONFIG_FILE, builderConfigFor, readBuilderBase } from './desktop/builder-config.js';
import { catalogs } from './web/vite-plugin-catalogs.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const root = here('.');
/** The operator's brand (desktop/brand.json, or the file DESKTOP_BRAND_FILE names). */
const brand = loadBrand(root);
/** Where the app is built: out/ (DESKTOP_OUT_DIR elsewhere, e.g. a test's temporary folder). */
const outDir = resolve(root, process.env.DESKTOP_OUT_DIR || 'out');

/** Writes this brand's electron-builder configuration beside the built app (desktop/builder-config.ts). */
function builderConfig(): Plugin {
  return {
    name: 'desktop-builder-config',
    closeBundle() {
      const config = builderConfigFor(brand, readBuilderBase(join(root, BUILDER_BASE_FILE)), { root, outDir });
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, BUILDER_CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
    },
  };
}

/** The page's title is the product's name before anything loads. */
function brandedTitle(): Plugin {
  return {
    name: 'desktop-branded-title',
    transformIndexHtml: (html) => html.replace(/<title>[^<]*<\/title>/, () => `<title>${brand.productName.replace(/&/g, '&amp;')}</title>`),
  };
}

/**
 * The desktop app: `desktop/main` (Node, in Electron's main process), `desktop/preload` (the sandboxed
 * bridge, CommonJS because a sandboxed preload cannot be an ES module) and `desktop/renderer` (the
 * React screens from web/). Main and preload bundle everything they use except Electron itself and the
 * keychain's native module, so the packaged app carries none of the server's dependencies. The brand
 * reaches the main process as `__DESKTOP_BRAND__` (desktop/main/app-identity.ts).
 */
export default defineConfig({
  main: {
    define: { __DESKTOP_BRAND__: JSON.stringify(appBrandOf(brand)) },
    plugins: [builderConfig()],
    build: {
      outDir: join(outDir, 'main'),
      externalizeDeps: false,
      rollupOptions: {
        input: { index: here('desktop/main/index.ts') },
        external: ['electron', '@napi-rs/keyring', /^node:/],
      },
    },
  },
  preload: {
    build: {
      outDir: join(outDir, 'preload'),
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
    plugins: [catalogs(), react(), tailwindcss(), brandedTitle()],
    // The file:// page loads its assets relatively.
    base: './',
    build: {
      outDir: join(outDir, 'renderer'),
      emptyOutDir: true,
      minify: true,
      modulePreload: { polyfill: false },
      rollupOptions: { input: { index: here('desktop/renderer/index.html') } },
    },
  },
});
