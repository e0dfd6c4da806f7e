import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../test/databases.js';
import { bearer, buildTestApp, signInDesktop, type TestApp } from '../../test/test-app.js';
import { startSmtpCatcher, type SmtpCatcher } from '../../test/smtp-catcher.js';
import { SITE_DIST_DIR } from '../lib/package-info.js';
import { pickEncoding } from '../lib/compression.js';

describe('pickEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', 'identity'],
    ['BR', 'br'],
    ['gzip;q=0, br;q=0', 'identity'],
  ] as const)('%s → %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});

/** Pages are compressed once and served as stored bytes, in the encoding asked for, until a setting or a plan changes. */
describe.each(TEST_DATABASES)('precompressed pages (%s)', (kind) => {
  let database: TestDatabase;
  let smtp: SmtpCatcher;
  let t: TestApp;

  beforeAll(async () => {
    if (!existsSync(join(SITE_DIST_DIR, 'manifest.json'))) throw new Error('The site is not built: run `npm run build:web` first.');
    database = await createTestDatabase(kind);
    smtp = await startSmtpCatcher();
    t = await buildTestApp({ db: database.db, smtp, env: { ADMIN_EMAILS: 'admin@example.com' } });
  });
  afterAll(async () => {
    await t.app.close();
    await smtp.close();
    await database.destroy();
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it.each(['/', '/pricing', '/download/windows', '/login', '/no-such-page'])('%s: br, gzip and plain say the same, with an ETag', async (url) => {
    const plain = await get(url);
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
    expect(br.headers.etag).toBe(plain.headers.etag);
    expect(plain.statusCode).toBe(url === '/no-such-page' ? 404 : 200);
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers 304 to a browser that has the page; a settings change makes a new page at once', async () => {
    const first = await get('/');
    const again = await get('/', { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const admin = await signInDesktop(t, smtp, 'admin@example.com');
    const saved = await t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: bearer(admin.accessToken), payload: { brandName: 'Cached Brand' } });
    expect(saved.statusCode).toBe(200);
    const changed = await get('/', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag as string });
    expect(changed.statusCode).toBe(200);
    expect(brotliDecompressSync(changed.rawPayload).toString('utf8')).toContain('Cached Brand');
    expect(changed.headers.etag).not.toBe(first.headers.etag);
  });
});
