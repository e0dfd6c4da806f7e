import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountDevices } from '../../../../shared/devices.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../test/test-app.js';
import { parseJson } from '../../db/values.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';

/** Where the fake Marzneshin's nodes are: a real configuration names them, a placeholder never does. */
const NODE_HOSTS = /\.example\.test/;
const PUBLIC_URL = 'http://localhost:3000';
const LIMIT_TEXT = (count: number, limit: number) => `Device limit reached (${count} of ${limit}): remove a device at ${PUBLIC_URL}/dashboard`;
const happ = (hwid: string, extra: Record<string, string> = {}) => ({
  'user-agent': 'Happ/3.2.1',
  'x-hwid': hwid,
  'x-device-os': 'Android',
  'x-ver-os': '14',
  'x-device-model': `Pixel ${hwid.slice(-1)}`,
  ...extra,
});
const fromB64 = (body: string) => Buffer.from(body, 'base64').toString('utf8');
type Json = any;

describe.each(TEST_DATABASES)('device limits on /sub and the devices API (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let panel: FakeMarzneshin;
  let admin: DesktopSession;
  let owner: DesktopSession;
  let stranger: DesktopSession;
  let seq = 0;

  const api = (session: DesktopSession | null, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: session ? bearer(session.accessToken) : {}, ...(payload ? { payload } : {}) });
  const sub = (path: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: path, headers });
  const subRequests = () => panel.requests.filter((r) => r.path.startsWith('/sub/')).length;
  const deviceRows = (accountId: string) => env.database.db('account_devices').where({ vpn_account_id: accountId }).orderBy('first_seen_at');
  /** Rows are read again after the few seconds /sub keeps them (accounts and admitted devices). */
  const pastCaches = () => t.clock.advance(6);

  /** A free plan with this device limit, claimed by `session`: the account and its /sub path. */
  async function claim(session: DesktopSession, deviceLimit: number | null): Promise<{ id: string; path: string; account: Json }> {
    seq += 1;
    const plan = await api(admin, 'POST', '/api/admin/plans', { name: `Free ${seq}`, days: 30, price: 0, dataLimitBytes: 1024 ** 3, deviceLimit });
    expect(plan.statusCode, plan.body).toBe(201);
    const created = await api(session, 'POST', '/api/accounts', { planId: plan.json().id });
    expect(created.statusCode, created.body).toBe(201);
    return { id: created.json().id, path: new URL(created.json().combinedUrl).pathname, account: created.json() };
  }

  /** A real configuration from the panel, or our placeholder (one link to nowhere named with `text`). */
  function expectReal(res: { statusCode: number; body: string }) {
    expect(res.statusCode, res.body).toBe(200);
    expect(fromB64(res.body)).toMatch(NODE_HOSTS);
  }
  function expectPlaceholder(res: { statusCode: number; body: string; headers: Record<string, unknown> }, text: string) {
    expect(res.statusCode, res.body).toBe(200);
    const links = fromB64(res.body).split('\n');
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(/^vless:\/\/00000000-0000-0000-0000-000000000000@127\.0\.0\.1:1\?/);
    expect(decodeURIComponent(new URL(links[0]!).hash.slice(1))).toBe(text);
    expect(fromB64(res.body)).not.toMatch(NODE_HOSTS);
    expect(res.headers['subscription-userinfo']).toMatch(/^upload=\d+; download=\d+; total=\d+; expire=\d+$/);
    expect(res.headers['profile-title']).toMatch(/^base64:/);
    expect(fromB64(String(res.headers.announce).replace(/^base64:/, ''))).toBe(text);
  }

  beforeAll(async () => {
    panel = await startFakeMarzneshin();
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com' },
      overrides: { driverFactory: (_kind, connection) => createMarzneshinDriver(connection, { timeoutMs: 2000 }) },
    });
    admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    owner = await signInDesktop(t, env.smtp, 'owner@example.com');
    stranger = await signInDesktop(t, env.smtp, 'stranger@example.com');
    const server = await api(admin, 'POST', '/api/admin/servers', {
      kind: 'marzneshin',
      name: 'DE',
      url: panel.url,
      username: panel.admin.username,
      password: panel.admin.password,
      serviceId: '1',
    });
    expect(server.statusCode, server.body).toBe(201);
  });
  afterAll(async () => {
    await t?.app.close();
    await panel?.close();
  });

  it("copies the plan's device limit onto the account, and lists it with the account", async () => {
    const limited = await claim(owner, 2);
    const unlimited = await claim(owner, null);
    expect(limited.account.deviceLimit).toBe(2);
    expect(unlimited.account.deviceLimit).toBeNull();
    const listed: Json[] = (await api(owner, 'GET', '/api/accounts')).json();
    expect(listed.find((a) => a.id === limited.id).deviceLimit).toBe(2);
    expect(listed.find((a) => a.id === unlimited.id).deviceLimit).toBeNull();
    expect((await env.database.db('vpn_accounts').where({ id: limited.id }).first()).device_limit).toBe(2);
  });

  it('limit 2: two devices get configurations, the third a placeholder; removing one lets the third in', async () => {
    const { id, path } = await claim(owner, 2);
    expectReal(await sub(path, happ('device-a')));
    t.clock.advance(1);
    expectReal(await sub(path, happ('device-b')));
    const asked = subRequests();

    t.clock.advance(1);
    const third = await sub(path, happ('device-c'));
    expectPlaceholder(third, LIMIT_TEXT(2, 2));
    expect(third.headers).toMatchObject({
      'x-hwid-active': 'true',
      'x-hwid-limit': 'true',
      'x-hwid-max-devices-reached': 'true',
      'content-type': 'text/plain; charset=utf-8',
    });
    expect(subRequests()).toBe(asked); // nothing was asked of the panel for it
    expect((await deviceRows(id)).map((row) => row.hwid)).toEqual(['device-a', 'device-b']);
    // The known ones are still served; a browser still gets the page.
    expectReal(await sub(path, happ('device-a')));
    const page = await sub(path, { ...happ('device-c'), accept: 'text/html' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');

    const listed = await api(owner, 'GET', `/api/accounts/${id}/devices`);
    expect(listed.statusCode).toBe(200);
    const body: AccountDevices = listed.json();
    expect(body.limit).toBe(2);
    expect(body.devices).toEqual([
      {
        id: expect.any(String),
        os: 'Android',
        osVersion: '14',
        model: 'Pixel a',
        app: 'Happ/3.2.1',
        anonymous: false,
        firstSeenAt: expect.any(String),
        lastSeenAt: expect.any(String),
      },
      expect.objectContaining({ model: 'Pixel b' }),
    ]);
    expect(JSON.stringify(body)).not.toContain('device-a'); // never the raw device id

    const removed = await api(owner, 'DELETE', `/api/accounts/${id}/devices/${body.devices[0]!.id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expectReal(await sub(path, happ('device-c'))); // at once: no wait for any cache
    expect((await deviceRows(id)).map((row) => row.hwid)).toEqual(['device-b', 'device-c']);
    expectPlaceholder(await sub(path, happ('device-a')), LIMIT_TEXT(2, 2));
  });

  it('gives a refused device a placeholder in its own format, with no node of the panel', async () => {
    const { path } = await claim(owner, 1);
    expectReal(await sub(path, happ('only-one')));
    const asked = subRequests();
    const text = LIMIT_TEXT(1, 1);

    const singBox = await sub(path, { 'user-agent': 'SFA/1.9.0', 'x-hwid': 'second-sfa' });
    expect(singBox.headers['content-type']).toBe('application/json; charset=utf-8');
    const config = JSON.parse(singBox.body);
    expect(config.outbounds.filter((o: Json) => o.server).map((o: Json) => [o.tag, o.server])).toEqual([[text, '127.0.0.1']]);

    for (const ua of ['clash-verge/v2.0', 'ClashX Pro/1.118']) {
      const clash = await sub(path, { 'user-agent': ua, 'x-hwid': `second-${ua}` });
      expect(clash.statusCode).toBe(200);
      expect(clash.headers['content-type']).toBe('text/yaml; charset=utf-8');
      expect(clash.body).toContain(`proxies:\n  - name: ${JSON.stringify(text)}\n    type: socks5\n    server: 127.0.0.1\n`);
      expect(clash.body).toMatch(/^proxy-groups:\n {2}- name: "Lumen VPN"\n/m);
    }
    const links = await sub(`${path}/links`, { 'user-agent': 'v2rayNG/1.8.0', 'x-hwid': 'second-links' });
    expect(links.body).toBe(`vless://00000000-0000-0000-0000-000000000000@127.0.0.1:1?type=tcp&security=none#${encodeURIComponent(text)}`);
    for (const res of [singBox, links]) expect(res.body).not.toMatch(NODE_HOSTS);
    expect(subRequests()).toBe(asked);
  });

  it("says it in the owner's language", async () => {
    const reader = await signInDesktop(t, env.smtp, `reader-${kind}@example.com`);
    expect((await api(reader, 'PATCH', '/api/me', { locale: 'ru' })).statusCode).toBe(200);
    const { path } = await claim(reader, 1);
    expectReal(await sub(path, happ('ru-1')));
    const refused = await sub(path, happ('ru-2'));
    expectPlaceholder(refused, `Достигнут лимит устройств (1 из 1): удалите устройство на ${PUBLIC_URL}/ru/dashboard`);
    expect(refused.headers['content-language']).toBe('ru');
  });

  it('records devices on an account without a limit, and refuses none', async () => {
    const { id, path } = await claim(owner, null);
    for (const hwid of ['u-1', 'u-2', 'u-3', 'u-4']) {
      expectReal(await sub(path, happ(hwid)));
      t.clock.advance(1);
    }
    expectReal(await sub(path, { 'user-agent': 'v2rayNG/1.8.0' }));
    expect((await deviceRows(id)).map((row) => row.hwid)).toEqual(['u-1', 'u-2', 'u-3', 'u-4']);
    const listed = await api(owner, 'GET', `/api/accounts/${id}/devices`);
    expect(listed.json().limit).toBeNull();
    expect(listed.json().devices).toHaveLength(4);
  });

  it("writes a known device's last-seen time at most every few minutes, with what it now says", async () => {
    const { id, path } = await claim(owner, 3);
    expectReal(await sub(path, happ('seen-1')));
    const [first] = await deviceRows(id);
    t.clock.advance(60);
    expectReal(await sub(path, happ('seen-1', { 'user-agent': 'Happ/3.3.0' })));
    pastCaches();
    expectReal(await sub(path, happ('seen-1', { 'user-agent': 'Happ/3.3.0' })));
    expect((await deviceRows(id))[0]).toEqual(first);

    t.clock.advance(5 * 60);
    expectReal(await sub(path, happ('seen-1', { 'user-agent': 'Happ/3.3.0' })));
    const deadline = Date.now() + 2000;
    while ((await deviceRows(id))[0].app !== 'Happ/3.3.0' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const [touched] = await deviceRows(id);
    expect(touched.app).toBe('Happ/3.3.0');
    expect(new Date(touched.last_seen_at).getTime()).toBe(t.clock.now().getTime());
    expect(new Date(touched.first_seen_at).getTime()).toBe(new Date(first.first_seen_at).getTime());
  });

  describe('clients without a device id', () => {
    const setPolicy = async (value: unknown) => api(admin, 'PUT', '/api/admin/settings', { devicelessClients: value });

    it('are served by default, and refused with a placeholder when the operator says so (accounts with a limit only)', async () => {
      const limited = await claim(owner, 2);
      const unlimited = await claim(owner, null);
      const plain = { 'user-agent': 'v2rayNG/1.8.0' };
      expect((await api(admin, 'GET', '/api/admin/settings')).json().devicelessClients).toBe('allow');
      expectReal(await sub(limited.path, plain));

      const saved = await setPolicy('refuse');
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().devicelessClients).toBe('refuse');
      const refused = await sub(limited.path, plain);
      expectPlaceholder(refused, `This app does not send a device ID, which this subscription needs: use another VPN app (see ${PUBLIC_URL}/dashboard)`);
      expect(refused.headers['x-hwid-not-supported']).toBe('true');
      expectReal(await sub(unlimited.path, plain));
      expectReal(await sub(limited.path, happ('with-id'))); // a client that sends one is a device as usual
      expect((await deviceRows(limited.id)).map((row) => row.hwid)).toEqual(['with-id']);

      expect((await setPolicy('allow')).statusCode).toBe(200);
      expectReal(await sub(limited.path, plain));
    });

    it('refuses a policy it does not know with 400, and saves nothing', async () => {
      for (const value of ['block', '', null, true]) {
        const res = await setPolicy(value);
        expect(res.statusCode, String(value)).toBe(400);
        expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { devicelessClients: expect.any(String) } });
      }
      expect((await api(admin, 'GET', '/api/admin/settings')).json().devicelessClients).toBe('allow');
    });
  });

  describe('the devices API', () => {
    it('answers 401 signed out, and deletes nothing', async () => {
      const { id, path } = await claim(owner, 2);
      expectReal(await sub(path, happ('api-1')));
      const [device] = (await api(owner, 'GET', `/api/accounts/${id}/devices`)).json().devices;
      expect((await api(null, 'GET', `/api/accounts/${id}/devices`)).statusCode).toBe(401);
      expect((await api(null, 'DELETE', `/api/accounts/${id}/devices/${device.id}`)).statusCode).toBe(401);
      expect((await api(null, 'GET', `/api/admin/accounts/${id}/devices`)).statusCode).toBe(401);
      expect(await deviceRows(id)).toHaveLength(1);
    });

    it("answers the same 404 for someone else's account or device as for a missing or malformed one, and deletes nothing", async () => {
      const mine = await claim(owner, 2);
      const theirs = await claim(stranger, 2);
      expectReal(await sub(mine.path, happ('mine-1')));
      expectReal(await sub(theirs.path, happ('theirs-1')));
      const myDevice = (await api(owner, 'GET', `/api/accounts/${mine.id}/devices`)).json().devices[0].id;
      const theirDevice = (await api(stranger, 'GET', `/api/accounts/${theirs.id}/devices`)).json().devices[0].id;

      const missingAccount = await api(owner, 'GET', '/api/accounts/00000000-0000-0000-0000-000000000000/devices');
      expect(missingAccount.statusCode).toBe(404);
      expect(missingAccount.json()).toEqual({ code: 'not_found', message: 'Account not found' });
      for (const url of [`/api/accounts/${theirs.id}/devices`, `/api/accounts/${'x'.repeat(80)}/devices`]) {
        const res = await api(owner, 'GET', url);
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).toBe(missingAccount.body);
      }

      const missingDevice = await api(owner, 'DELETE', `/api/accounts/${mine.id}/devices/00000000-0000-0000-0000-000000000000`);
      expect(missingDevice.statusCode).toBe(404);
      expect(missingDevice.json()).toEqual({ code: 'not_found', message: 'Device not found' });
      for (const url of [
        `/api/accounts/${theirs.id}/devices/${theirDevice}`, // their account, their device
        `/api/accounts/${mine.id}/devices/${theirDevice}`, // my account, their device
        `/api/accounts/${theirs.id}/devices/${myDevice}`, // their account, my device
        '/api/accounts/00000000-0000-0000-0000-000000000000/devices/00000000-0000-0000-0000-000000000000',
        `/api/accounts/${mine.id}/devices/not-a-device-id`,
      ]) {
        const res = await api(owner, 'DELETE', url);
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).toBe(missingDevice.body);
      }
      expect(await deviceRows(mine.id)).toHaveLength(1);
      expect(await deviceRows(theirs.id)).toHaveLength(1);
    });

    it("lets an admin list and remove any account's devices, audited against the owner; a customer gets 403 there", async () => {
      const { id, path } = await claim(stranger, 1);
      expectReal(await sub(path, happ('admin-1')));
      const listed = await api(admin, 'GET', `/api/admin/accounts/${id}/devices`);
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toMatchObject({ limit: 1, devices: [{ model: 'Pixel 1', os: 'Android', app: 'Happ/3.2.1' }] });
      const deviceId = listed.json().devices[0].id;

      expect((await api(stranger, 'GET', `/api/admin/accounts/${id}/devices`)).statusCode).toBe(403);
      expect((await api(stranger, 'DELETE', `/api/admin/accounts/${id}/devices/${deviceId}`)).statusCode).toBe(403);
      expect(await deviceRows(id)).toHaveLength(1);
      expectPlaceholder(await sub(path, happ('admin-2')), LIMIT_TEXT(1, 1));

      expect((await api(admin, 'DELETE', `/api/admin/accounts/${id}/devices/${deviceId}`)).statusCode).toBe(204);
      expect(await deviceRows(id)).toHaveLength(0);
      expectReal(await sub(path, happ('admin-2')));
      const entry = await env.database.db('audit_log').where({ action: 'account.device_remove' }).orderBy('id', 'desc').first();
      expect(entry).toMatchObject({ actor_id: admin.userId, target_type: 'user', target_id: stranger.userId });
      expect(parseJson(entry.details, {})).toMatchObject({ accountId: id, deviceId, os: 'Android', model: 'Pixel 1', app: 'Happ/3.2.1' });
      expect((await api(admin, 'DELETE', `/api/admin/accounts/${id}/devices/${deviceId}`)).statusCode).toBe(404);
    });
  });

  describe('at once', () => {
    it('ten new devices at one free slot: exactly one gets in', async () => {
      const { id, path } = await claim(owner, 2);
      expectReal(await sub(path, happ('first')));
      t.clock.advance(1);
      const asked = subRequests();
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => sub(path, happ(`racer-${i}`))));
      const admitted = answers.filter((res) => NODE_HOSTS.test(fromB64(res.body)));
      expect(answers.every((res) => res.statusCode === 200)).toBe(true);
      expect(admitted).toHaveLength(1);
      const rows = await deviceRows(id);
      expect(rows).toHaveLength(2);
      expect(rows[1].hwid).toMatch(/^racer-\d$/);
      expect(subRequests() - asked).toBeLessThanOrEqual(1);
    });

    it('one new device asking ten times at once is recorded once', async () => {
      const { id, path } = await claim(owner, 1);
      const answers = await Promise.all(Array.from({ length: 10 }, () => sub(path, happ('eager'))));
      for (const res of answers) expectReal(res);
      expect(await deviceRows(id)).toHaveLength(1);
    });
  });

  it("forgets an account's devices with the account", async () => {
    const { id, path } = await claim(owner, 2);
    expectReal(await sub(path, happ('doomed')));
    expect((await api(owner, 'DELETE', `/api/accounts/${id}`)).statusCode).toBe(204);
    expect(await deviceRows(id)).toHaveLength(0);
  });
});
