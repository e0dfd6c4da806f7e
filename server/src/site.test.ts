import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_PAGE, LOGIN_PAGE, NOT_FOUND_PAGE, PUBLIC_PAGES, documentTitle, withBrand } from '../../shared/site-pages.js';
import { createTestDatabase, type TestDatabase } from '../test/databases.js';
import { buildTestApp, type TestApp } from '../test/test-app.js';
import { SITE_DIST_DIR } from './lib/package-info.js';

const BRAND = 'Lumen VPN';

/** The visible text of an HTML fragment: tags dropped, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

// What `curl` of each page returns: the built site (npm test builds it before this suite runs).
describe('the prerendered website, as served', () => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    if (!existsSync(join(SITE_DIST_DIR, 'manifest.json'))) throw new Error('The site is not built: run `npm run build:web` first.');
    database = await createTestDatabase('sqlite');
    t = await buildTestApp({ db: database.db });
  });
  afterAll(async () => {
    await t.app.close();
    await database.destroy();
  });

  it.each(PUBLIC_PAGES.map((page) => [page.path, page] as const))('%s has its heading, main text, title and description in the HTML', async (_path, page) => {
    const res = await t.app.inject({ method: 'GET', url: page.path });
    expect(res.statusCode).toBe(200);
    const h1s = [...res.body.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => textOf(m[1]!));
    expect(h1s).toEqual([withBrand(page.heading, BRAND)]);
    const main = /<main[^>]*>([\s\S]*?)<\/main>/.exec(res.body)?.[1] ?? '';
    const minimumText = page === HOME_PAGE ? 300 : page === LOGIN_PAGE ? 80 : 150;
    expect(textOf(main).length).toBeGreaterThan(minimumText);
    expect(res.body).toContain(`<title>${documentTitle(page.path, BRAND).replace(/'/g, '&#39;')}</title>`);
    expect(res.body).toMatch(/<meta name="description" content="[^"]{20,}" \/>/);
    expect(res.body).toMatch(/<meta property="og:title" content="[^"]+" \/>/);
    expect(res.body).not.toMatch(/%%[A-Z_]+%%/);
  });

  it('answers an unknown page with the 404 page and status 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/features/teleportation' });
    expect(res.statusCode).toBe(404);
    expect(textOf(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(res.body)?.[1] ?? '')).toBe(NOT_FOUND_PAGE.heading);
    expect(res.body).toContain('<meta name="robots" content="noindex" />');
  });

  it('lists every public page in the sitemap', async () => {
    const sitemap = (await t.app.inject({ method: 'GET', url: '/sitemap.xml' })).body;
    for (const page of PUBLIC_PAGES) expect(sitemap).toContain(`<loc>http://localhost:3000${page.path}</loc>`);
  });
});
