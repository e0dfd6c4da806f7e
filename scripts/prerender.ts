/**
 * Renders every public page to static HTML after `vite build` (client) and `vite build --ssr`
 * (web/src/entry-server.tsx). Output in dist/site: one HTML file per public page, the 404 page, the
 * empty app shell for browser-only pages, and manifest.json for the server. A live page (one that
 * shows the plans on sale) is written as a template instead: its head is final, and the server
 * renders its body on request with the same server bundle and the current plans.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PublicConfig } from '../shared/config.js';
import {
  CONFIG_SLOT, HEAD_SLOT, PLACEHOLDER_CONFIG, PLANS_SLOT, ROOT_SLOT, SITE_MANIFEST_FILE, SITE_TOKENS, escapeHtml, type SiteManifest,
} from '../shared/site-template.js';

const ROOT = join(import.meta.dirname, '..');
const CLIENT_DIR = join(ROOT, 'dist', 'web');
const SSR_ENTRY = join(ROOT, 'dist', 'ssr', 'entry-server.js');
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
  documentTitle(pathname: string, brandName: string): string;
  withBrand(text: string, brandName: string): string;
  renderPage(url: string, config: PublicConfig, plans?: unknown[]): Promise<string>;
}

function headTags(entry: Entry, page: SitePage | undefined): string {
  const brand = SITE_TOKENS.brandName;
  const title = escapeHtml(entry.documentTitle(page?.path ?? '/404', brand));
  const tags = [`<title>${title}</title>`];
  if (page) {
    const description = escapeHtml(entry.withBrand(page.description, brand));
    const url = `${SITE_TOKENS.publicUrl}${page.path === '/' ? '/' : page.path}`;
    tags.push(
      `<meta name="description" content="${description}" />`,
      `<link rel="canonical" href="${url}" />`,
      `<meta property="og:type" content="website" />`,
      `<meta property="og:site_name" content="${brand}" />`,
      `<meta property="og:title" content="${title}" />`,
      `<meta property="og:description" content="${description}" />`,
      `<meta property="og:url" content="${url}" />`,
      `<meta name="twitter:card" content="summary" />`,
    );
  } else {
    tags.push('<meta name="robots" content="noindex" />');
  }
  return tags.join('\n    ');
}

function fill(template: string, head: string, body: string): string {
  if (!template.includes(HEAD_SLOT) || !template.includes('<div id="root"></div>') || !template.includes(CONFIG_SLOT) || !template.includes(PLANS_SLOT)) {
    throw new Error('dist/web/index.html lacks the head slot, the root element, the config slot or the plans slot');
  }
  return template.replace(HEAD_SLOT, head).replace('<div id="root"></div>', `<div id="root">${body}</div>`);
}

const fileNameFor = (path: string) => (path === '/' ? 'index.html' : `${path.slice(1).replaceAll('/', '__')}.html`);

async function main(): Promise<void> {
  const entry = (await import(pathToFileURL(SSR_ENTRY).href)) as Entry;
  const template = readFileSync(join(CLIENT_DIR, 'index.html'), 'utf8');
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });

  const manifest: SiteManifest = { pages: [], appPaths: entry.APP_PAGES.map((p) => p.path), shell: 'app.html', notFound: '404.html' };
  for (const page of entry.PUBLIC_PAGES) {
    const file = fileNameFor(page.path);
    if (page.live) {
      await entry.renderPage(page.path, PLACEHOLDER_CONFIG, []); // it renders whole (throws otherwise)
      writeFileSync(join(OUT_DIR, file), fill(template, headTags(entry, page), ROOT_SLOT));
      manifest.pages.push({ path: page.path, file, live: true });
      continue;
    }
    const body = await entry.renderPage(page.path, PLACEHOLDER_CONFIG);
    writeFileSync(join(OUT_DIR, file), fill(template, headTags(entry, page), body));
    manifest.pages.push({ path: page.path, file });
  }
  writeFileSync(join(OUT_DIR, manifest.notFound), fill(template, headTags(entry, undefined), await entry.renderPage('/404', PLACEHOLDER_CONFIG)));
  writeFileSync(join(OUT_DIR, manifest.shell), template.replace(HEAD_SLOT, `<title>${SITE_TOKENS.brandName}</title>`));
  writeFileSync(join(OUT_DIR, SITE_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`prerendered ${manifest.pages.length} pages and the 404 page into dist/site`);
}

await main();
