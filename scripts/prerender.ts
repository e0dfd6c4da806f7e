/**
 * Renders every public page to static HTML after `vite build` (client) and `vite build --ssr`
 * (web/src/entry-server.tsx). Output in dist/site: one HTML file per public page in each language (English at
 * the root, the others under /ru, /fa, /zh), each language's 404 page and empty app shell for browser-only pages,
 * and manifest.json for the server. A live page (one that
 * shows the plans on sale) is written as a template instead: its head is final, and the server
 * renders its body on request with the same server bundle and the current plans.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Manifest } from 'vite';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PublicConfig } from '../shared/config.js';
import { DEFAULT_LOCALE, HREFLANG, LOCALES, LOCALE_PREFIX, localizedPath, textDirection, type Locale } from '../shared/locales.js';
import {
  CONFIG_SLOT,
  HEAD_SLOT,
  PLACEHOLDER_CONFIG,
  PLANS_SLOT,
  ROOT_SLOT,
  SITE_MANIFEST_FILE,
  SITE_TOKENS,
  escapeHtml,
  type SiteManifest,
} from '../shared/site-template.js';
import { loadAfterPaint, modulePreloadTags, modulePreloads } from './module-preloads.js';

const ROOT = join(import.meta.dirname, '..');
const CLIENT_DIR = join(ROOT, 'dist', 'web');
const SSR_ENTRY = join(ROOT, 'dist', 'ssr', 'entry-server.js');
/** Vite's build manifest: which chunk holds which module, and what it imports. */
const CLIENT_MANIFEST = join(CLIENT_DIR, '.vite', 'manifest.json');
const OUT_DIR = join(ROOT, 'dist', 'site');

interface SitePage {
  path: string;
  title: string;
  description: string;
  live?: boolean;
}

/** What web/src/entry-server.tsx exports (built by `vite build --ssr`). */
interface Entry {
  PUBLIC_PAGES: SitePage[];
  APP_PAGES: SitePage[];
  pageMeta(locale: Locale, path: string, brandName: string): Promise<{ title: string; description: string }>;
  pageModules(path: string): { module: string; namespaces: string[] };
  renderPage(url: string, config: PublicConfig, plans?: unknown[]): Promise<string>;
}

/** og:locale of each language. */
const OG_LOCALE: Record<Locale, string> = { en: 'en_US', ru: 'ru_RU', fa: 'fa_IR', 'zh-CN': 'zh_CN' };

async function headTags(entry: Entry, locale: Locale, page: SitePage | undefined): Promise<string> {
  const brand = SITE_TOKENS.brandName;
  const meta = await entry.pageMeta(locale, page?.path ?? '/404', brand);
  const title = escapeHtml(meta.title);
  const tags = [`<title>${title}</title>`];
  if (page) {
    const description = escapeHtml(meta.description);
    const urlIn = (language: Locale) => `${SITE_TOKENS.publicUrl}${localizedPath(language, page.path)}`;
    const url = urlIn(locale);
    tags.push(
      `<meta name="description" content="${description}" />`,
      `<link rel="canonical" href="${url}" />`,
      // The same page in every language, and which one to show when none fits the reader.
      ...LOCALES.map((language) => `<link rel="alternate" hreflang="${HREFLANG[language]}" href="${urlIn(language)}" />`),
      `<link rel="alternate" hreflang="x-default" href="${urlIn(DEFAULT_LOCALE)}" />`,
      `<meta property="og:type" content="website" />`,
      `<meta property="og:site_name" content="${brand}" />`,
      `<meta property="og:title" content="${title}" />`,
      `<meta property="og:description" content="${description}" />`,
      `<meta property="og:url" content="${url}" />`,
      `<meta property="og:locale" content="${OG_LOCALE[locale]}" />`,
      `<meta name="twitter:card" content="summary" />`,
    );
  } else {
    tags.push('<meta name="robots" content="noindex" />');
  }
  return tags.join('\n    ');
}

function fill(template: string, locale: Locale, head: string, body: string): string {
  if (
    !template.includes(HEAD_SLOT) ||
    !template.includes('<div id="root"></div>') ||
    !template.includes(CONFIG_SLOT) ||
    !template.includes(PLANS_SLOT) ||
    !template.includes(HTML_LANG)
  ) {
    throw new Error('dist/web/index.html lacks the head slot, the root element, the config slot, the plans slot or <html lang="en"');
  }
  return template
    .replace(HTML_LANG, `<html lang="${HREFLANG[locale]}" dir="${textDirection(locale)}"`)
    .replace(HEAD_SLOT, head)
    .replace('<div id="root"></div>', `<div id="root">${body}</div>`);
}

const HTML_LANG = '<html lang="en"';

/**
 * The app shell's module preloads (it shows nothing until they have run), last in <head>: after the stylesheet, so
 * the CSS is asked for before the scripts. A prerendered page loads its modules after it has painted (loadAfterPaint).
 */
const withPreloads = (html: string, paths: readonly string[]) => html.replace('</head>', () => `  ${modulePreloadTags(paths).join('\n    ')}\n  </head>`);

/** `/` → index.html, `/features/locations` → features__locations.html, `/ru/` → ru__index.html. */
const fileNameFor = (path: string) => (path.endsWith('/') ? `${path.slice(1).replaceAll('/', '__')}index.html` : `${path.slice(1).replaceAll('/', '__')}.html`);
/** Files of another language than English carry its prefix: app.ru.html. */
const localeFile = (locale: Locale, name: string) => (locale === DEFAULT_LOCALE ? name : name.replace(/\.html$/, `.${LOCALE_PREFIX[locale].slice(1)}.html`));

async function main(): Promise<void> {
  const entry = (await import(pathToFileURL(SSR_ENTRY).href)) as Entry;
  const template = readFileSync(join(CLIENT_DIR, 'index.html'), 'utf8');
  const clientManifest = JSON.parse(readFileSync(CLIENT_MANIFEST, 'utf8')) as Manifest;
  const preloadsFor = modulePreloads(clientManifest);
  const afterPaint = loadAfterPaint(clientManifest);
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });

  const manifest: SiteManifest = { pages: [], appPaths: [], shell: 'app.html', notFound: '404.html', locales: {} };
  for (const locale of LOCALES) {
    for (const page of entry.PUBLIC_PAGES) {
      const path = localizedPath(locale, page.path);
      const file = fileNameFor(path);
      const head = await headTags(entry, locale, page);
      const preloads = preloadsFor({ ...entry.pageModules(page.path), locale });
      if (page.live) {
        await entry.renderPage(path, PLACEHOLDER_CONFIG, []); // it renders whole (throws otherwise)
        writeFileSync(join(OUT_DIR, file), afterPaint(fill(template, locale, head, ROOT_SLOT), preloads));
        manifest.pages.push({ path, file, live: true, locale });
        continue;
      }
      const body = await entry.renderPage(path, PLACEHOLDER_CONFIG);
      writeFileSync(join(OUT_DIR, file), afterPaint(fill(template, locale, head, body), preloads));
      manifest.pages.push({ path, file, locale });
    }
    const shell = localeFile(locale, 'app.html');
    const notFound = localeFile(locale, '404.html');
    const missing = await entry.renderPage(localizedPath(locale, '/404'), PLACEHOLDER_CONFIG);
    const notFoundPage = fill(template, locale, await headTags(entry, locale, undefined), missing);
    writeFileSync(join(OUT_DIR, notFound), afterPaint(notFoundPage, preloadsFor({ ...entry.pageModules('/404'), locale })));
    // The shell serves every browser-only page: it preloads what they all load first.
    const shellPage = template
      .replace(HTML_LANG, `<html lang="${HREFLANG[locale]}" dir="${textDirection(locale)}"`)
      .replace(HEAD_SLOT, `<title>${SITE_TOKENS.brandName}</title>`);
    writeFileSync(join(OUT_DIR, shell), withPreloads(shellPage, preloadsFor({ locale, namespaces: ['common'] })));
    manifest.appPaths.push(...entry.APP_PAGES.map((p) => localizedPath(locale, p.path)));
    if (locale !== DEFAULT_LOCALE) manifest.locales![locale] = { shell, notFound };
  }
  writeFileSync(join(OUT_DIR, SITE_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`prerendered ${manifest.pages.length} pages in ${LOCALES.length} languages and their 404 pages into dist/site`);
}

await main();
