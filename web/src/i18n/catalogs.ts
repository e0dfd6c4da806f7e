// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the ambient declaration of the virtual:catalogs module Vite provides
/// <reference path="./virtual-catalogs.d.ts" />
import { setupI18n, type I18n } from '@lingui/core';
import loaders from 'virtual:catalogs';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../../shared/locales.js';

/**
 * The message catalogues: one file per language and namespace (messages/<locale>/<namespace>.json),
 * each its own chunk, compiled at build time (web/vite-plugin-catalogs.ts, `virtual:catalogs`). A page loads the
 * namespaces it shows, in the page's language only, through that language's table of catalogue files.
 */
export const NAMESPACES = [
  'common',
  'titles',
  'meta',
  'content',
  'landing',
  'pricing',
  'login',
  'account',
  'features',
  'trust',
  'legal',
  'support',
  'download',
  'desktop',
  'admin',
  'adminSettings',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** One Lingui instance per language, so pages in different languages never share an active locale. */
const instances = new Map<Locale, I18n>();

/** Called with the id of a message a loaded catalogue lacks (the every-page test listens). */
let onMissing: ((locale: Locale, id: string) => void) | undefined;
export function reportMissingMessages(report: typeof onMissing): void {
  onMissing = report;
}

export function i18nFor(locale: Locale): I18n {
  let i18n = instances.get(locale);
  if (!i18n) {
    i18n = setupI18n({ locale, messages: { [locale]: {} } });
    i18n.on('missing', ({ id }) => onMissing?.(locale, id));
    instances.set(locale, i18n);
  }
  return i18n;
}

/** A promise React's `use` reads without suspending once it has settled (it looks at `status`). */
type Tracked<T> = Promise<T> & { status?: 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

const loads = new Map<string, Tracked<void>>();

/**
 * A language's catalogue loaders by namespace: a chunk of its own per language, so a page's scripts name only its
 * language's catalogue files (a prerendered page preloads its language's table with its catalogues).
 */
const tables = new Map<Locale, ReturnType<(typeof loaders)[string]>>();
function loadersOf(locale: Locale) {
  let table = tables.get(locale);
  if (!table) {
    table = (loaders[locale] ?? loaders[DEFAULT_LOCALE]!)();
    table.catch(() => tables.delete(locale));
    tables.set(locale, table);
  }
  return table;
}

function loadOne(locale: Locale, namespace: Namespace): Tracked<void> {
  const key = `${locale}/${namespace}`;
  let load = loads.get(key);
  if (!load) {
    // Every language carries every namespace (catalogs.test.ts); the build has English stand in where a file is missing.
    const tracked: Tracked<void> = loadersOf(locale)
      .then(({ default: table }) => table[namespace]?.() ?? { default: {} })
      .then((module) => i18nFor(locale).load(locale, module.default));
    tracked.then(
      () => {
        tracked.status = 'fulfilled';
      },
      (reason: unknown) => {
        tracked.status = 'rejected';
        tracked.reason = reason;
        loads.delete(key);
      },
    );
    load = tracked;
    loads.set(key, load);
  }
  return load;
}

const groups = new Map<string, Tracked<void>>();

/**
 * The namespaces' catalogues in `locale`, loaded once; the same promise for the same request, so
 * `use(loadCatalogs(...))` suspends only until they are in.
 */
export function loadCatalogs(locale: Locale, namespaces: readonly Namespace[]): Promise<void> {
  const key = `${locale}:${[...namespaces].sort().join(',')}`;
  let group = groups.get(key);
  const parts = namespaces.map((namespace) => loadOne(locale, namespace));
  if (!group || group.status === 'rejected') {
    const tracked: Tracked<void> = Promise.all(parts).then(() => undefined);
    tracked.then(
      () => {
        tracked.status = 'fulfilled';
      },
      (reason: unknown) => {
        tracked.status = 'rejected';
        tracked.reason = reason;
      },
    );
    group = tracked;
    groups.set(key, group);
  }
  return group;
}

/** Every catalogue of every language (the server renders pages in all of them). */
export function loadAllCatalogs(): Promise<void> {
  return Promise.all(LOCALES.map((locale) => loadCatalogs(locale, NAMESPACES))).then(() => undefined);
}

export { DEFAULT_LOCALE };
