import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { asMarzneshinUser, startFakeMarzneshin, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../test/test-app.js';

/**
 * The dashboard's account list (issue 27): read in one query with the servers' public names and the plans
 * kept in memory until a server or plan changes, and one panel call per account however many visits ask at once.
 */
describe.each(TEST_DATABASES)('the account list (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let panel: FakeMarzneshin;
  let admin: DesktopSession;
  let planId: string;
  let serverId: string;
  let n = 0;

  const call = (session: DesktopSession, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(session.accessToken), ...(payload ? { payload } : {}) });
  const newUser = () => signInDesktop(t, env.smtp, `list${(n += 1)}-${kind}@example.com`);
  const claim = async (user: DesktopSession) => {
    const res = await call(user, 'POST', '/api/accounts', { planId });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; username: string };
  };
  const serversShown = async (user: DesktopSession) => (await call(user, 'GET', '/api/accounts')).json().map((a: { server: unknown }) => a.server);

  beforeAll(async () => {
    panel = await startFakeMarzneshin();
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com' } });
    admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    const server = await call(admin, 'POST', '/api/admin/servers', {
      kind: 'marzneshin',
      name: 'Internal FSN-1',
      publicName: 'Germany',
      url: panel.url,
      username: panel.admin.username,
      password: panel.admin.password,
      serviceId: '1',
      locations: 'DE',
    });
    expect(server.statusCode, server.body).toBe(201);
    serverId = server.json().id;
    planId = (await call(admin, 'POST', '/api/admin/plans', { name: 'Free', days: 30, price: 0, dataLimitBytes: 1024 ** 3, locations: 'all' })).json().id;
  });
  afterAll(async () => {
    await t.app.close();
    await panel.close();
  });

  it("shows a server's new public name on the next request, whether saved here or announced by another instance", async () => {
    const user = await newUser();
    await claim(user);
    expect(await serversShown(user)).toEqual([{ name: 'Germany', locationNumber: null, nameTranslations: {}, locations: 'DE' }]);

    expect((await call(admin, 'PATCH', `/api/admin/servers/${serverId}`, { publicName: 'Frankfurt', locations: 'DE,AT' })).statusCode).toBe(200);
    expect(await serversShown(user)).toEqual([{ name: 'Frankfurt', locationNumber: null, nameTranslations: {}, locations: 'DE,AT' }]);

    await env.database.db('masterservers').where({ id: serverId }).update({ public_name: null });
    t.app.services.changeSignal.changed(); // what the broadcast does when another instance saves
    expect(await serversShown(user)).toEqual([{ name: 'Location 1', locationNumber: 1, nameTranslations: {}, locations: 'DE,AT' }]);
    await env.database.db('masterservers').where({ id: serverId }).update({ public_name: 'Germany', locations: 'DE' });
    t.app.services.changeSignal.changed();
  });

  it('names a server added behind this instance (no signal yet) rather than leaving it out', async () => {
    const user = await newUser();
    const account = await claim(user);
    // Added after the first server (its clock may run ahead of Date.now()), so it is "Location 2".
    const first = await env.database.db('masterservers').where({ id: serverId }).first('created_at');
    const now = new Date(new Date(first.created_at).getTime() + 60_000);
    const otherId = randomUUID();
    await env.database.db('masterservers').insert({
      id: otherId,
      kind: 'marzneshin',
      name: 'Added elsewhere',
      url: 'http://127.0.0.1:9',
      username: 'u',
      password_encrypted: 'x',
      service_id: '1',
      locations: 'JP',
      status: 'disabled',
      created_at: now,
      updated_at: now,
    });
    await env.database.db('vpn_accounts').where({ id: account.id }).update({ master_server_id: otherId });
    try {
      expect(await serversShown(user)).toEqual([{ name: 'Location 2', locationNumber: 2, nameTranslations: {}, locations: 'JP' }]);
    } finally {
      await env.database.db('vpn_accounts').where({ id: account.id }).update({ master_server_id: serverId });
      await env.database.db('masterservers').where({ id: otherId }).delete();
      t.app.services.changeSignal.changed();
    }
  });

  it("shows a plan's new name and whether it renews on the next request, whether saved here or announced by another instance", async () => {
    const user = await newUser();
    const plan = (await call(admin, 'POST', '/api/admin/plans', { name: 'Monthly', days: 30, price: 0, dataLimitBytes: 1024 ** 3, locations: 'all' })).json()
      .id as string;
    expect((await call(user, 'POST', '/api/accounts', { planId: plan })).statusCode).toBe(201);
    const plansShown = async () =>
      (await call(user, 'GET', '/api/accounts'))
        .json()
        .map((a: { planId: string; planName: string; renewable: boolean }) => [a.planId, a.planName, a.renewable]);
    expect(await plansShown()).toEqual([[plan, 'Monthly', false]]); // free: nothing to renew

    expect((await call(admin, 'PATCH', `/api/admin/plans/${plan}`, { name: 'Monthly plus', price: 900 })).statusCode).toBe(200);
    expect(await plansShown()).toEqual([[plan, 'Monthly plus', true]]);

    await env.database.db('plans').where({ id: plan }).update({ name: 'Archived monthly', status: 'archived' });
    t.app.services.changeSignal.changed(); // what the broadcast does when another instance saves
    expect(await plansShown()).toEqual([[plan, 'Archived monthly', false]]);
  });

  it("gives the plan's name in every language it is translated into, on sale or taken off sale (issue 57)", async () => {
    const user = await newUser();
    const plan = (
      await call(admin, 'POST', '/api/admin/plans', {
        name: 'Family',
        days: 30,
        price: 0,
        dataLimitBytes: 1024 ** 3,
        locations: 'all',
        translations: { ru: { name: 'Семейный' }, 'zh-CN': { name: '家庭版' } },
      })
    ).json().id as string;
    const account = (await call(user, 'POST', '/api/accounts', { planId: plan })).json();
    expect(account).toMatchObject({ planName: 'Family', planNames: { ru: 'Семейный', 'zh-CN': '家庭版' } });
    const shown = async () => (await call(user, 'GET', '/api/accounts')).json()[0];
    expect(await shown()).toMatchObject({ planName: 'Family', planNames: { ru: 'Семейный', 'zh-CN': '家庭版' } });

    // Taken off sale: no longer among the plans a page has, the account still names it in every language.
    expect((await call(admin, 'PATCH', `/api/admin/plans/${plan}`, { status: 'disabled' })).statusCode).toBe(200);
    expect((await call(user, 'GET', '/api/plans')).json().some((p: { id: string }) => p.id === plan)).toBe(false);
    expect(await shown()).toMatchObject({ planName: 'Family', planNames: { ru: 'Семейный', 'zh-CN': '家庭版' } });
  });

  it('names a plan added behind this instance (no signal yet) rather than leaving it out', async () => {
    const user = await newUser();
    const account = await claim(user);
    await call(user, 'GET', '/api/accounts'); // the plans are read before the new one exists
    const otherId = randomUUID();
    const now = new Date();
    await env.database.db('plans').insert({ id: otherId, name: 'Added elsewhere', days: 30, data_limit: 0, price: 700, created_at: now, updated_at: now });
    await env.database.db('vpn_accounts').where({ id: account.id }).update({ plan_id: otherId });
    try {
      const [shown] = (await call(user, 'GET', '/api/accounts')).json();
      expect([shown.planId, shown.planName, shown.renewable]).toEqual([otherId, 'Added elsewhere', true]);
    } finally {
      await env.database.db('vpn_accounts').where({ id: account.id }).update({ plan_id: planId });
      await env.database.db('plans').where({ id: otherId }).delete();
    }
  });

  it('reads the lists of visits made at once together, and each user gets only their own accounts, newest first', async () => {
    const [first, second, none] = [await newUser(), await newUser(), await newUser()];
    const older = await claim(first);
    t.clock.advance(5);
    const newer = await claim(first);
    const theirs = await claim(second);
    const ids = (res: { json(): Array<{ id: string }> }) => res.json().map((a) => a.id);
    const answers = await Promise.all([first, second, none, first, second].map((user) => call(user, 'GET', '/api/accounts')));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map(ids)).toEqual([[newer.id, older.id], [theirs.id], [], [newer.id, older.id], [theirs.id]]);
  });

  it('asks the panel once per account when the dashboard is opened many times at once, and every answer has the new usage', async () => {
    const user = await newUser();
    const accounts = [await claim(user), await claim(user)];
    for (const account of accounts) asMarzneshinUser(panel.users.get(account.username)).used_traffic = 777;
    t.clock.advance(61); // past the usage cache: the next visit asks the panel
    const asked = () => panel.requests.filter((r) => r.method === 'GET' && accounts.some((a) => r.path.includes(a.username))).length;
    const before = asked();
    panel.faults.delayMs = 150;
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, () => call(user, 'GET', '/api/accounts')));
      for (const res of answers) {
        expect(res.statusCode).toBe(200);
        expect(res.json().map((a: { usedTrafficBytes: number; usageStale: boolean }) => [a.usedTrafficBytes, a.usageStale])).toEqual([
          [777, false],
          [777, false],
        ]);
      }
    } finally {
      panel.faults.delayMs = 0;
    }
    expect(asked() - before).toBe(2);
    // Saved: the next visit within the cache asks nothing.
    await call(user, 'GET', '/api/accounts');
    expect(asked() - before).toBe(2);
  });

  describe('a visit asked again', () => {
    const shown = async (user: DesktopSession) =>
      (await call(user, 'GET', '/api/accounts'))
        .json()
        .map((a: { status: string; usedTrafficBytes: number; usageStale: boolean }) => [a.status, a.usedTrafficBytes, a.usageStale]);
    const askedFor = (username: string) => panel.requests.filter((r) => r.method === 'GET' && r.path.includes(username)).length;

    it('shows what was committed since, even behind this instance (another instance, a job, a script)', async () => {
      const user = await newUser();
      const account = await claim(user);
      expect(await shown(user)).toEqual([['active', 0, false]]);
      expect(await shown(user)).toEqual([['active', 0, false]]);
      await env.database.db('vpn_accounts').where({ id: account.id }).update({ status: 'disabled' });
      expect(await shown(user)).toEqual([['disabled', 0, false]]);
    });

    it("shows a server's new name once this instance hears of it, though the list was read after the change was committed", async () => {
      const user = await newUser();
      await claim(user);
      expect(await serversShown(user)).toEqual([{ name: 'Germany', locationNumber: null, nameTranslations: {}, locations: 'DE' }]);
      // Another instance renames it: committed here, announced a moment later. The list read in between has the old name.
      await env.database.db('masterservers').where({ id: serverId }).update({ public_name: 'Berlin' });
      expect(await serversShown(user)).toEqual([{ name: 'Germany', locationNumber: null, nameTranslations: {}, locations: 'DE' }]);
      t.app.services.changeSignal.changed();
      expect(await serversShown(user)).toEqual([{ name: 'Berlin', locationNumber: null, nameTranslations: {}, locations: 'DE' }]);
      await env.database.db('masterservers').where({ id: serverId }).update({ public_name: 'Germany' });
      t.app.services.changeSignal.changed();
    });

    it("asks the panel again once an account's usage is a minute old, though nothing was committed", async () => {
      const user = await newUser();
      const account = await claim(user);
      await shown(user);
      const before = askedFor(account.username);
      asMarzneshinUser(panel.users.get(account.username)).used_traffic = 4096;
      t.clock.advance(30);
      expect(await shown(user)).toEqual([['active', 0, false]]);
      expect(askedFor(account.username)).toBe(before);
      t.clock.advance(31);
      expect(await shown(user)).toEqual([['active', 4096, false]]);
      expect(askedFor(account.username)).toBe(before + 1);
    });

    it('asks the panel again on the next visit after it could not answer (the last known usage, marked stale, meanwhile)', async () => {
      const user = await newUser();
      const account = await claim(user);
      await shown(user);
      asMarzneshinUser(panel.users.get(account.username)).used_traffic = 8192;
      t.clock.advance(61);
      panel.faults.down = true;
      try {
        expect(await shown(user)).toEqual([['active', 0, true]]);
      } finally {
        panel.faults.down = false;
      }
      expect(await shown(user)).toEqual([['active', 8192, false]]);
    });
  });
});
