import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';
import type { PanelDriver } from '../../panels/panel-driver.js';

const DAY = 24 * 3600_000;
const GB = 1024 ** 3;

describe.each(TEST_DATABASES)('admin: importing a panel’s existing users (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let user: WebSession;
  let panel: FakeMarzneshin;
  /** Our own handle on the panel, as the operator's old tools would have used it. */
  let operator: PanelDriver;
  let serverId: string;
  let n = 0;
  const panelUser = async (options: { expiresAt?: Date | null; dataLimitBytes?: number | null; used?: number } = {}) => {
    const username = `old_${kind.slice(0, 2)}_${(n += 1)}`;
    await operator.createAccount({
      username,
      dataLimitBytes: options.dataLimitBytes ?? 50 * GB,
      expiresAt: options.expiresAt ?? new Date(Date.now() + 20 * DAY),
      note: 'from the old shop',
    });
    if (options.used) (panel.users.get(username) as { used_traffic: number }).used_traffic = options.used;
    return username;
  };

  beforeAll(async () => {
    panel = await startFakeMarzneshin();
    operator = createMarzneshinDriver({ url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: '1' });
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com' },
      overrides: { driverFactory: (_kind, connection) => createMarzneshinDriver(connection, { timeoutMs: 1000 }) },
    });
    admin = await signInWeb(t, env.smtp, 'admin@example.com');
    user = await signInWeb(t, env.smtp, 'someone@example.com');
    const created = await call('POST', '/api/admin/servers', {
      kind: 'marzneshin',
      name: 'Old panel',
      url: panel.url,
      username: panel.admin.username,
      password: panel.admin.password,
      serviceId: '1',
    });
    expect(created.statusCode).toBe(201);
    serverId = created.json().id;
  });
  afterAll(async () => {
    await t.app.close();
    await panel.close();
  });

  const call = (method: string, url: string, payload?: unknown, session: WebSession | null = admin, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { origin: TEST_ORIGIN, ...(session ? { cookie: session.cookie } : {}), ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const count = async (table: string) => Number((await env.database.db(table).count({ n: '*' }))[0]!.n);

  it('answers 401 signed out, 403 to a customer and 404 for an unknown server, writing nothing', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/api/admin/servers/${serverId}/panel-users`],
      ['POST', `/api/admin/servers/${serverId}/import`, { links: [{ username: 'x', email: 'x@example.com' }] }],
    ];
    const accounts = await count('vpn_accounts');
    for (const [method, url, payload] of routes) {
      expect((await call(method, url, payload, null)).statusCode).toBe(401);
      expect((await call(method, url, payload, user)).statusCode).toBe(403);
      const missing = await call(method, url.replace(serverId, 'no-such-server'), payload);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ code: 'not_found', message: 'Server not found.' });
    }
    expect(await count('vpn_accounts')).toBe(accounts);
  });

  it('lists the panel’s users in pages, and with unlinked=true only those no account here holds', async () => {
    const [first, second] = [await panelUser(), await panelUser()];
    const page = await call('GET', `/api/admin/servers/${serverId}/panel-users?page=1&size=100`);
    expect(page.statusCode).toBe(200);
    expect(page.json().users).toEqual(
      expect.arrayContaining([expect.objectContaining({ username: first, status: 'active', linked: false, dataLimitBytes: 50 * GB })]),
    );
    expect(page.json()).toMatchObject({ page: 1, size: 100, hasMore: false });
    expect(page.json().total).toBeGreaterThanOrEqual(2);

    expect((await call('POST', `/api/admin/servers/${serverId}/import`, { links: [{ username: first, email: 'first@example.com' }] })).statusCode).toBe(201);
    const unlinked = (await call('GET', `/api/admin/servers/${serverId}/panel-users?unlinked=true`))
      .json()
      .users.map((row: { username: string }) => row.username);
    expect(unlinked).toContain(second);
    expect(unlinked).not.toContain(first);
    const all = (await call('GET', `/api/admin/servers/${serverId}/panel-users`)).json().users;
    expect(all.find((row: { username: string }) => row.username === first).linked).toBe(true);
  });

  it('refuses a bad page query with the field named', async () => {
    const res = await call('GET', `/api/admin/servers/${serverId}/panel-users?size=1000&unlinked=maybe`);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['size', 'unlinked']);
  });

  it('links panel users to an existing and a new customer; the new one signs in and finds the account with the panel’s expiry and usage', async () => {
    const expiresAt = new Date(Math.floor((Date.now() + 12 * DAY) / 1000) * 1000);
    const mine = await panelUser({ expiresAt, dataLimitBytes: 100 * GB, used: 3 * GB });
    const theirs = await panelUser();
    const noteBefore = (panel.users.get(mine) as { note: string }).note;
    const customers = await count('user_profiles');
    const res = await call('POST', `/api/admin/servers/${serverId}/import`, {
      links: [
        { username: mine, email: ' Newcomer@Example.com ' },
        { username: theirs, email: 'someone@example.com' },
      ],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().imported).toEqual([
      { username: mine, email: 'newcomer@example.com', accountId: expect.any(String), newCustomer: true },
      { username: theirs, email: 'someone@example.com', accountId: expect.any(String), newCustomer: false },
    ]);
    expect(await count('user_profiles')).toBe(customers + 1);
    // The panel was only read.
    expect((panel.users.get(mine) as { note: string }).note).toBe(noteBefore);
    // The configuration links at once, as a claimed account has them (read right after the import).
    const imported = (await call('GET', '/api/accounts', undefined, user)).json().find((account: { username: string }) => account.username === theirs);
    expect(imported.links.length).toBeGreaterThan(0);
    expect(imported.links.every((link: string) => /^[a-z]+:\/\//.test(link))).toBe(true);

    const newcomer = await signInWeb(t, env.smtp, 'newcomer@example.com');
    const accounts = (await call('GET', '/api/accounts', undefined, newcomer)).json();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({
      username: mine,
      status: 'active',
      expireDate: expiresAt.toISOString(),
      dataLimitBytes: 100 * GB,
      usedTrafficBytes: 3 * GB,
      renewable: false,
    });
    // Our own link is offered, and it serves the panel's configuration.
    expect(accounts[0].subscriptionUrl).toMatch(new RegExp(`^${TEST_ORIGIN}/sub/`));
    const sub = await t.app.inject({ method: 'GET', url: new URL(accounts[0].subscriptionUrl).pathname, headers: { 'user-agent': 'v2rayNG/1.9.0' } });
    expect(sub.statusCode).toBe(200);
    expect(Buffer.from(sub.body, 'base64').toString('utf8')).toMatch(/:\/\//);
    // Someone else's imported account is not theirs.
    const other = (await call('GET', '/api/accounts', undefined, user)).json();
    expect(other.map((account: { username: string }) => account.username)).toContain(theirs);
    expect(other.map((account: { username: string }) => account.username)).not.toContain(mine);
  });

  it('with a plan to renew as, an imported account can be renewed', async () => {
    const plan = await call('POST', '/api/admin/plans', { name: 'Renewal plan', days: 30, dataLimitBytes: 50 * GB, price: 500 });
    expect(plan.statusCode).toBe(201);
    const username = await panelUser();
    const res = await call('POST', `/api/admin/servers/${serverId}/import`, { links: [{ username, email: 'renewer@example.com' }], planId: plan.json().id });
    expect(res.statusCode).toBe(201);
    const renewer = await signInWeb(t, env.smtp, 'renewer@example.com');
    const [account] = (await call('GET', '/api/accounts', undefined, renewer)).json();
    expect(account).toMatchObject({ username, planId: plan.json().id, planName: 'Renewal plan', renewable: true });
    const unknown = await call('POST', `/api/admin/servers/${serverId}/import`, {
      links: [{ username: await panelUser(), email: 'x@example.com' }],
      planId: 'nope',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields).toEqual({ planId: 'The plan to renew as does not exist.' });
  });

  it('refuses the whole import with a message per bad row, and writes nothing', async () => {
    const good = await panelUser();
    const linked = await panelUser();
    expect((await call('POST', `/api/admin/servers/${serverId}/import`, { links: [{ username: linked, email: 'linked@example.com' }] })).statusCode).toBe(201);
    const [accounts, customers] = [await count('vpn_accounts'), await count('user_profiles')];
    const res = await call('POST', `/api/admin/servers/${serverId}/import`, {
      links: [
        { username: good, email: 'good@example.com' },
        { username: 'nobody_here', email: 'a@example.com' },
        { username: good, email: 'b@example.com' },
        { username: linked, email: 'c@example.com' },
        { username: 'someone', email: 'not-an-email' },
        { username: '  ', email: 'd@example.com' },
      ],
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('import_invalid');
    expect(body.message).toMatch(/^5 rows cannot be imported .*Nothing was imported\.$/);
    expect(body.rows).toEqual([
      { row: 2, username: 'nobody_here', email: 'a@example.com', message: 'The panel has no user with this name.' },
      { row: 3, username: good, email: 'b@example.com', message: 'The same username is on row 1.' },
      { row: 4, username: linked, email: 'c@example.com', message: 'An account here already holds this panel user.' },
      { row: 5, username: 'someone', email: 'not-an-email', message: 'The e-mail address is not valid.' },
      { row: 6, username: '', email: 'd@example.com', message: 'The username is empty.' },
    ]);
    expect([await count('vpn_accounts'), await count('user_profiles')]).toEqual([accounts, customers]);
  });

  it('refuses a body that is not a list of rows, or too long a list', async () => {
    for (const payload of [
      {},
      { links: [] },
      { links: 'alice,a@example.com' },
      { links: Array.from({ length: 1001 }, () => ({ username: 'a', email: 'a@example.com' })) },
    ]) {
      const res = await call('POST', `/api/admin/servers/${serverId}/import`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { links: expect.any(String) } });
    }
  });

  it('says the panel could not be read when it is down, and writes nothing', async () => {
    const username = await panelUser();
    const accounts = await count('vpn_accounts');
    panel.faults.down = true;
    try {
      const res = await call('POST', `/api/admin/servers/${serverId}/import`, { links: [{ username, email: 'down@example.com' }] });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ code: 'panel_error', message: expect.stringMatching(/^The panel could not be read .*Nothing was imported\.$/) });
      expect((await call('GET', `/api/admin/servers/${serverId}/panel-users`)).statusCode).toBe(502);
    } finally {
      panel.faults.down = false;
    }
    expect(await count('vpn_accounts')).toBe(accounts);
    expect(await env.database.db('user_profiles').where({ email: 'down@example.com' }).first()).toBeUndefined();
  });

  it('two imports of the same panel user at once: exactly one takes it', async () => {
    const username = await panelUser();
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => call('POST', `/api/admin/servers/${serverId}/import`, { links: [{ username, email: `racer${i}@example.com` }] })),
    );
    const statuses = results.map((res) => res.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    for (const res of results.filter((r) => r.statusCode !== 201)) expect([400, 409]).toContain(res.statusCode);
    expect(
      await env.database
        .db('vpn_accounts')
        .where({ username })
        .count({ n: '*' })
        .then((rows) => Number(rows[0]!.n)),
    ).toBe(1);
    // The losers' new customers were not left behind either.
    const racers = await env.database.db('user_profiles').where('email', 'like', 'racer%').pluck('email');
    expect(racers).toHaveLength(1);
  });
});
