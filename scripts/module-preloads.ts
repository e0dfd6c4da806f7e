/**
 * The modules a prerendered page needs before it can hydrate, read from Vite's build manifest
 * (dist/web/.vite/manifest.json): the entry's imports, the page's chunk with its imports, and its
 * message catalogues in its language with that language's table of them. The app shell names them in `<link rel="modulepreload">`; a prerendered
 * page lists them for its loader, which fetches them together once the page has painted. Either way they
 * arrive at once instead of one round trip after the entry.
 */
import type { Manifest } from 'vite';
import { DEFAULT_LOCALE, type Locale } from '../shared/locales.js';

/** The entry chunk's key in the manifest. */
const ENTRY = 'index.html';
/** The loader a prerendered page names instead of the entry (web/src/load-after-paint.ts). */
const LOADER = 'src/load-after-paint.ts';
/** The catalogue modules' ids (web/vite-plugin-catalogs.ts); the manifest keys them by a path that ends with the id. */
const CATALOG = 'virtual:catalog/';
/** A language's table of its catalogue modules (web/vite-plugin-catalogs.ts), which the client reads before any of them. */
const CATALOG_TABLE = 'virtual:catalogs/';

export interface PageModules {
  /** The page's source, as the manifest keys it (`src/pages/LandingPage.tsx`); none for the app shell. */
  module?: string;
  locale: Locale;
  namespaces: readonly string[];
}

export function modulePreloads(manifest: Manifest) {
  const chunk = (key: string) => {
    const found = manifest[key];
    if (!found) throw new Error(`The build manifest has no chunk ${key}`);
    return found;
  };
  /** The files of `key` and of everything it imports statically, into `files`. */
  const collect = (key: string, files: Set<string>) => {
    const { file, imports = [] } = chunk(key);
    if (files.has(file)) return;
    files.add(file);
    for (const imported of imports) collect(imported, files);
  };
  const catalogueKeys = new Map(
    Object.keys(manifest).flatMap((key) => (key.includes(CATALOG) ? [[key.slice(key.indexOf(CATALOG) + CATALOG.length), key] as const] : [])),
  );
  /** A namespace's catalogue in `locale`, or in English where the language lacks it (as the client loads it). */
  const catalogue = (locale: Locale, namespace: string) => {
    const key = catalogueKeys.get(`${locale}/${namespace}`) ?? catalogueKeys.get(`${DEFAULT_LOCALE}/${namespace}`);
    if (!key) throw new Error(`The build manifest has no catalogue ${namespace}`);
    return chunk(key).file;
  };
  /** A language's catalogue table, with what it imports. */
  const catalogueTable = (locale: Locale) => {
    const key = Object.keys(manifest).find((name) => name.endsWith(`${CATALOG_TABLE}${locale}`));
    if (!key) throw new Error(`The build manifest has no catalogue table for ${locale}`);
    return key;
  };
  const entryFile = chunk(ENTRY).file;

  /** Asset paths (`/assets/x.js`) to preload, the entry's own script (already in the page) left out. */
  return ({ module, locale, namespaces }: PageModules): string[] => {
    const files = new Set<string>();
    collect(ENTRY, files);
    collect(catalogueTable(locale), files);
    for (const namespace of namespaces) files.add(catalogue(locale, namespace));
    if (module) collect(module, files);
    files.delete(entryFile);
    return [...files].map((file) => `/${file}`);
  };
}

export const modulePreloadTags = (paths: readonly string[]) => paths.map((path) => `<link rel="modulepreload" crossorigin href="${path}" />`);

/**
 * A prerendered page's HTML with the entry's script tag replaced by the loader's, which fetches the entry and
 * `paths` once the page has painted (web/src/load-after-paint.ts). Low priority: nothing on screen waits for it.
 */
export function loadAfterPaint(manifest: Manifest) {
  const entry = `/${manifest[ENTRY]?.file}`;
  const loaderFile = manifest[LOADER]?.file;
  if (!loaderFile) throw new Error(`The build manifest has no chunk ${LOADER}`);
  const entryTag = `<script type="module" crossorigin src="${entry}"></script>`;
  return (html: string, paths: readonly string[]): string => {
    if (html.split(entryTag).length !== 2) throw new Error(`The page does not name the entry once as ${entryTag}`);
    return html.replace(
      entryTag,
      () => `<script type="module" fetchpriority="low" src="/${loaderFile}" data-entry="${entry}" data-modules="${paths.join(' ')}"></script>`,
    );
  };
}
