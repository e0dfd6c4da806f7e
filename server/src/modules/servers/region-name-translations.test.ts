import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { startFakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';

/**
 * Issue 57: a server's public region name ("Germany") in the customers' languages. The admin writes it per
 * language (`publicNameTranslations`, kept in region_name_translations); the dashboard's accounts and the public
 * status page carry the translations, and the web app shows the reader's.
 */
describe.each(TEST_DATABASES)('region names per language (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let customer: WebSession;
  let panel: Awaited<ReturnType<typeof startFakeMarzneshin>>;

  beforeAll(async () => {
    panel = await startFakeMarzneshin();
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com' },
      overrides: { driverFactory: (_kind, connection) => createMarzneshinDriver(connection, { timeoutMs: 500 }) },
    });
    admin = await signInWeb(t, env.smtp, 'admin@example.com');
    customer = await signInWeb(t, env.smtp, `regions-${kind}@example.com`);
  });
  afterAll(async () => {
    await t.app.close();
    await panel.close();
  });

  const call = (method: string, url: string, payload?: unknown, session: WebSession | null = admin) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { origin: TEST_ORIGIN, ...(session ? { cookie: session.cookie } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const serverBody = (extra: Record<string, unknown>) => ({
    kind: 'marzneshin',
    name: 'Hetzner FSN #1',
    url: panel.url,
    username: panel.admin.username,
    password: panel.admin.password,
    serviceId: '1',
    locations: 'DE',
    ...extra,
  });

  it('the admin saves the name per language; accounts and the status page carry it', async () => {
    const created = await call(
      'POST',
      '/api/admin/servers',
      serverBody({ publicName: 'Germany', publicNameTranslations: { ru: ' Германия ', fa: 'آلمان', 'zh-CN': '' } }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const server = created.json();
    expect(server.publicNameTranslations).toEqual({ ru: 'Германия', fa: 'آلمان' });
    expect(await env.database.db('region_name_translations').where({ server_id: server.id }).orderBy('locale')).toEqual([
      { server_id: server.id, locale: 'fa', name: 'آلمان' },
      { server_id: server.id, locale: 'ru', name: 'Германия' },
    ]);
    const listed = (await call('GET', '/api/admin/servers')).json() as Array<{ id: string; publicNameTranslations: object }>;
    expect(listed.find((s) => s.id === server.id)?.publicNameTranslations).toEqual({ ru: 'Германия', fa: 'آلمان' });

    // Replaced whole when sent; other fields leave it alone.
    const changed = await call('PATCH', `/api/admin/servers/${server.id}`, { publicNameTranslations: { ru: 'ФРГ', 'zh-CN': '德国' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().publicNameTranslations).toEqual({ ru: 'ФРГ', 'zh-CN': '德国' });
    expect((await call('PATCH', `/api/admin/servers/${server.id}`, { locations: 'DE,AT' })).json().publicNameTranslations).toEqual({
      ru: 'ФРГ',
      'zh-CN': '德国',
    });

    const plan = await call('POST', '/api/admin/plans', { name: 'Free week', days: 7, dataLimitBytes: 1024 ** 3, price: 0, locations: 'all' });
    expect(plan.statusCode, plan.body).toBe(201);
    const claimed = await call('POST', '/api/accounts', { planId: plan.json().id }, customer);
    expect(claimed.statusCode, claimed.body).toBe(201);
    expect(claimed.json().server).toMatchObject({ name: 'Germany', locationNumber: null, nameTranslations: { ru: 'ФРГ', 'zh-CN': '德国' } });
    const accounts = (await call('GET', '/api/accounts', undefined, customer)).json();
    expect(accounts[0].server).toEqual({ name: 'Germany', locationNumber: null, nameTranslations: { ru: 'ФРГ', 'zh-CN': '德国' }, locations: 'DE,AT' });

    const status = (await call('GET', '/api/status', undefined, null)).json();
    expect(status.regions).toContainEqual(expect.objectContaining({ name: 'Germany', nameTranslations: { ru: 'ФРГ', 'zh-CN': '德国' } }));

    // Deleting the server deletes its names.
    await env.database.db('vpn_accounts').where({ master_server_id: server.id }).delete();
    expect((await call('DELETE', `/api/admin/servers/${server.id}`)).statusCode).toBe(204);
    expect(await env.database.db('region_name_translations').where({ server_id: server.id })).toEqual([]);
  });

  it('refuses another language, a name too long, and anyone but the admin', async () => {
    const created = await call('POST', '/api/admin/servers', serverBody({ name: 'Second', publicName: 'Netherlands' }));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect(created.json().publicNameTranslations).toEqual({});
    const bad = [{ de: 'Niederlande' }, { ru: 'Н'.repeat(61) }, 'Нидерланды'];
    for (const publicNameTranslations of bad) {
      const res = await call('PATCH', `/api/admin/servers/${id}`, { publicNameTranslations });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await call('PATCH', `/api/admin/servers/${id}`, { publicNameTranslations: { ru: 'Нидерланды' } }, customer)).statusCode).toBe(403);
    expect((await call('PATCH', `/api/admin/servers/${id}`, { publicNameTranslations: { ru: 'Нидерланды' } }, null)).statusCode).toBe(401);
    expect(await env.database.db('region_name_translations').where({ server_id: id })).toEqual([]);
  });
});
