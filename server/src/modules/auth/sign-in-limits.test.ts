import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { DEFAULT_RATE_LIMITS } from '../../plugins/rate-limit.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../test/test-app.js';

/**
 * Issue 57: sign-in codes behind a carrier's shared address (CGNAT). Codes are limited per e-mail address and,
 * loosely, per network (an IPv4 address, an IPv6 /64); the admin sets both in Settings (`signInLimits`).
 */
describe.each(TEST_DATABASES)('sign-in code limits (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: DesktopSession;
  let customer: DesktopSession;
  let n = 0;

  const requestCode = (email: string, ip: string) => t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email }, remoteAddress: ip });
  const settings = (session: DesktopSession | null, method: 'GET' | 'PUT', payload?: object) =>
    t.app.inject({ method, url: '/api/admin/settings', headers: session ? bearer(session.accessToken) : {}, ...(payload ? { payload } : {}) });
  const fresh = () => `cgnat-${kind}-${(n += 1)}@example.com`;

  beforeAll(async () => {
    // The product's own limits (tests otherwise run with relaxed ones).
    const { otpPerIp, otpPerEmail, verifyPerIp, verifyPerEmail } = DEFAULT_RATE_LIMITS;
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com' },
      rateLimits: { otpPerIp, otpPerEmail, verifyPerIp, verifyPerEmail },
    });
    admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    customer = await signInDesktop(t, env.smtp, `limits-customer-${kind}@example.com`);
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('lets many customers behind one shared address ask for codes, past the old 20', async () => {
    for (let i = 0; i < 40; i += 1) {
      const res = await requestCode(fresh(), '100.64.0.1');
      expect(res.statusCode, `code ${i + 1}: ${res.body}`).toBe(200);
    }
  });

  it('still limits one e-mail address, from any address', async () => {
    const email = fresh();
    // One code a minute to an address (the resend cool-down): six within the hour, the seventh refused.
    for (let i = 0; i < 6; i += 1) {
      expect((await requestCode(email, `100.64.1.${i}`)).statusCode).toBe(200);
      t.clock.advance(61);
    }
    const limited = await requestCode(email, '100.64.1.99');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
  });

  it('the settings are the defaults until saved; a customer cannot read or change them, nor anyone signed out', async () => {
    expect((await settings(admin, 'GET')).json().signInLimits).toBeNull();
    expect((await settings(null, 'GET')).statusCode).toBe(401);
    expect((await settings(null, 'PUT', { signInLimits: { codesPerEmail: 1, codesPerNetwork: 10 } })).statusCode).toBe(401);
    expect((await settings(customer, 'PUT', { signInLimits: { codesPerEmail: 1, codesPerNetwork: 10 } })).statusCode).toBe(403);
    expect((await settings(admin, 'GET')).json().signInLimits).toBeNull();
  });

  it.each([
    [{ codesPerEmail: 0, codesPerNetwork: 100 }, 'signInLimits.codesPerEmail'],
    [{ codesPerEmail: 5, codesPerNetwork: 1.5 }, 'signInLimits.codesPerNetwork'],
    [{ codesPerEmail: 5, codesPerNetwork: 9 }, 'signInLimits.codesPerNetwork'],
    [{ codesPerEmail: 5 }, 'signInLimits.codesPerNetwork'],
    [{ codesPerEmail: 5, codesPerNetwork: 100, perIp: 3 }, 'signInLimits'],
  ])('refuses bad limits %j', async (signInLimits, field) => {
    const res = await settings(admin, 'PUT', { signInLimits });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(res.json())).toContain(field);
    expect((await settings(admin, 'GET')).json().signInLimits).toBeNull();
  });

  it('the limits the admin saves apply at once, the network one per IPv6 /64', async () => {
    const saved = await settings(admin, 'PUT', { signInLimits: { codesPerEmail: 2, codesPerNetwork: 10 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().signInLimits).toEqual({ codesPerEmail: 2, codesPerNetwork: 10 });
    expect((await settings(admin, 'GET')).json().signInLimits).toEqual({ codesPerEmail: 2, codesPerNetwork: 10 });

    const email = fresh();
    expect((await requestCode(email, '198.51.100.1')).statusCode).toBe(200);
    t.clock.advance(61);
    expect((await requestCode(email, '198.51.100.2')).statusCode).toBe(200);
    t.clock.advance(61);
    expect((await requestCode(email, '198.51.100.3')).statusCode).toBe(429);

    // Ten codes from one home's /64, whichever of its addresses; the eleventh is refused; another /64 is not.
    for (let i = 1; i <= 10; i += 1) expect((await requestCode(fresh(), `2001:db8:1:1::${i.toString(16)}`)).statusCode).toBe(200);
    expect((await requestCode(fresh(), '2001:db8:1:1:abcd::1')).statusCode).toBe(429);
    expect((await requestCode(fresh(), '2001:db8:1:2::1')).statusCode).toBe(200);

    // Raised again: the same /64 may ask for more.
    expect((await settings(admin, 'PUT', { signInLimits: { codesPerEmail: 6, codesPerNetwork: 50 } })).statusCode).toBe(200);
    expect((await requestCode(fresh(), '2001:db8:1:1::99')).statusCode).toBe(200);

    // null: back to the defaults.
    const reset = await settings(admin, 'PUT', { signInLimits: null });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().signInLimits).toBeNull();
  });
});
