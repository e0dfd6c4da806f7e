import type { InjectOptions } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../test/databases.js';
import { refusedPort, startCuttableProxy, startSilentServer, type CuttableProxy } from '../../test/cuttable-proxy.js';
import { useTestEnvironment } from '../../test/environment.js';
import { bearer, buildTestApp, signInDesktop, type TestApp } from '../../test/test-app.js';
import { RATE_LIMIT_KEY_PREFIX } from '../lib/rate-limit-counters.js';

const limits = { subPerIp: { max: 5, windowSeconds: 60 }, otpPerIp: { max: 3, windowSeconds: 60 } };

/** Milliseconds a request took, and its status. */
async function timed(t: TestApp, request: InjectOptions) {
  const started = performance.now();
  const res = await t.app.inject(request);
  return { status: res.statusCode, ms: performance.now() - started };
}

let addressCount = 0;
let adminCount = 0;
/** An admin of their own for each app (a second code for one address would wait for its resend cool-down). */
const nextAdmin = () => `admin${(adminCount += 1)}-${Date.now()}@example.com`;
/** A client address of its own for each check, so counters of one check do not meet another's. */
const nextAddress = () => `10.77.${Math.floor(Math.random() * 200)}.${(addressCount += 1)}`;

describe.each(TEST_DATABASES)('rate limits while Redis cannot be reached (%s)', (kind) => {
  const env = useTestEnvironment(kind);

  /** Over the /sub limit and the code-request limit from one address: every answer fast, the limits still hold. */
  async function expectLimitsHoldFast(t: TestApp) {
    const subIp = nextAddress();
    const subs = [];
    for (let i = 0; i < 8; i += 1) subs.push(await timed(t, { method: 'GET', url: '/sub/no-such-token', remoteAddress: subIp }));
    expect(subs.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 429, 429, 429]);
    const otpIp = nextAddress();
    const codes = [];
    for (let i = 0; i < 5; i += 1) {
      codes.push(await timed(t, { method: 'POST', url: '/api/auth/otp', payload: { email: `c${i}-${otpIp}@example.com` }, remoteAddress: otpIp }));
    }
    expect(codes.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    // The probes saw 4 s a request (8 s for a sign-in code, two limits): now no request waits for Redis (the
    // bound leaves room for a busy test machine).
    for (const r of [...subs, ...codes]) expect(r.ms).toBeLessThan(2_000);
  }

  async function systemRateLimits(t: TestApp, accessToken: string) {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/system', headers: bearer(accessToken) });
    expect(res.statusCode).toBe(200);
    return res.json().rateLimits as { store: string; redisDownSince: string | null };
  }

  it('with a Redis address that refuses connections: answers at once, counts here, and System says so', async () => {
    const port = await refusedPort();
    const adminEmail = nextAdmin();
    const t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, ADMIN_EMAILS: adminEmail },
      rateLimits: limits,
    });
    await t.app.ready();
    await expectLimitsHoldFast(t);
    const admin = await signInDesktop(t, env.smtp, adminEmail);
    expect(await systemRateLimits(t, admin.accessToken)).toEqual({ store: 'memory_fallback', redisDownSince: expect.any(String) });
    await t.app.close();
  });

  it('with a Redis that takes the connection and never answers: the same', async () => {
    const silent = await startSilentServer();
    const adminEmail = nextAdmin();
    const t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { REDIS_URL: `redis://127.0.0.1:${silent.port}`, ADMIN_EMAILS: adminEmail },
      rateLimits: limits,
    });
    await t.app.ready();
    await expectLimitsHoldFast(t);
    const admin = await signInDesktop(t, env.smtp, adminEmail);
    expect((await systemRateLimits(t, admin.accessToken)).store).toBe('memory_fallback');
    await t.app.close();
    await silent.close();
  });

  it('without REDIS_URL, System says the limits count in this instance', async () => {
    const adminEmail = nextAdmin();
    const t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: adminEmail }, rateLimits: limits });
    const admin = await signInDesktop(t, env.smtp, adminEmail);
    expect(await systemRateLimits(t, admin.accessToken)).toEqual({ store: 'memory', redisDownSince: null });
    await t.app.close();
  });

  const redisUrl = process.env.TEST_REDIS_URL;
  // Runs when TEST_REDIS_URL names a Redis server; .ci/run always sets it.
  describe.runIf(Boolean(redisUrl))('Redis stopping and coming back', () => {
    let proxy: CuttableProxy;
    let t: TestApp;
    let adminToken: string;
    beforeAll(async () => {
      const target = new URL(redisUrl!);
      const adminEmail = nextAdmin();
      proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || 6379) });
      t = await buildTestApp({
        db: env.database.db,
        smtp: env.smtp,
        env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, ADMIN_EMAILS: adminEmail },
        rateLimits: limits,
      });
      adminToken = (await signInDesktop(t, env.smtp, adminEmail)).accessToken;
    });
    afterAll(async () => {
      await t.app.close();
      await proxy.close();
    });

    const subKeys = async (ip: string) => {
      const redis = new Redis(redisUrl!);
      const keys = await redis.keys(`${RATE_LIMIT_KEY_PREFIX}sub-ip:${ip}`);
      await redis.quit();
      return keys;
    };

    it('counts in Redis, falls back to this process while it is away, and returns to Redis when it is back', async () => {
      expect((await systemRateLimits(t, adminToken)).store).toBe('redis');
      const before = nextAddress();
      expect((await t.app.inject({ method: 'GET', url: '/sub/no-such-token', remoteAddress: before })).statusCode).toBe(404);
      expect(await subKeys(before)).toHaveLength(1);

      await proxy.cut();
      await expectLimitsHoldFast(t);
      expect(await systemRateLimits(t, adminToken)).toEqual({ store: 'memory_fallback', redisDownSince: expect.any(String) });

      await proxy.restore();
      await expect.poll(async () => (await systemRateLimits(t, adminToken)).store, { timeout: 10_000, interval: 200 }).toBe('redis');
      const after = nextAddress();
      expect((await t.app.inject({ method: 'GET', url: '/sub/no-such-token', remoteAddress: after })).statusCode).toBe(404);
      expect(await subKeys(after)).toHaveLength(1);
    });

    it('a Redis that hangs while connected costs one request a short wait, then none, until it answers again', async () => {
      await expect.poll(async () => (await systemRateLimits(t, adminToken)).store, { timeout: 10_000, interval: 200 }).toBe('redis');
      proxy.freeze();
      await expectLimitsHoldFast(t);
      expect((await systemRateLimits(t, adminToken)).store).toBe('memory_fallback');
      proxy.thaw();
      // A ping (not a request) finds it answering again.
      await expect
        .poll(
          async () => {
            await t.app.inject({ method: 'GET', url: '/sub/no-such-token', remoteAddress: nextAddress() });
            return (await systemRateLimits(t, adminToken)).store;
          },
          { timeout: 10_000, interval: 300 },
        )
        .toBe('redis');
      const after = nextAddress();
      expect((await t.app.inject({ method: 'GET', url: '/sub/no-such-token', remoteAddress: after })).statusCode).toBe(404);
      expect(await subKeys(after)).toHaveLength(1);
    });
  });
});
