import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, HREFLANG, LOCALES, localizedPath, textDirection, type Locale } from '../../shared/locales.js';
import { ADMIN_TAB_IDS, adminTabPath } from '../../shared/admin-tabs.js';
import { PUBLIC_PAGES } from '../../shared/site-pages.js';
import { createTestDatabase, type TestDatabase } from '../test/databases.js';
import { buildTestApp, type TestApp } from '../test/test-app.js';
import { SITE_DIST_DIR } from './lib/package-info.js';
import { seedDefaultPlans } from './modules/plans/plans.seed.js';
import { englishLeftIn, englishVocabulary, readableText } from '../test/untranslated.js';

const BRAND = 'Lumen VPN';

// Every public page in every language, as `curl` gets it from the built site.
describe('the website in every language', () => {
  let database: TestDatabase;
  let t: TestApp;
  let vocabulary: Set<string>;
  /** Words of the operator's own data (plan names and features): not ours to translate. */
  let operatorWords: Set<string>;

  beforeAll(async () => {
    if (!existsSync(join(SITE_DIST_DIR, 'manifest.json'))) throw new Error('The site is not built: run `npm run build:web` first.');
    database = await createTestDatabase('sqlite');
    await seedDefaultPlans(database.db, new Date()); // a fresh install's plans: the pricing page shows prices
    t = await buildTestApp({ db: database.db });
    vocabulary = englishVocabulary();
    const plans = (await t.app.inject({ method: 'GET', url: '/api/plans' })).json<Array<Record<string, unknown>>>();
    operatorWords = new Set(
      JSON.stringify(plans.map((plan) => [plan.name, plan.tier, plan.features]))
        .toLowerCase()
        .match(/[a-z][a-z'’-]*[a-z]/g) ?? [],
    );
  });
  afterAll(async () => {
    await t.app.close();
    await database.destroy();
  });

  const cases = LOCALES.flatMap((locale) => PUBLIC_PAGES.map((page) => [localizedPath(locale, page.path), locale, page.path] as const));

  it.each(cases)('%s is in its language: lang, dir, hreflang alternates, no English left', async (url, locale: Locale, path) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(new RegExp(`<html lang="${HREFLANG[locale]}" dir="${textDirection(locale)}"`));
    for (const language of LOCALES) {
      expect(res.body).toContain(`<link rel="alternate" hreflang="${HREFLANG[language]}" href="http://localhost:3000${localizedPath(language, path)}" />`);
    }
    expect(res.body).toContain(`<link rel="alternate" hreflang="x-default" href="http://localhost:3000${path}" />`);
    expect(res.body).toContain(`<link rel="canonical" href="http://localhost:3000${url}" />`);
    expect(res.body).not.toMatch(/%%[A-Z_]+%%/);
    // The page names one script, its loader, with the entry and the modules it hydrates with; every one of them is served.
    const loader = /<script type="module" fetchpriority="low" src="([^"]+)" data-entry="([^"]+)" data-modules="([^"]+)"><\/script>/.exec(res.body);
    expect(loader, 'the loader script tag').not.toBeNull();
    expect(res.body.match(/<script type="module"/g)).toHaveLength(1);
    const modules = [loader![1]!, loader![2]!, ...loader![3]!.split(' ')];
    expect(modules.length).toBeGreaterThan(4);
    for (const href of modules) {
      const script = await t.app.inject({ method: 'GET', url: href });
      expect(script.statusCode, href).toBe(200);
      expect(script.headers['content-type'], href).toMatch(/javascript/);
    }
    // A message id shows where a catalogue lacks the message (ids are dotted: `pricing.faq.title`).
    expect(readableText(res.body)).not.toMatch(
      /\b(?:common|landing|pricing|login|account|features|trust|legal|support|download|title|description|nav|header|footer)\.[a-z][\w.-]*[a-zA-Z]\b/,
    );
    if (locale !== DEFAULT_LOCALE) {
      const allowed = new Set([...BRAND.toLowerCase().split(' '), ...operatorWords]);
      expect(englishLeftIn(res.body, vocabulary, allowed), `English words on ${url}`).toEqual([]);
      const title = /<title>([^<]*)<\/title>/.exec(res.body)?.[1] ?? '';
      const englishTitle = /<title>([^<]*)<\/title>/.exec((await t.app.inject({ method: 'GET', url: path })).body)?.[1];
      if (path !== '/gdpr') expect(title).not.toBe(englishTitle);
    }
  });

  it('serves /ru/pricing in Russian with Russian prices, and /fa/ right to left', async () => {
    const pricing = await t.app.inject({ method: 'GET', url: '/ru/pricing' });
    expect(pricing.body).toContain('<html lang="ru" dir="ltr"');
    expect(readableText(pricing.body)).toMatch(/\d+,\d{2}\s\$/); // 12,99 $ — the ru format of US dollars
    const persian = await t.app.inject({ method: 'GET', url: '/fa/' });
    expect(persian.statusCode).toBe(200);
    expect(persian.body).toContain('<html lang="fa" dir="rtl"');
    expect((await t.app.inject({ method: 'GET', url: '/fa' })).statusCode).toBe(200);
  });

  it('answers an unknown page under a language with that language’s 404 page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ru/features/teleportation' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<html lang="ru" dir="ltr"');
    expect(res.body).toContain('Страница не найдена');
  });

  it("gives the browser React Router's production build, without its development warnings", async () => {
    const shell = (await t.app.inject({ method: 'GET', url: '/dashboard' })).body;
    const scripts = [...shell.matchAll(/<(?:script type="module" crossorigin src|link rel="modulepreload" crossorigin href)="([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    const code = (await Promise.all(scripts.map(async (url) => (await t.app.inject({ method: 'GET', url })).body))).join('\n');
    expect(code).toContain('useNavigate() may be used only in the context of a <Router> component'); // the router is there
    expect(code).not.toContain('No routes matched location'); // a warning of its development build only
  });

  it('serves the app shell of the dashboard in each language', async () => {
    for (const locale of LOCALES) {
      const res = await t.app.inject({ method: 'GET', url: localizedPath(locale, '/dashboard') });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`<html lang="${HREFLANG[locale]}" dir="${textDirection(locale)}"`);
      // It shows nothing until its scripts run, so it asks for them at once rather than after a paint.
      expect(res.body).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
      expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/vendor-');
      expect(res.body).not.toContain('data-entry=');
    }
  });

  it('serves the app shell at a payment link in each language, and the 404 page below one', async () => {
    for (const locale of LOCALES) {
      const url = localizedPath(locale, '/pay/AbC123_-token');
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain(`<html lang="${HREFLANG[locale]}" dir="${textDirection(locale)}"`);
      expect(res.body, url).toContain('<div id="root"></div>');
      expect((await t.app.inject({ method: 'GET', url: `${url}/more` })).statusCode).toBe(404);
    }
  });

  it('serves the app shell at every admin tab in each language (a reload or a link opens that tab), and the 404 page at a tab that is none', async () => {
    for (const locale of LOCALES) {
      for (const tab of ADMIN_TAB_IDS) {
        const url = localizedPath(locale, adminTabPath(tab));
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toContain(`<html lang="${HREFLANG[locale]}" dir="${textDirection(locale)}"`);
        expect(res.body, url).toContain('<div id="root"></div>');
      }
      const missing = await t.app.inject({ method: 'GET', url: localizedPath(locale, '/admin/nope') });
      expect(missing.statusCode).toBe(404);
    }
  });

  it('lists every page in every language in the sitemap, each with its alternates', async () => {
    const sitemap = (await t.app.inject({ method: 'GET', url: '/sitemap.xml' })).body;
    expect(sitemap).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    for (const [url] of cases) expect(sitemap).toContain(`<loc>http://localhost:3000${url}</loc>`);
    expect(sitemap).toContain('<xhtml:link rel="alternate" hreflang="fa" href="http://localhost:3000/fa/pricing"/>');
    const robots = (await t.app.inject({ method: 'GET', url: '/robots.txt' })).body;
    expect(robots).toContain('Disallow: /ru/dashboard');
    // `/admin` covers the admin's tabs in each language: they are not listed one by one.
    expect(robots).toContain('Disallow: /ru/admin\n');
    expect(robots).not.toContain('/admin/');
    // A payment link's page, whatever its token, in each language.
    expect(robots).toContain('Disallow: /pay/\n');
    expect(robots).toContain('Disallow: /ru/pay/\n');
  });
});
