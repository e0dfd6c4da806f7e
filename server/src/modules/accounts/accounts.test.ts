import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../../../shared/accounts.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { startFakeMarzban } from '../../../test/fake-panels/marzban.js';
import { asMarzneshinUser, startFakeMarzneshin, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../test/test-app.js';
import { createMarzbanDriver } from '../../panels/marzban.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';

const GB = 1024 ** 3;

describe.each(TEST_DATABASES)('VPN accounts (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let panel: FakeMarzneshin;
  let admin: DesktopSession;
  let trialPlanId: string;
  let freePlanId: string;
  let paidPlanId: string;
  let serverId: string;
  let n = 0;

  const call = (session: DesktopSession | null, method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: session ? bearer(session.accessToken) : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const newUser = () => signInDesktop(t, env.smtp, `customer${(n += 1)}-${kind}@example.com`);
  const rows = async (userId: string) => env.database.db('vpn_accounts').where({ user_id: userId });
  const trialUsed = async (userId: string) => Boolean((await env.database.db('user_profiles').where({ id: userId }).first()).trial_used);

  beforeAll(async () => {
    panel = await startFakeMarzneshin();
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com' },
      overrides: { driverFactory: (k, c) => (k === 'marzban' ? createMarzbanDriver(c, { timeoutMs: 500 }) : createMarzneshinDriver(c, { timeoutMs: 500 })) },
    });
    admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    const server = await call(admin, 'POST', '/api/admin/servers', {
      kind: 'marzneshin',
      name: 'Hetzner FSN-1 (internal)',
      publicName: 'Germany',
      url: panel.url,
      username: panel.admin.username,
      password: panel.admin.password,
      serviceId: '1',
      locations: 'DE,NL',
    });
    expect(server.statusCode).toBe(201);
    serverId = server.json().id;
    const plan = (body: Record<string, unknown>) => call(admin, 'POST', '/api/admin/plans', { dataLimitBytes: GB, locations: 'all', ...body });
    trialPlanId = (await plan({ name: 'Free Trial', days: 0.125, price: 0, isTrial: true })).json().id;
    freePlanId = (await plan({ name: 'Free Forever', days: 30, price: 0, dataLimitBytes: 5 * GB })).json().id;
    paidPlanId = (await plan({ name: 'Plus', days: 30, price: 499 })).json().id;
    expect((await call(admin, 'PUT', '/api/admin/settings', { trialPlanId })).json().trialPlanId).toBe(trialPlanId);
  });
  afterAll(async () => {
    await t.app.close();
    await panel.close();
  });

  it('lists active plans cheapest first, marking the trial, without signing in', async () => {
    const res = await call(null, 'GET', '/api/plans');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((p: { name: string; isTrial: boolean }) => [p.name, p.isTrial])).toEqual([
      ['Free Trial', true],
      ['Free Forever', false],
      ['Plus', false],
    ]);
  });

  it('claims the trial: the account lives on the panel, with our link and links, and the trial is used', async () => {
    const user = await newUser();
    // /api/me is answered from the session cache: it must see the claim at once.
    expect((await call(user, 'GET', '/api/me')).json()).toMatchObject({ trialUsed: false });
    const res = await call(user, 'POST', '/api/accounts', { planId: trialPlanId });
    expect(res.statusCode).toBe(201);
    const account = res.json();
    expect(account).toMatchObject({
      username: expect.stringMatching(/^user_[a-z0-9]{8}$/),
      status: 'active',
      dataLimitBytes: GB,
      usedTrafficBytes: 0,
      links: [expect.stringMatching(/^vless:\/\//), expect.any(String)],
      combinedUrl: expect.stringMatching(/^http:\/\/localhost:3000\/sub\/[\w-]{20,}$/),
      server: { name: 'Germany', locationNumber: null, locations: 'DE,NL' },
      planName: 'Free Trial',
      usageStale: false,
    });
    // Customers see the public region name only: the admin's name for the server never leaves it.
    expect(res.body).not.toContain('Hetzner');
    expect((await call(user, 'GET', '/api/accounts')).body).not.toContain('Hetzner');
    const hours = (new Date(account.expireDate).getTime() - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(2.9);
    expect(hours).toBeLessThan(3.1);
    expect(asMarzneshinUser(panel.users.get(account.username)).note).toBe(account.id);
    expect(await trialUsed(user.userId)).toBe(true);
    expect((await call(user, 'GET', '/api/me')).json()).toMatchObject({ trialUsed: true });

    const again = await call(user, 'POST', '/api/accounts', { planId: trialPlanId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'trial_used', message: ACCOUNT_MESSAGES.trialUsed });
    expect(await rows(user.userId)).toHaveLength(1);
  });

  it('gives exactly one account for two simultaneous trial claims', async () => {
    const user = await newUser();
    const results = await Promise.all([1, 2].map(() => call(user, 'POST', '/api/accounts', { planId: trialPlanId })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await rows(user.userId)).toHaveLength(1);
    const mine = [...panel.users.values()].filter((u) => asMarzneshinUser(u).note === results.find((r) => r.statusCode === 201)!.json().id);
    expect(mine).toHaveLength(1);
  });

  it("lists each account with every field it was created with (the list's response schema leaves none out)", async () => {
    const user = await newUser();
    const first = (await call(user, 'POST', '/api/accounts', { planId: freePlanId })).json();
    t.clock.advance(1);
    const second = (await call(user, 'POST', '/api/accounts', { planId: freePlanId })).json();
    const listed = await call(user, 'GET', '/api/accounts');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([second, first]);
    expect(Object.keys(first)).toHaveLength(20);
  });

  it('claims a free plan more than once, and refuses a paid plan with 402', async () => {
    const user = await newUser();
    expect((await call(user, 'POST', '/api/accounts', { planId: freePlanId })).statusCode).toBe(201);
    expect((await call(user, 'POST', '/api/accounts', { planId: freePlanId })).statusCode).toBe(201);
    const paid = await call(user, 'POST', '/api/accounts', { planId: paidPlanId });
    expect(paid.statusCode).toBe(402);
    expect(paid.json().code).toBe('payment_required');
    expect(await trialUsed(user.userId)).toBe(false);
  });

  it('answers 404 for an unknown or disabled plan, 400 for a bad body and 401 signed out', async () => {
    const user = await newUser();
    expect((await call(user, 'POST', '/api/accounts', { planId: 'no-such-plan' })).statusCode).toBe(404);
    expect((await call(user, 'POST', '/api/accounts', {})).statusCode).toBe(400);
    expect((await call(null, 'POST', '/api/accounts', { planId: freePlanId })).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/accounts')).statusCode).toBe(401);
  });

  it('answers 503 with the spec message when the panel is down, leaving no row, no panel user and the trial unused', async () => {
    const user = await newUser();
    const usersBefore = panel.users.size;
    panel.faults.down = true;
    const res = await call(user, 'POST', '/api/accounts', { planId: trialPlanId });
    panel.faults.down = false;
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 'service_unavailable', message: 'Service is temporarily unavailable. Please try again later or contact support.' });
    expect(await rows(user.userId)).toHaveLength(0);
    expect(panel.users.size).toBe(usersBefore);
    expect(await trialUsed(user.userId)).toBe(false);
    expect((await call(user, 'POST', '/api/accounts', { planId: trialPlanId })).statusCode).toBe(201);
  });

  it('answers 503 with nothing left behind when the panel answers 500 on create, or too slowly', async () => {
    const user = await newUser();
    const usersBefore = panel.users.size;
    panel.faults.failNext.push({ method: 'POST', pathPrefix: '/api/users', status: 500, body: 'Internal Server Error', contentType: 'text/plain' });
    const failed = await call(user, 'POST', '/api/accounts', { planId: freePlanId });
    expect(failed.statusCode).toBe(503);
    expect(failed.json().message).toBe(ACCOUNT_MESSAGES.serviceUnavailable);

    panel.faults.delayMs = 800; // beyond the 500 ms limit the test drivers have
    const slow = await call(user, 'POST', '/api/accounts', { planId: freePlanId });
    panel.faults.delayMs = 0;
    expect(slow.statusCode).toBe(503);
    expect(await rows(user.userId)).toHaveLength(0);
    // The slow create lands on the panel after we gave up; a cleanup job removes it once due.
    await expect.poll(() => panel.users.size, { timeout: 3000 }).toBeGreaterThan(usersBefore);
    t.clock.advance(31);
    while (await t.app.jobWorker.runOnce()) {
      /* run every due job */
    }
    expect(panel.users.size).toBe(usersBefore);
    const [done] = await env.database.db('jobs').where({ type: 'cleanup_panel_user', status: 'done' }).count({ n: '*' });
    expect(Number(done!.n)).toBeGreaterThanOrEqual(1);
  });

  it('answers 503 when no active server covers the plan locations', async () => {
    const japan = (await call(admin, 'POST', '/api/admin/plans', { name: 'Japan only', days: 1, dataLimitBytes: GB, price: 0, locations: 'JP' })).json().id;
    const user = await newUser();
    const res = await call(user, 'POST', '/api/accounts', { planId: japan });
    expect(res.statusCode).toBe(503);
    expect(await rows(user.userId)).toHaveLength(0);
    await call(admin, 'PATCH', `/api/admin/plans/${japan}`, { status: 'disabled' });
  });

  it("shows only the caller's accounts, refreshes usage from the panel, and marks last known values when it is down", async () => {
    const owner = await newUser();
    const other = await newUser();
    const created = (await call(owner, 'POST', '/api/accounts', { planId: freePlanId })).json();
    expect((await call(other, 'GET', '/api/accounts')).json()).toEqual([]);

    asMarzneshinUser(panel.users.get(created.username)).used_traffic = 123_456;
    t.clock.advance(61);
    const refreshed = (await call(owner, 'GET', '/api/accounts')).json();
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]).toMatchObject({ id: created.id, usedTrafficBytes: 123_456, usageStale: false });

    t.clock.advance(61);
    panel.faults.down = true;
    const stale = (await call(owner, 'GET', '/api/accounts')).json();
    panel.faults.down = false;
    expect(stale[0]).toMatchObject({ usedTrafficBytes: 123_456, usageStale: true });
  });

  it("deletes on the panel then the row; someone else's account is a 404 and stays", async () => {
    const owner = await newUser();
    const other = await newUser();
    const account = (await call(owner, 'POST', '/api/accounts', { planId: freePlanId })).json();
    expect((await call(other, 'DELETE', `/api/accounts/${account.id}`)).statusCode).toBe(404);
    expect(panel.users.has(account.username)).toBe(true);

    panel.faults.down = true;
    const down = await call(owner, 'DELETE', `/api/accounts/${account.id}`);
    panel.faults.down = false;
    expect(down.statusCode).toBe(503);
    expect(await rows(owner.userId)).toHaveLength(1);

    expect((await call(owner, 'DELETE', `/api/accounts/${account.id}`)).statusCode).toBe(204);
    expect(panel.users.has(account.username)).toBe(false);
    expect(await rows(owner.userId)).toHaveLength(0);
  });

  it('deletes an account whose panel user is already gone', async () => {
    const owner = await newUser();
    const account = (await call(owner, 'POST', '/api/accounts', { planId: freePlanId })).json();
    panel.users.delete(account.username);
    expect((await call(owner, 'DELETE', `/api/accounts/${account.id}`)).statusCode).toBe(204);
  });

  it('serves our subscription link in the format each client expects', async () => {
    const user = await newUser();
    const account = (await call(user, 'POST', '/api/accounts', { planId: freePlanId })).json();
    const url = new URL(account.combinedUrl).pathname;
    const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

    const v2rayng = await get({ 'user-agent': 'v2rayNG/1.8.0' });
    expect(v2rayng.statusCode).toBe(200);
    expect(v2rayng.headers['subscription-userinfo']).toMatch(/^upload=\d+; download=\d+; total=5368709120; expire=\d+$/);
    expect(Buffer.from(v2rayng.body, 'base64').toString('utf8')).toMatch(/^vless:\/\//m);

    const hiddify = await get({ 'user-agent': 'HiddifyNext/2.0 (android) like ClashMeta v2ray sing-box' });
    expect(hiddify.statusCode).toBe(200);
    expect(JSON.parse(hiddify.body)).toHaveProperty('outbounds');

    const clash = await get({ 'user-agent': 'clash-verge/v2.0' });
    expect(clash.statusCode).toBe(200);
    expect(clash.body).toMatch(/^proxies:/m);

    const browser = await get({ accept: 'text/html', 'user-agent': 'Mozilla/5.0' });
    expect(browser.headers['content-type']).toContain('text/html');
    expect(browser.body).toContain('<svg');
    for (const response of [v2rayng, hiddify, clash, browser]) {
      expect(response.body).not.toContain(panel.url);
      expect(response.body).not.toContain(panel.admin.password);
    }
  });

  it('lets an admin create a custom account, and only an admin', async () => {
    const user = await newUser();
    const body = { serverId, dataLimitGb: 50, expireDays: 30 };
    expect((await call(user, 'POST', '/api/admin/accounts', body)).statusCode).toBe(403);
    const bad = await call(admin, 'POST', '/api/admin/accounts', { serverId: '', dataLimitGb: 0.5, expireDays: 0 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['dataLimitGb', 'expireDays', 'serverId']);
    const forUser = await call(admin, 'POST', '/api/admin/accounts', { ...body, userId: user.userId });
    expect(forUser.statusCode).toBe(201);
    expect(forUser.json().dataLimitBytes).toBe(50 * GB);
    expect((await call(user, 'GET', '/api/accounts')).json()).toHaveLength(1);
  });

  it('claims a trial on a Marzban server too, naming an unnamed server "Location N" as the status page does', async () => {
    const marzban = await startFakeMarzban();
    await call(admin, 'POST', `/api/admin/servers/${serverId}/disable`);
    const created = await call(admin, 'POST', '/api/admin/servers', {
      kind: 'marzban',
      name: 'Tokyo box (fake panel)',
      url: marzban.url,
      username: marzban.admin.username,
      password: marzban.admin.password,
      serviceId: 'all',
      locations: 'all',
    });
    expect(created.statusCode).toBe(201);
    const user = await newUser();
    const res = await call(user, 'POST', '/api/accounts', { planId: trialPlanId });
    expect(res.statusCode).toBe(201);
    // No public name: numbered in the order servers were added, as the status page does.
    expect(res.json().server).toEqual({ name: 'Location 2', locationNumber: 2, locations: 'all', nameTranslations: {} });
    expect(res.body).not.toContain('Tokyo');
    expect(res.json().links.length).toBeGreaterThan(0);
    expect(marzban.users.has(res.json().username)).toBe(true);
    expect((await call(user, 'DELETE', `/api/accounts/${res.json().id}`)).statusCode).toBe(204);
    expect(marzban.users.has(res.json().username)).toBe(false);
    await call(admin, 'POST', `/api/admin/servers/${created.json().id}/disable`);
    await call(admin, 'POST', `/api/admin/servers/${serverId}/enable`);
    await marzban.close();
  });

  it('logs every provisioning step without secrets, for admins only', async () => {
    const user = await newUser();
    expect((await call(user, 'GET', '/api/admin/logs')).statusCode).toBe(403);
    const logs = await call(admin, 'GET', '/api/admin/logs?limit=100');
    expect(logs.statusCode).toBe(200);
    const steps = new Set(logs.json().map((entry: { step: string }) => entry.step));
    expect([...steps]).toEqual(expect.arrayContaining(['create_panel_user', 'account_created', 'delete_panel_user', 'select_server']));
    expect(logs.body).not.toContain(panel.admin.password);
    expect(logs.body).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect((await call(admin, 'GET', '/api/admin/logs?limit=500')).statusCode).toBe(400);
  });

  it('reports system health to admins', async () => {
    const res = await call(admin, 'GET', '/api/admin/system');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ database: { ok: true, dialect: kind }, mail: { kind: 'smtp', ok: true }, jobs: { counts: expect.any(Object) } });
    expect(res.json().panels.find((p: { name: string }) => p.name === 'Hetzner FSN-1 (internal)')).toMatchObject({ reachable: true, error: null });
    expect(res.body).not.toContain(panel.admin.password);
  });
});
