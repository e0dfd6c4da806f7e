import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SITE_MANIFEST_FILE, type SiteManifest } from '../../../../shared/site-template.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { createSiteFixture, type SiteFixture } from '../../../test/site-fixture.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../test/test-app.js';
import { parseJson } from '../../db/values.js';
import { APP_CONFIG_ID } from './settings.repo.js';

/** The fixture site with its pricing page also in Russian and Persian, as the build writes them (same tokens). */
function withLanguages(site: SiteFixture): void {
  const manifestPath = join(site.siteDir, SITE_MANIFEST_FILE);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as SiteManifest;
  const english = readFileSync(join(site.siteDir, 'pricing.html'), 'utf8');
  for (const locale of ['ru', 'fa'] as const) {
    writeFileSync(join(site.siteDir, `${locale}-pricing.html`), english.replace('<html ', `<html lang="${locale}" `));
    manifest.pages.push({ path: `/${locale}/pricing`, file: `${locale}-pricing.html`, locale });
  }
  writeFileSync(manifestPath, JSON.stringify(manifest));
}

/** `siteContentTranslations` through PUT /api/admin/settings, in /api/config, and on each language's pages. */
describe.each(TEST_DATABASES)('site content per language (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: DesktopSession;
  let user: DesktopSession;
  let site: SiteFixture;

  const call = (session: DesktopSession | null, method: 'GET' | 'PUT', payload?: object) =>
    t.app.inject({ method, url: '/api/admin/settings', headers: session ? bearer(session.accessToken) : {}, ...(payload ? { payload } : {}) });
  const storedConfig = async () => parseJson<Record<string, unknown>>((await env.database.db('settings').where({ id: APP_CONFIG_ID }).first())?.value, {});
  const publicConfig = async () => (await t.app.inject({ method: 'GET', url: '/api/config' })).json();
  const page = async (url: string) => (await t.app.inject({ method: 'GET', url })).body;

  beforeAll(async () => {
    site = createSiteFixture();
    withLanguages(site);
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com' },
      overrides: { webDir: site.webDir, siteDir: site.siteDir },
    });
    admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    user = await signInDesktop(t, env.smtp, `site-content-user-${kind}@example.com`);
  });
  afterAll(async () => {
    await t.app.close();
    site.remove();
  });
  beforeEach(async () => {
    await env.database.db('settings').where({ id: APP_CONFIG_ID }).delete();
    t.app.services.changeSignal.changed();
  });

  it('is empty until an admin gives one: every language shows the English claim', async () => {
    expect((await call(admin, 'GET')).json()).toMatchObject({ locationsClaim: '50+', siteContentTranslations: {} });
    expect(await publicConfig()).toMatchObject({ locationsClaim: '50+', siteContentTranslations: {} });
    expect(await page('/ru/pricing')).toContain('Servers in 50+ locations');
  });

  it("saves each language's claim, returns it publicly, and fills it into that language's pages only", async () => {
    const res = await call(admin, 'PUT', {
      locationsClaim: '40+',
      siteContentTranslations: { ru: { locationsClaim: ' 45+ ' }, fa: { locationsClaim: '' }, 'zh-CN': {} },
    });
    expect(res.statusCode, res.body).toBe(200);
    // An empty claim is no claim: Persian and Chinese fall back to English.
    expect(res.json()).toMatchObject({ locationsClaim: '40+', siteContentTranslations: { ru: { locationsClaim: '45+' } } });
    expect(res.json().siteContentTranslations).toEqual({ ru: { locationsClaim: '45+' } });
    expect(await storedConfig()).toMatchObject({ site_content_translations: { ru: { locationsClaim: '45+' } } });
    expect((await publicConfig()).siteContentTranslations).toEqual({ ru: { locationsClaim: '45+' } });

    expect(await page('/ru/pricing')).toContain('Servers in 45+ locations');
    // Written in the page's own digits from the first paint (the page hydrates with the same text).
    expect(await page('/fa/pricing')).toContain('Servers in ۴۰+ locations');
    expect(await page('/pricing')).toContain('Servers in 40+ locations');
    const embedded = /<script type="application\/json" id="app-config">(.*?)<\/script>/.exec(await page('/ru/pricing'))![1]!;
    expect(JSON.parse(embedded)).toMatchObject({ locationsClaim: '40+', siteContentTranslations: { ru: { locationsClaim: '45+' } } });
  });

  it('replaces the whole object when sent again, and keeps it when another setting changes', async () => {
    await call(admin, 'PUT', { siteContentTranslations: { ru: { locationsClaim: '45+' }, fa: { locationsClaim: '30' } } });
    await call(admin, 'PUT', { brandName: 'Acme VPN' });
    expect((await call(admin, 'GET')).json().siteContentTranslations).toEqual({ ru: { locationsClaim: '45+' }, fa: { locationsClaim: '30' } });
    const res = await call(admin, 'PUT', { siteContentTranslations: { fa: { locationsClaim: '35' } } });
    expect(res.json().siteContentTranslations).toEqual({ fa: { locationsClaim: '35' } });
    expect(await page('/ru/pricing')).toContain('Servers in 50+ locations');
    expect(await page('/fa/pricing')).toContain('Servers in ۳۵ locations');
  });

  it.each([
    ['a claim that is not a number', { ru: { locationsClaim: 'many' } }],
    ['a claim too long', { fa: { locationsClaim: '1234567890123' } }],
    ['a language the site does not have', { de: { locationsClaim: '50+' } }],
    ['English, which is the setting itself', { en: { locationsClaim: '50+' } }],
    ['a field it does not know', { ru: { brandName: 'Люмен' } }],
    ['not an object', 'ru: 50+'],
  ])('answers 400 validation_failed for %s, and saves nothing', async (_case, value) => {
    await call(admin, 'PUT', { siteContentTranslations: { ru: { locationsClaim: '45+' } } });
    const before = await storedConfig();
    const res = await call(admin, 'PUT', { siteContentTranslations: value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    expect(await storedConfig()).toEqual(before);
  });

  it('answers 403 to a customer and 401 signed out, and saves nothing', async () => {
    const asUser = await call(user, 'PUT', { siteContentTranslations: { ru: { locationsClaim: '45+' } } });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().code).toBe('forbidden');
    expect((await call(null, 'PUT', { siteContentTranslations: { ru: { locationsClaim: '45+' } } })).statusCode).toBe(401);
    expect(await storedConfig()).toEqual({});
  });
});
