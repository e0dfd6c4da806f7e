import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestEnvironment } from '../test/environment.js';
import { createSiteFixture, type SiteFixture } from '../test/site-fixture.js';
import { bearer, buildTestApp, cookieHeader, TEST_ORIGIN, type TestApp } from '../test/test-app.js';
import { findSecrets } from '../../scripts/check-log-secrets.js';

const ADMIN = 'admin.person@example.com';
const CUSTOMER = 'customer.person@example.org';
const SUB_TOKEN = 'Zk3xQ9-vT0bLm_4Ws8yHn2RcJ6pAe1Ud';
const PAY_TOKEN = 'Pq7wE2-rT5yU8_iO1pA4sD6fG9hJ3kL0';
const YOOKASSA_KEY = 'test_Xy9Zk3xQ9vT0bLm4Ws8yHn2RcJ6pAe1UdQ';
const STRIPE_KEY = 'sk_test_51Hh7Gq2eZvKYlo2C0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_0123456789abcdefABCDEF0123456789';

/**
 * The log never carries a secret: a whole sign-in (code asked for and typed, tokens refreshed), a subscription
 * link, a payment link, an admin saving payment keys, a search by e-mail address — every line at every level,
 * captured from the app's own logger. One database kind: what is logged does not depend on it.
 */
describe('logs without secrets', () => {
  const env = useTestEnvironment('sqlite');
  const lines: string[] = [];
  let t: TestApp;
  let site: SiteFixture;

  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    site = createSiteFixture();
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      // Nothing answers on port 9: the keys are refused after being tried, and the failure is logged.
      env: { ADMIN_EMAILS: ADMIN, YOOKASSA_API_URL: 'http://127.0.0.1:9/v3', STRIPE_API_URL: 'http://127.0.0.1:9' },
      overrides: { logger: { level: 'trace', stream: capture }, webDir: site.webDir, siteDir: site.siteDir },
    });
  });
  afterAll(async () => {
    await t.app.close();
    site.remove();
  });

  it('no sign-in code, token, JWT, e-mail address or payment key appears in any line, at any level', async () => {
    const secrets: string[] = [ADMIN, CUSTOMER, SUB_TOKEN, PAY_TOKEN, YOOKASSA_KEY, STRIPE_KEY, WEBHOOK_SECRET];
    // Sign in as the admin by e-mail code (web) and as a customer (desktop: tokens in the body), one wrong code first.
    for (const email of [ADMIN, CUSTOMER]) {
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } })).statusCode).toBe(200);
    }
    const adminCode = await env.smtp.latestCode(ADMIN);
    const customerCode = await env.smtp.latestCode(CUSTOMER);
    secrets.push(adminCode, customerCode);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { email: CUSTOMER, code: adminCode === '111111' ? '222222' : '111111' },
    });
    expect(wrong.statusCode).toBe(400);
    const web = await t.app.inject({ method: 'POST', url: '/api/auth/verify', headers: { origin: TEST_ORIGIN }, payload: { email: ADMIN, code: adminCode } });
    expect(web.statusCode, web.body).toBe(200);
    const cookie = cookieHeader(web);
    secrets.push(...web.cookies.map((c) => c.value));
    const desktop = await t.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { email: CUSTOMER, code: customerCode, client: 'desktop' } });
    expect(desktop.statusCode, desktop.body).toBe(200);
    const { accessToken, refreshToken } = desktop.json<{ accessToken: string; refreshToken: string }>();
    secrets.push(accessToken, refreshToken);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(accessToken) })).statusCode).toBe(200);
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    secrets.push(refreshed.json<{ accessToken: string }>().accessToken, refreshed.json<{ refreshToken: string }>().refreshToken);

    // Links that carry tokens, and a search by e-mail address in a query string.
    await t.app.inject({ method: 'GET', url: `/sub/${SUB_TOKEN}`, headers: { 'user-agent': 'v2rayNG/1.8.0' } });
    await t.app.inject({ method: 'GET', url: `/sub/${SUB_TOKEN}/clash` });
    await t.app.inject({ method: 'GET', url: `/ru/pay/${PAY_TOKEN}` });
    await t.app.inject({ method: 'GET', url: `/open/v2rayng?url=${encodeURIComponent(`${TEST_ORIGIN}/sub/${SUB_TOKEN}`)}` });
    await t.app.inject({ method: 'GET', url: `/api/admin/users?q=${encodeURIComponent(CUSTOMER)}`, headers: { cookie } });
    await t.app.inject({ method: 'GET', url: `/api/nothing-here?email=${encodeURIComponent(CUSTOMER)}&token=${SUB_TOKEN}` });

    // An admin saves payment keys (tried against a provider that does not answer, then refused).
    const admin = { cookie, origin: TEST_ORIGIN };
    await t.app.inject({ method: 'PUT', url: '/api/admin/payments/yookassa', headers: admin, payload: { shopId: '123456', secretKey: YOOKASSA_KEY } });
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/payments/card',
      headers: admin,
      payload: { publishableKey: 'pk_test_0123456789abcdef', secretKey: STRIPE_KEY, webhookSecret: WEBHOOK_SECRET },
    });
    // A webhook with a signature header and a body naming the customer.
    await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'stripe-signature': `t=1,v1=${'a'.repeat(64)}`, 'content-type': 'application/json' },
      payload: { customer_email: CUSTOMER },
    });

    expect(lines.length).toBeGreaterThan(20);
    const log = lines.join('\n');
    const leaked = secrets.filter((secret) => log.includes(secret) || log.includes(encodeURIComponent(secret)));
    expect(leaked, 'secrets in the log').toEqual([]);
    expect(findSecrets(log), 'what scripts/check-log-secrets.ts finds').toEqual([]);
    // What is logged of them: masked URLs, still telling what was asked.
    const urls = parsed().flatMap((line) => ((line.req as { url?: string } | undefined)?.url ? [(line.req as { url: string }).url] : []));
    expect(urls).toContain('/sub/[redacted]');
    expect(urls).toContain('/sub/[redacted]/clash');
    expect(urls).toContain('/ru/pay/[redacted]');
    expect(urls).toContain('/api/nothing-here?email=[redacted]&token=[redacted]');
  });

  it('logs what is not an error under `err` as any value, masked', async () => {
    const before = lines.length;
    t.app.log.warn({ err: `no mailbox ${CUSTOMER}` }, 'a string as err');
    t.app.log.error({ err: new Error(`refused for ${CUSTOMER}`), to: CUSTOMER }, `mail to ${CUSTOMER} failed`);
    const logged = lines.slice(before).join('\n');
    expect(logged).not.toContain(CUSTOMER);
    expect(logged).toContain('refused for [redacted]');
    expect(logged).toContain('mail to [redacted] failed');
  });

  it('every line of a request carries its request id', async () => {
    const before = lines.length;
    await t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email: 'someone.else@example.net' } });
    const requestLines = lines.slice(before).map((line) => JSON.parse(line) as { reqId?: string; msg: string });
    const ids = new Set(requestLines.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed').map((line) => line.reqId));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toEqual(expect.any(String));
  });

  it("lines a service logs while serving a request carry that request's id, each its own when requests overlap", async () => {
    // A refresh token used twice: the session service logs the reuse through the app's logger, not the request's.
    const refreshTokens: string[] = [];
    for (const email of ['first.reuser@example.net', 'second.reuser@example.net']) {
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } })).statusCode).toBe(200);
      const code = await env.smtp.latestCode(email);
      const verified = await t.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { email, code, client: 'desktop' } });
      const { refreshToken } = verified.json<{ refreshToken: string }>();
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } })).statusCode).toBe(200);
      refreshTokens.push(refreshToken);
    }
    t.clock.advance(60); // past the grace for two tabs refreshing at once: a reuse now revokes the session
    const before = lines.length;
    const reused = await Promise.all(
      refreshTokens.map((refreshToken) => t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } })),
    );
    expect(reused.map((res) => res.statusCode)).toEqual([401, 401]);

    const logged = lines.slice(before).map((line) => JSON.parse(line) as { reqId?: string; msg: string; sessionId?: string });
    const incoming = logged.filter((line) => line.msg === 'incoming request').map((line) => line.reqId);
    const fromService = logged.filter((line) => line.msg === 'refresh token reused: session revoked').map((line) => line.reqId);
    expect(new Set(incoming).size).toBe(2);
    expect(fromService).toHaveLength(2);
    expect(new Set(fromService)).toEqual(new Set(incoming));
    // Outside a request, the same logger writes without a request id.
    const outside = lines.length;
    t.app.services.log.info('no request here');
    expect(JSON.parse(lines[outside]!)).not.toHaveProperty('reqId');
  });

  it('a built file is not logged at info (at debug only)', async () => {
    const before = lines.length;
    for (const url of ['/assets/app-abc123.js', '/favicon.svg']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    const logged = lines.slice(before).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(logged.length).toBeGreaterThan(0); // at debug
    expect(logged.filter((line) => line.level >= 30)).toEqual([]);
    const page = lines.length;
    await t.app.inject({ method: 'GET', url: '/pricing' });
    expect(lines.slice(page).some((line) => (JSON.parse(line) as { level: number }).level === 30)).toBe(true);
  });
});
