import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../test/databases.js';
import { useTestEnvironment } from '../../test/environment.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';

const tight = { otpPerIp: { max: 3, windowSeconds: 60 }, otpPerEmail: { max: 2, windowSeconds: 3600 } };

describe.each(TEST_DATABASES)('rate limits on sign-in (%s)', (kind) => {
  const env = useTestEnvironment(kind);

  const requestCode = (t: TestApp, email: string, ip = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email }, remoteAddress: ip });

  it('limits code requests per IP address, with Retry-After', async () => {
    const t = await buildTestApp({ db: env.database.db, smtp: env.smtp, rateLimits: tight });
    for (let i = 0; i < 3; i += 1) expect((await requestCode(t, `ip${i}@example.com`, '10.1.1.1')).statusCode).toBe(200);
    const limited = await requestCode(t, 'ip4@example.com', '10.1.1.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ code: 'rate_limited', message: expect.stringMatching(/try again in \d+ seconds/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await requestCode(t, 'ip5@example.com', '10.1.1.2')).statusCode).toBe(200);
    await t.app.close();
  });

  it('limits code requests per address, whatever the IP', async () => {
    const t = await buildTestApp({ db: env.database.db, smtp: env.smtp, rateLimits: tight });
    const email = 'target@example.com';
    expect((await requestCode(t, email, '10.2.0.1')).statusCode).toBe(200);
    t.clock.advance(61);
    expect((await requestCode(t, email, '10.2.0.2')).statusCode).toBe(200);
    t.clock.advance(61);
    const limited = await requestCode(t, email.toUpperCase(), '10.2.0.3');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    await t.app.close();
  });

  const redisUrl = process.env.TEST_REDIS_URL;
  // Runs when TEST_REDIS_URL names a Redis server; .ci/run always sets it.
  it.runIf(Boolean(redisUrl))('shares the counters between app instances through Redis', async () => {
    const prefix = `t${Date.now()}`;
    const limits = { otpPerIp: { max: 2, windowSeconds: 60 } };
    const redisEnv = { REDIS_URL: redisUrl! };
    const first = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: redisEnv, rateLimits: limits });
    const second = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: redisEnv, rateLimits: limits });
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    expect((await requestCode(first, `${prefix}a@example.com`, ip)).statusCode).toBe(200);
    expect((await requestCode(second, `${prefix}b@example.com`, ip)).statusCode).toBe(200);
    expect((await requestCode(first, `${prefix}c@example.com`, ip)).statusCode).toBe(429);
    expect((await requestCode(second, `${prefix}d@example.com`, ip)).statusCode).toBe(429);
    const redis = new Redis(redisUrl!);
    expect((await redis.keys('vpn-storefront-rl:*')).length).toBeGreaterThan(0);
    await redis.quit();
    await first.app.close();
    await second.app.close();
  });
});
