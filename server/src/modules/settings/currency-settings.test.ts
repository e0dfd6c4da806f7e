import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../test/test-app.js';
import { parseJson } from '../../db/values.js';
import { APP_CONFIG_ID } from './settings.repo.js';

/** `currency` through PUT /api/admin/settings: one of the table's codes (shared/currencies.ts), shown in the public settings. */
describe.each(TEST_DATABASES)('currency setting (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: DesktopSession;
  let user: DesktopSession;

  const call = (session: DesktopSession | null, method: 'GET' | 'PUT', payload?: object) =>
    t.app.inject({ method, url: '/api/admin/settings', headers: session ? bearer(session.accessToken) : {}, ...(payload ? { payload } : {}) });
  const storedConfig = async () => parseJson<Record<string, unknown>>((await env.database.db('settings').where({ id: APP_CONFIG_ID }).first())?.value, {});
  const publicCurrency = async () => (await t.app.inject({ method: 'GET', url: '/api/config' })).json().currency;

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com' } });
    admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    user = await signInDesktop(t, env.smtp, `currency-user-${kind}@example.com`);
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('is US dollars until an admin changes it (a store from before keeps selling in dollars)', async () => {
    expect((await call(admin, 'GET')).json()).toMatchObject({ currency: 'usd' });
    expect(await publicCurrency()).toBe('usd');
    expect(await storedConfig()).not.toHaveProperty('currency');
  });

  it('saves a currency Stripe supports, lower-case, shows it publicly at once, and audits the change', async () => {
    for (const [sent, saved] of [
      ['eur', 'eur'],
      ['JPY', 'jpy'],
      [' kwd ', 'kwd'],
      ['bif', 'bif'],
      ['usd', 'usd'],
    ] as const) {
      const res = await call(admin, 'PUT', { currency: sent });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ currency: saved, renewalGraceDays: 3 });
      expect(await storedConfig()).toMatchObject({ currency: saved });
      expect(await publicCurrency()).toBe(saved);
    }
    const entry = await env.database.db('audit_log').where({ action: 'settings.update' }).orderBy('id', 'desc').first();
    expect(parseJson(entry.details, {})).toEqual({ before: { currency: 'bif' }, after: { currency: 'usd' } });
  });

  it('answers 400 validation_failed with a clear message for anything else, and saves nothing', async () => {
    await call(admin, 'PUT', { currency: 'eur' });
    const before = await storedConfig();
    for (const value of ['xyz', 'btc', 'us', 'euro', '', 'e u', 'usd\u0000', 123, null, true, ['eur']]) {
      const res = await call(admin, 'PUT', { currency: value });
      expect(res.statusCode, JSON.stringify(value)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { currency: expect.any(String) } });
    }
    expect((await call(admin, 'PUT', { currency: 'xyz' })).json().fields.currency).toBe(
      'Not a currency Stripe supports: give its three-letter ISO code, e.g. usd, eur or jpy',
    );
    expect(await storedConfig()).toEqual(before);
    expect(await publicCurrency()).toBe('eur');
    await call(admin, 'PUT', { currency: 'usd' });
  });

  it('answers 403 to a customer and 401 signed out, and saves nothing', async () => {
    const before = await storedConfig();
    const asUser = await call(user, 'PUT', { currency: 'eur' });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().code).toBe('forbidden');
    expect((await call(null, 'PUT', { currency: 'eur' })).statusCode).toBe(401);
    expect(await storedConfig()).toEqual(before);
    expect(await publicCurrency()).toBe('usd');
  });
});
