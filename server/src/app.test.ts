import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../test/databases.js';
import { buildTestApp, type TestApp } from '../test/test-app.js';
import { APP_VERSION } from './lib/package-info.js';

describe.each(TEST_DATABASES)('the application shell (%s)', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let webDir: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    webDir = mkdtempSync(join(tmpdir(), 'vpn-web-'));
    mkdirSync(join(webDir, 'assets'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>App</title><div id="root"></div>');
    writeFileSync(join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await buildTestApp({ db: database.db, overrides: { webDir } });
    t.app.get('/api/test-explode', async () => {
      throw new Error('secret internal detail at /srv/app.ts:42');
    });
  });
  afterAll(async () => {
    await t.app.close();
    await database.destroy();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('reports health with the database state and version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, db: true, version: APP_VERSION });
  });

  it('serves public settings with defaults', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toEqual({ brandName: 'Lumen VPN', supportEmail: 'support@example.com', cardPaymentsEnabled: false, stripePublishableKey: null });
  });

  it('reads the brand name from settings', async () => {
    await database.db('settings').insert({ id: 'app_config', value: JSON.stringify({ brand_name: 'Acme VPN', support_email: 'help@acme.test' }), updated_at: new Date() });
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toMatchObject({ brandName: 'Acme VPN', supportEmail: 'help@acme.test' });
    await database.db('settings').where({ id: 'app_config' }).delete();
  });

  it('serves the web app for client-side routes and caches hashed assets', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard?session_id=x', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div id="root">');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('sends security headers with a strict content security policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers an unknown API route with a JSON 404, not the web app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', message: 'No route for GET /api/nothing-here.' });
    expect((await t.app.inject({ method: 'DELETE', url: '/dashboard' })).statusCode).toBe(404);
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
