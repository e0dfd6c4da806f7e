import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../db/knex.js';
import { SITE_DIST_DIR } from '../lib/package-info.js';
import { seedDefaultPlans } from '../modules/plans/plans.seed.js';
import { startCuttableProxy } from '../../test/cuttable-proxy.js';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../test/databases.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../../test/fake-panels/marzneshin.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';
import { createMarzneshinDriver } from '../panels/marzneshin.js';
import { isDatabaseUnreachable } from './database-down.js';

describe('telling a database that cannot be reached from a fault', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
  it('takes refused, cut and shutting-down connections and an exhausted pool, and nothing else', () => {
    expect(isDatabaseUnreachable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnreachable(withCode('terminating connection due to administrator command', '57P01'))).toBe(true);
    expect(isDatabaseUnreachable(withCode('the database system is starting up', '57P03'))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' }))).toBe(true);
    expect(isDatabaseUnreachable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnreachable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnreachable(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isDatabaseUnreachable('ECONNREFUSED')).toBe(false);
  });
});

const PAGES = ['/', '/pricing', '/download/windows', '/ru/pricing'];

describe.each(TEST_DATABASES)('the public pages while the database is down (%s)', (kind) => {
  let database: TestDatabase;
  let appDb: Db;
  let t: TestApp;
  let takeDown: () => Promise<void>;

  beforeAll(async () => {
    if (!existsSync(join(SITE_DIST_DIR, 'manifest.json'))) throw new Error('The site is not built: run `npm run build:web` first.');
    database = await createTestDatabase(kind);
    await seedDefaultPlans(database.db, new Date());
    if (kind === 'postgres') {
      const url = new URL(database.url);
      const proxy = await startCuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.host = `127.0.0.1:${proxy.port}`;
      appDb = createDb(url.href, { searchPath: database.schema });
      takeDown = proxy.cut;
    } else {
      appDb = createDb(database.url);
      takeDown = () => appDb.destroy();
    }
    t = await buildTestApp({ db: appDb });
  });
  afterAll(async () => {
    await t.app.close();
    await appDb.destroy().catch(() => undefined);
    await database.destroy();
  });

  it('serves /, /pricing and /download/windows from what it last read, at once, with the prices', async () => {
    const before = new Map<string, string>();
    for (const path of PAGES) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      before.set(path, res.body);
    }
    await takeDown();
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
    // Past every cache's time limit: each page would read the settings and plans again.
    t.clock.advance(60);
    for (const path of PAGES) {
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      expect(Date.now() - started, path).toBeLessThan(2_000);
      expect(res.body, path).toBe(before.get(path));
    }
    expect((await t.app.inject({ method: 'GET', url: '/pricing' })).body).toContain('$12.99');
    expect((await t.app.inject({ method: 'GET', url: '/api/config' })).statusCode).toBe(200);
  });
});

const V2RAYNG = 'v2rayNG/1.8.0';

describe.each(TEST_DATABASES)('/sub, /api/plans and the rest while the database is down (%s)', (kind) => {
  let database: TestDatabase;
  let appDb: Db;
  let t: TestApp;
  let panel: FakeMarzneshin;
  let takeDown: () => Promise<void>;
  const token = randomBytes(24).toString('base64url');

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedDefaultPlans(database.db, new Date());
    panel = await startFakeMarzneshin();
    const now = new Date();
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    const driver = createMarzneshinDriver({ url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: '1' });
    const created = await driver.createAccount({ username: 'user_down0001', dataLimitBytes: 1024 ** 3, expiresAt, note: 'test' });
    await database.db('user_profiles').insert({ id: 'user-1', email: 'user@example.com', role: 'user', trial_used: false, created_at: now, updated_at: now });
    await database.db('masterservers').insert({
      ...{ id: 'srv-1', kind: 'marzneshin', name: 'srv-1', url: panel.url, username: panel.admin.username },
      ...{ password_encrypted: 'not-a-real-secret', service_id: '1', locations: 'all', status: 'active', created_at: now, updated_at: now },
    });
    await database.db('vpn_accounts').insert({
      ...{ id: 'acct-1', user_id: 'user-1', master_server_id: 'srv-1', username: created.username, status: 'active', expire_date: expiresAt },
      ...{ data_limit: 1024 ** 3, sub_token: token, subscription_url: created.subscriptionUrl, metadata: JSON.stringify({ used_traffic: 0 }) },
      ...{ created_at: now, updated_at: now },
    });
    if (kind === 'postgres') {
      const url = new URL(database.url);
      const proxy = await startCuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.host = `127.0.0.1:${proxy.port}`;
      appDb = createDb(url.href, { searchPath: database.schema });
      takeDown = proxy.cut;
    } else {
      appDb = createDb(database.url);
      takeDown = () => appDb.destroy();
    }
    t = await buildTestApp({ db: appDb });
  });
  afterAll(async () => {
    await t.app.close();
    await appDb.destroy().catch(() => undefined);
    await panel.close();
    await database.destroy();
  });

  const sub = (path: string, headers: Record<string, string> = { 'user-agent': V2RAYNG }) => t.app.inject({ method: 'GET', url: `/sub/${path}`, headers });
  const unavailable = { code: 'service_unavailable', message: expect.any(String) };

  it('serves /sub/<token> and /api/plans from memory, at once, and answers 503 (never 500) where nothing can be served', async () => {
    const plans = await t.app.inject({ method: 'GET', url: '/api/plans' });
    expect(plans.statusCode).toBe(200);
    // A VPN app asks again and again: the account is then kept in memory with its configuration.
    // The first fetch asks the panel (on a busy machine it may time out once: the app answers 503 and is asked again).
    await expect.poll(async () => (await sub(token)).statusCode, { timeout: 15_000, interval: 500 }).toBe(200);
    const first = await sub(token);
    expect(first.statusCode).toBe(200);
    expect((await sub(token)).body).toBe(first.body);

    await takeDown();
    // Past every cache's time limit: each answer would read the database again.
    t.clock.advance(120);
    for (let i = 0; i < 3; i += 1) {
      const started = Date.now();
      const again = await t.app.inject({ method: 'GET', url: '/api/plans' });
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(plans.body);
      const config = await sub(token);
      expect(config.statusCode).toBe(200);
      expect(config.body).toBe(first.body);
      expect(Date.now() - started).toBeLessThan(2_000);
    }

    // The link opened in a browser: its page, from the same memory.
    const browser = await sub(token, { 'user-agent': 'Mozilla/5.0', accept: 'text/html' });
    expect(browser.statusCode).toBe(200);
    expect(browser.body).toMatch(/^<!doctype html>/i);

    // Nothing in memory to answer with: 503 `{ code, message }` with Retry-After, so clients and providers try again.
    const answers = [
      await sub(randomBytes(24).toString('base64url')),
      await t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email: 'someone@example.com' } }),
      await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/yookassa',
        payload: { type: 'notification', event: 'payment.succeeded', object: { id: 'p-1' } },
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: { 'stripe-signature': 't=1,v1=00', 'content-type': 'application/json' },
        payload: JSON.stringify({ id: 'evt_1', type: 'invoice.paid' }),
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/cryptopay',
        headers: { 'crypto-pay-api-signature': '00', 'content-type': 'application/json' },
        payload: JSON.stringify({ update_id: 1, update_type: 'invoice_paid', payload: {} }),
      }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.raw.req.url).toBe(503);
      expect(res.json(), res.raw.req.url).toEqual(unavailable);
      expect(Number(res.headers['retry-after']), res.raw.req.url).toBeGreaterThan(0);
    }
  });
});
