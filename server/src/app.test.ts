import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../test/databases.js';
import { createSiteFixture, type SiteFixture } from '../test/site-fixture.js';
import { buildTestApp, type TestApp } from '../test/test-app.js';
import { APP_VERSION } from './lib/package-info.js';

describe.each(TEST_DATABASES)('the application shell (%s)', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let site: SiteFixture;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    site = createSiteFixture();
    t = await buildTestApp({ db: database.db, overrides: { webDir: site.webDir, siteDir: site.siteDir } });
    t.app.get('/api/test-explode', async () => {
      throw new Error('secret internal detail at /srv/app.ts:42');
    });
  });
  afterAll(async () => {
    await t.app.close();
    await database.destroy();
    site.remove();
  });

  it('reports health with the database state and version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, db: true, version: APP_VERSION });
  });

  it('serves public settings with defaults', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toEqual({
      brandName: 'Lumen VPN',
      supportEmail: 'support@localhost',
      locationsClaim: '50+',
      protectionFeatures: true,
      trialOffered: false,
      cardPaymentsEnabled: false,
      paymentMethods: [],
      stripePublishableKey: null,
      currency: 'usd',
      siteContentTranslations: {},
    });
  });

  it("fills the operator's site content in, and hides a feature the operator does not offer", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/pricing' });
    expect(page.body).toContain('Servers in 50+ locations');
    // A fresh store: no crypto, no trial plan to promise, no payment provider.
    expect(page.body).toContain('<html data-site-flags="no-crypto no-trial no-payment">');
    expect(page.body).not.toContain('example.com');
    expect((await t.app.inject({ method: 'GET', url: '/features/threat-protection' })).statusCode).toBe(200);

    await setBrand({ locations_claim: '12', protection_features: false });
    const changed = await t.app.inject({ method: 'GET', url: '/pricing' });
    expect(changed.body).toContain('Servers in 12 locations');
    expect(changed.body).toContain('<html data-site-flags="no-protection no-crypto no-trial no-payment">');
    const threat = await t.app.inject({ method: 'GET', url: '/features/threat-protection' });
    expect(threat.statusCode).toBe(404);
    expect(threat.body).toContain('<h1>Page Not Found</h1>');
    const sitemap = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.body).toContain('/pricing');
    expect(sitemap.body).not.toContain('threat-protection');
    await clearSettings();
  });

  it('reads the brand name from settings', async () => {
    await setBrand({ brand_name: 'Acme VPN', support_email: 'help@acme.test' });
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toMatchObject({ brandName: 'Acme VPN', supportEmail: 'help@acme.test' });
    await clearSettings();
  });

  /** Settings written straight into the database (not through the app): the app is told, as another instance would tell it. */
  const setBrand = async (value: Record<string, unknown>) => {
    await database
      .db('settings')
      .insert({ id: 'app_config', value: JSON.stringify(value), updated_at: new Date() })
      .onConflict('id')
      .merge();
    t.app.services.changeSignal.changed();
  };
  const clearSettings = async () => {
    await database.db('settings').where({ id: 'app_config' }).delete();
    t.app.services.changeSignal.changed();
  };

  it('serves a prerendered page with the current brand, support e-mail and public URL filled in', async () => {
    await setBrand({ brand_name: 'Acme VPN', support_email: 'help@acme.test' });
    const res = await t.app.inject({ method: 'GET', url: '/pricing' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<title>Pricing | Acme VPN</title>');
    expect(res.body).toContain('<h1>Pricing</h1>');
    expect(res.body).toContain('Write to help@acme.test');
    expect(res.body).toContain('href="http://localhost:3000/pricing"');
    expect(res.body).not.toMatch(/%%[A-Z_]+%%|<!--app-config-->/);
    const embedded = /<script type="application\/json" id="app-config">(.*?)<\/script>/.exec(res.body)![1]!;
    expect(JSON.parse(embedded)).toEqual({
      brandName: 'Acme VPN',
      supportEmail: 'help@acme.test',
      locationsClaim: '50+',
      protectionFeatures: true,
      trialOffered: false,
      cardPaymentsEnabled: false,
      paymentMethods: [],
      stripePublishableKey: null,
      currency: 'usd',
      siteContentTranslations: {},
    });
    expect((await t.app.inject({ method: 'GET', url: '/pricing/' })).statusCode).toBe(200);
  });

  it('escapes a brand name with markup in the page and in the embedded settings', async () => {
    await setBrand({ brand_name: 'Bob & </script><b>Co</b>' });
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.body).toContain('<title>Home | Bob &amp; &lt;/script&gt;&lt;b&gt;Co&lt;/b&gt;</title>');
    expect(res.body).not.toContain('</script><b>');
    expect(res.body).toContain('\\u003c/script>');
    await clearSettings();
  });

  it('serves the app shell for browser-only pages, and the 404 page with status 404 for unknown ones', async () => {
    const shell = await t.app.inject({ method: 'GET', url: '/dashboard?session_id=x' });
    expect(shell.statusCode).toBe(200);
    expect(shell.body).toContain('<div id="root"></div>');
    const missing = await t.app.inject({ method: 'GET', url: '/no-such-page' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<h1>Page Not Found</h1>');
  });

  it('never serves the raw templates or the build manifest', async () => {
    for (const url of ['/index.html', '/app.html', '/manifest.json', '/.vite/manifest.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('RAW TEMPLATE');
    }
  });

  it('caches hashed assets for a year', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/favicon.svg' })).statusCode).toBe(200);
  });

  it('sends an asset precompressed to a browser that takes brotli', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(asset.rawPayload).toString()).toBe('console.log(1)');
  });

  it('answers a file that was not there when the server started with the 404 page (the build is read once)', async () => {
    writeFileSync(join(site.webDir, 'assets', 'late-abc123.js'), 'console.log(2)');
    const late = await t.app.inject({ method: 'GET', url: '/assets/late-abc123.js' });
    expect(late.statusCode).toBe(404);
    expect(late.body).not.toContain('console.log(2)');
  });

  it('lists the public pages in sitemap.xml and keeps robots out of private paths', async () => {
    const sitemap = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.headers['content-type']).toContain('application/xml');
    expect(sitemap.body).toContain('<loc>http://localhost:3000/</loc>');
    expect(sitemap.body).toContain('<loc>http://localhost:3000/pricing</loc>');
    expect(sitemap.body).not.toContain('/dashboard');
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.body).toContain('Disallow: /api/');
    expect(robots.body).toContain('Disallow: /dashboard');
    expect(robots.body).toContain('Sitemap: http://localhost:3000/sitemap.xml');
  });

  it('sends security headers with a strict content security policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends a VPN client fetching /sub only nosniff, and a browser asking for the /sub page every header', async () => {
    const client = await t.app.inject({ method: 'GET', url: '/sub/no-such-token-0123456789abcdef', headers: { 'user-agent': 'v2rayNG/1.8.0' } });
    expect(client.headers['x-content-type-options']).toBe('nosniff');
    expect(client.headers['content-security-policy']).toBeUndefined();
    const browser = await t.app.inject({ method: 'GET', url: '/sub/no-such-token-0123456789abcdef', headers: { accept: 'text/html,*/*' } });
    expect(String(browser.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(browser.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers an unknown API route with a JSON 404, not the web app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', message: 'No route for GET /api/nothing-here.' });
    const del = await t.app.inject({ method: 'DELETE', url: '/dashboard' });
    expect(del.statusCode).toBe(404);
    expect(del.json().code).toBe('not_found');
  });

  it('hides internal errors behind a generic 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test-explode' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'internal_error', message: 'An unexpected error occurred' });
    expect(res.body).not.toContain('secret');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('health when the database is gone', () => {
  it('answers 503 with db false', async () => {
    const database = await createTestDatabase('sqlite');
    const t = await buildTestApp({ db: database.db });
    await database.destroy();
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ok: false, db: false, version: APP_VERSION });
    await t.app.close();
  });
});
