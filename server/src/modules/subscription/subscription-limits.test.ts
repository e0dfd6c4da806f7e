import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { createTestClock } from '../../../test/test-clock.js';
import { bearer, buildTestApp, signInDesktop, type TestApp } from '../../../test/test-app.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';
import { DEFAULT_RATE_LIMITS } from '../../plugins/rate-limit.js';
import type { SubscriptionAccount } from './subscription.repo.js';
import { createSubscriptionService } from './subscription.service.js';

const CLIENT = { 'user-agent': 'v2rayNG/1.8.5' };
const unknownToken = () => randomBytes(24).toString('base64url');

describe.each(TEST_DATABASES)('GET /sub/:token per-IP limit (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let panel: FakeMarzneshin;
  let subPath: string;

  beforeAll(async () => {
    panel = await startFakeMarzneshin();
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com' },
      rateLimits: { subPerIp: DEFAULT_RATE_LIMITS.subPerIp },
      overrides: { driverFactory: (_kind, connection) => createMarzneshinDriver(connection, { timeoutMs: 2000 }) },
    });
    const admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    const call = (method: string, url: string, payload: object) => t.app.inject({ method: method as 'POST', url, headers: bearer(admin.accessToken), payload });
    expect(
      (
        await call('POST', '/api/admin/servers', {
          kind: 'marzneshin',
          name: 'DE',
          url: panel.url,
          username: panel.admin.username,
          password: panel.admin.password,
          serviceId: '1',
        })
      ).statusCode,
    ).toBe(201);
    const plan = await call('POST', '/api/admin/plans', { name: 'Free', days: 30, price: 0, dataLimitBytes: 1024 ** 3, locations: 'all' });
    const account = await call('POST', '/api/accounts', { planId: plan.json().id });
    expect(account.statusCode, account.body).toBe(201);
    subPath = new URL(account.json().combinedUrl).pathname;
  });
  afterAll(async () => {
    await t.app.close();
    await panel.close();
  });

  const get = (path: string, ip: string) => t.app.inject({ method: 'GET', url: path, headers: CLIENT, remoteAddress: ip });

  it('answers the 121st request in a minute from one address 429 with Retry-After, and serves another address', async () => {
    const ip = '203.0.113.7';
    const { max } = DEFAULT_RATE_LIMITS.subPerIp;
    expect(max).toBe(120);
    for (let i = 0; i < max; i += 1) {
      const res = await get(`/sub/${unknownToken()}`, ip);
      expect(res.statusCode, `request ${i + 1}`).toBe(404);
    }
    const limited = await get(`/sub/${unknownToken()}`, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ code: 'rate_limited', message: expect.stringMatching(/try again in \d+ seconds/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // The limit is the address's, whatever the token: its own valid link waits too.
    expect((await get(subPath, ip)).statusCode).toBe(429);

    const other = await get(subPath, '203.0.113.8');
    expect(other.statusCode).toBe(200);
    expect(Buffer.from(other.body, 'base64').toString()).toMatch(/^vless:\/\//);
  });
});

describe('unknown subscription tokens', () => {
  function serviceWithCountingRepo(rows: Record<string, SubscriptionAccount> = {}) {
    const clock = createTestClock();
    const lookups: string[] = [];
    const service = createSubscriptionService({
      db: undefined as never,
      settings: { getAppSettings: async () => ({ brandName: 'B', supportEmail: 's@example.com' }) },
      publicUrl: new URL('http://localhost:3000'),
      clock: clock.now,
      repo: {
        findByTokens: async (tokens) => {
          lookups.push(...tokens);
          return new Map(tokens.flatMap((token) => (rows[token] ? [[token, rows[token]] as const] : [])));
        },
        ownerLocale: async () => null,
      },
    });
    return { service, clock, lookups };
  }

  it('answers a repeated unknown token 404 from memory for 30 s, then asks the database again', async () => {
    const { service, clock, lookups } = serviceWithCountingRepo();
    const token = unknownToken();
    for (let i = 0; i < 5; i += 1) {
      await expect(service.handle({ path: token, userAgent: 'v2rayNG/1.8.5' })).rejects.toMatchObject({ statusCode: 404, code: 'not_found' });
    }
    await expect(service.handle({ path: `${token}/links` })).rejects.toMatchObject({ statusCode: 404 });
    expect(lookups).toEqual([token]);
    clock.advance(29);
    await expect(service.handle({ path: token })).rejects.toMatchObject({ statusCode: 404 });
    expect(lookups).toHaveLength(1);
    clock.advance(2);
    await expect(service.handle({ path: token })).rejects.toMatchObject({ statusCode: 404 });
    expect(lookups).toEqual([token, token]);
  });

  it('keeps each unknown token apart: another one is still looked up', async () => {
    const { service, lookups } = serviceWithCountingRepo();
    const [first, second] = [unknownToken(), unknownToken()];
    await expect(service.handle({ path: first })).rejects.toMatchObject({ statusCode: 404 });
    await expect(service.handle({ path: second })).rejects.toMatchObject({ statusCode: 404 });
    expect(lookups).toEqual([first, second]);
    expect(service.stats().unknownTokens).toBe(2);
  });
});
