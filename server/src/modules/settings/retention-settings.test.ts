import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { createRetentionRows } from '../../../test/retention-rows.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../test/test-app.js';
import { parseJson } from '../../db/values.js';
import { createRetentionPurge } from '../retention/retention-purge.js';
import { APP_CONFIG_ID } from './settings.repo.js';

/** `retentionDays` and `auditRetentionDays` through PUT /api/admin/settings, and the purge reading them. */
describe.each(TEST_DATABASES)('retention settings (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: DesktopSession;
  let user: DesktopSession;

  const call = (session: DesktopSession | null, method: 'GET' | 'PUT', payload?: object) =>
    t.app.inject({ method, url: '/api/admin/settings', headers: session ? bearer(session.accessToken) : {}, ...(payload ? { payload } : {}) });
  const storedConfig = async () => parseJson<Record<string, unknown>>((await env.database.db('settings').where({ id: APP_CONFIG_ID }).first())?.value, {});

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com' } });
    admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    user = await signInDesktop(t, env.smtp, `retention-user-${kind}@example.com`);
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('are 30 days and a year until an admin changes them', async () => {
    const res = await call(admin, 'GET');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ retentionDays: 30, auditRetentionDays: 365 });
  });

  it('saves whole days in range, stored snake_case beside the other settings, and audits the change', async () => {
    const res = await call(admin, 'PUT', { retentionDays: 7, auditRetentionDays: 730 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ retentionDays: 7, auditRetentionDays: 730, renewalGraceDays: 3 });
    expect(await storedConfig()).toMatchObject({ retention_days: 7, audit_retention_days: 730 });
    const entry = await env.database.db('audit_log').where({ action: 'settings.update' }).orderBy('id', 'desc').first();
    expect(parseJson(entry.details, {})).toEqual({
      before: { retentionDays: 30, auditRetentionDays: 365 },
      after: { retentionDays: 7, auditRetentionDays: 730 },
    });
    expect((await call(admin, 'GET')).json()).toMatchObject({ retentionDays: 7, auditRetentionDays: 730 });
  });

  it('answers 400 for days out of range or not whole, and saves nothing', async () => {
    await call(admin, 'PUT', { retentionDays: 30, auditRetentionDays: 365 });
    const before = await storedConfig();
    for (const [field, value] of [
      ['retentionDays', 0],
      ['retentionDays', 4000],
      ['retentionDays', 1.5],
      ['retentionDays', '30'],
      ['retentionDays', null],
      ['auditRetentionDays', 29],
      ['auditRetentionDays', 4000],
    ] as const) {
      const res = await call(admin, 'PUT', { [field]: value });
      expect(res.statusCode, `${field}: ${String(value)}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { [field]: expect.any(String) } });
    }
    expect(await storedConfig()).toEqual(before);
  });

  it('answers 403 to a customer and 401 signed out, and saves nothing', async () => {
    const before = await storedConfig();
    const audited = await env.database.db('audit_log').where({ action: 'settings.update' }).count({ n: '*' });
    const asUser = await call(user, 'PUT', { retentionDays: 1 });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().code).toBe('forbidden');
    expect((await call(user, 'GET')).statusCode).toBe(403);
    expect((await call(null, 'PUT', { retentionDays: 1 })).statusCode).toBe(401);
    expect(await storedConfig()).toEqual(before);
    expect(await env.database.db('audit_log').where({ action: 'settings.update' }).count({ n: '*' })).toEqual(audited);
  });

  it('is what the purge deletes by', async () => {
    expect((await call(admin, 'PUT', { retentionDays: 10, auditRetentionDays: 30 })).statusCode).toBe(200);
    const now = t.clock.now();
    const rows = createRetentionRows(env.database.db, now);
    const logs = [await rows.accountLog(11), await rows.accountLog(9)];
    const audit = [await rows.auditEntry(31), await rows.auditEntry(29)];

    await createRetentionPurge({ db: env.database.db, settings: t.app.services.settings, clock: t.clock.now, periodicJobKeys: [] }).purge();

    expect(await rows.remaining('vpn_account_logs', logs)).toEqual([logs[1]]);
    expect(await rows.remaining('audit_log', audit)).toEqual([audit[1]]);
    await call(admin, 'PUT', { retentionDays: 30, auditRetentionDays: 365 });
  });
});
