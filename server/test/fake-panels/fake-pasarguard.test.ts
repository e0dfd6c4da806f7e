import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRole, startFakePasarguard, type FakePasarguard } from './pasarguard.js';
import { call, decodeJwtPart, fromBase64, loginForm } from './test-client.js';
import type { FakePanel } from './types.js';

const inAYear = () => new Date(Date.now() + 365 * 86400_000);

describe('fake PasarGuard panel', () => {
  let panel: FakePasarguard;
  let token: string;
  /** test-client's helpers take the shared handle; they only use url. */
  const asPanel = () => panel as unknown as FakePanel;
  const api = (method: string, path: string, json?: unknown, headers?: Record<string, string>) => call(asPanel(), method, path, { token, json, headers });
  const create = (username: string, extra: Record<string, unknown> = {}) => api('POST', '/api/user', { username, group_ids: [1, 2], ...extra });
  const logIn = async () =>
    (await call(asPanel(), 'POST', '/api/admin/token', loginForm(panel.admin.username, panel.admin.password))).body.access_token as string;
  const sub = (url: string, suffix = '', headers: Record<string, string> = {}) => call(asPanel(), 'GET', `${url}${suffix}`, { headers });

  beforeEach(async () => {
    panel = await startFakePasarguard();
    token = await logIn();
  });
  afterEach(async () => {
    await panel.close();
  });

  describe('admin auth', () => {
    it('issues a 24 h HS256 token for the form login, with the admin id in `aid`', async () => {
      const claims = decodeJwtPart(token, 1);
      expect(claims).toMatchObject({ sub: 'admin', access: 'admin', aid: 1 });
      expect((claims.exp as number) - Date.now() / 1000).toBeGreaterThan(86400 - 5);
    });

    it('answers a wrong password 401 and a missing field 422', async () => {
      const wrong = await call(asPanel(), 'POST', '/api/admin/token', loginForm('admin', 'nope'));
      expect([wrong.status, wrong.text, wrong.headers.get('www-authenticate')]).toEqual([401, '{"detail":"Incorrect username or password"}', 'Bearer']);
      const missing = await call(asPanel(), 'POST', '/api/admin/token', {
        body: 'username=admin',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect([missing.status, missing.body]).toEqual([422, { detail: { password: 'Field required' } }]);
    });

    it('says "Could not validate credentials" with no token at all, and for a revoked one', async () => {
      const none = await call(asPanel(), 'GET', '/api/admin');
      expect([none.status, none.body]).toEqual([401, { detail: 'Could not validate credentials' }]);
      panel.revokeAllTokens();
      expect((await api('GET', '/api/admin')).status).toBe(401);
    });

    it('refuses a disabled admin with 403 at login and on every call', async () => {
      panel.admin.status = 'disabled';
      expect((await api('GET', '/api/admin')).body).toEqual({ detail: 'your account has been disabled' });
      const login = await call(asPanel(), 'POST', '/api/admin/token', loginForm('admin', 'admin-pass'));
      expect([login.status, login.body.detail]).toEqual([403, 'your account has been disabled']);
    });

    it('describes the admin with its role instead of is_sudo', async () => {
      const admin = (await api('GET', '/api/admin')).body;
      expect(admin).toMatchObject({ username: 'admin', status: 'active', is_limited: false, role: { name: 'owner', is_owner: true } });
      expect(admin).not.toHaveProperty('is_sudo');
    });
  });

  describe('users', () => {
    it('creates with 201: ISO expire with Z, the panel-made proxy settings, a relative v3 subscription URL', async () => {
      const expire = inAYear();
      const reply = await create('Cust.01', { expire: expire.toISOString(), data_limit: 1000, note: 'order 7', hwid_limit: 0 });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({
        username: 'Cust.01',
        status: 'active',
        data_limit: 1000,
        used_traffic: 0,
        note: 'order 7',
        group_ids: [1, 2],
        hwid_limit: 0,
        admin: { id: 1, username: 'admin' },
      });
      expect(new Date(reply.body.expire).getTime()).toBe(expire.getTime());
      expect(reply.body.expire).toMatch(/Z$/);
      expect(reply.body.proxy_settings.vless.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(reply.body.subscription_url).toMatch(/^\/sub\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(fromBase64(reply.body.subscription_url.slice(5).split('.')[0])).toMatch(/^v3,\d+,\d+$/);
    });

    it('takes expire as unix seconds too, 0 as never, and names both union members when it is neither', async () => {
      const seconds = Math.floor(inAYear().getTime() / 1000);
      expect((await create('unix_expire', { expire: seconds })).body.expire).toBe(new Date(seconds * 1000).toISOString().replace('.000', ''));
      expect((await create('never_expires', { expire: 0 })).body.expire).toBeNull();
      const bad = await create('bad_expire', { expire: 'next week' });
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.detail).sort()).toEqual(['datetime', 'int']);
    });

    it('validates usernames (3–128 of a-z A-Z 0-9 - _ @ ., no two specials in a row) and keeps their case', async () => {
      for (const bad of ['ab', 'has space', 'a__b', 'x'.repeat(129)]) {
        const reply = await create(bad);
        expect(reply.status).toBe(422);
        expect(reply.body.detail.username).toMatch(/^Value error, Username /);
      }
      expect((await create('Cust_1')).status).toBe(201);
      expect((await create('cust_1')).status).toBe(201);
      const dup = await create('Cust_1');
      expect([dup.status, dup.text]).toEqual([409, '{"detail":"User already exists"}']);
    });

    it('refuses an unknown group without naming it, and accepts a disabled group whose users get no servers', async () => {
      const unknown = await create('no_group', { group_ids: [1, 99] });
      expect([unknown.status, unknown.body]).toEqual([404, { detail: 'Group not found' }]);
      expect(panel.users.has('no_group')).toBe(false);
      const archived = await create('archived', { group_ids: [3] });
      expect(archived.status).toBe(201);
      expect((await sub(archived.body.subscription_url, '/links')).text).toBe('');
    });

    it('creates a user without groups when group_ids is left out, but refuses an empty list', async () => {
      expect((await api('POST', '/api/user', { username: 'groupless' })).body.group_ids).toEqual([]);
      const empty = await create('empty_groups', { group_ids: [] });
      expect([empty.status, empty.body]).toEqual([422, { detail: { group_ids: 'Value error, you must select at least one group' } }]);
    });

    it('lists in offset/limit pages with the total; subscription URLs only with load_sub, everyone with limit=0', async () => {
      for (const name of ['u_c', 'u_a', 'u_b']) await create(name);
      const page = (await api('GET', '/api/users?offset=1&limit=1&sort=username')).body;
      expect(page.total).toBe(3);
      expect(page.users.map((u: { username: string }) => u.username)).toEqual(['u_b']);
      expect(page.users[0].subscription_url).toBe('');
      const withSub = (await api('GET', '/api/users?limit=1&load_sub=true')).body;
      expect(withSub.users[0].subscription_url).toMatch(/^\/sub\//);
      expect((await api('GET', '/api/users?limit=0')).body.users).toHaveLength(3);
      expect(await api('GET', '/api/users?sort=nope').then((r) => [r.status, r.body.detail])).toEqual([
        400,
        "Value error, 'nope' is not a valid UserSortOption",
      ]);
    });

    it('reactivates an expired user given a later expire and a limited one given more data', async () => {
      await create('lapsed', { expire: new Date(Date.now() - 1000).toISOString() });
      expect((await api('GET', '/api/user/lapsed')).body.status).toBe('expired');
      expect((await api('PUT', '/api/user/lapsed', { expire: inAYear().toISOString() })).body.status).toBe('active');
      await create('heavy', { data_limit: 100 });
      panel.users.get('heavy')!.used_traffic = 500;
      expect((await api('GET', '/api/user/heavy')).body.status).toBe('limited');
      expect((await api('PUT', '/api/user/heavy', { data_limit: 1000 })).body.status).toBe('active');
    });

    it('drops the next plan on every PUT that does not send one', async () => {
      await create('planned', { next_plan: { data_limit: 5, expire: 10 } });
      expect(panel.users.get('planned')!.next_plan).not.toBeNull();
      await api('PUT', '/api/user/planned', { note: 'changed' });
      expect(panel.users.get('planned')!.next_plan).toBeNull();
    });

    it('toggles disabled, and enabling recomputes the status (an expired user comes back expired)', async () => {
      await create('toggle', { expire: new Date(Date.now() + 60_000).toISOString() });
      expect((await api('PUT', '/api/user/toggle/disabled', { disabled: true })).body.status).toBe('disabled');
      panel.users.get('toggle')!.expire = new Date(Date.now() - 1000);
      expect((await api('PUT', '/api/user/toggle/disabled', { disabled: false })).body.status).toBe('expired');
      expect((await api('PUT', '/api/user/toggle/disabled', {})).body).toEqual({ detail: { disabled: 'Field required' } });
    });

    it('resets usage to 0 (a limited user becomes active) and keeps the lifetime total', async () => {
      await create('reset_me', { data_limit: 100 });
      panel.users.get('reset_me')!.used_traffic = 150;
      const user = (await api('POST', '/api/user/reset_me/reset')).body;
      expect(user).toMatchObject({ used_traffic: 0, lifetime_used_traffic: 150, status: 'active' });
    });

    it('deletes with 204 and no body, then answers 404 "User not found"; an unknown route is 404 "Not Found"', async () => {
      await create('gone');
      const removed = await api('DELETE', '/api/user/gone');
      expect([removed.status, removed.text]).toEqual([204, '']);
      expect((await api('DELETE', '/api/user/gone')).body).toEqual({ detail: 'User not found' });
      expect((await api('GET', '/api/nothing/here')).body).toEqual({ detail: 'Not Found' });
    });
  });

  describe('roles', () => {
    it("lets an operator read group names only, and hides other admins' users though their names still collide", async () => {
      await create('taken');
      panel.users.get('taken')!.admin = { id: 2, username: 'reseller2' };
      panel.admin.role = seededRole('operator');
      expect((await api('GET', '/api/groups')).body).toEqual({ detail: 'Permission denied: groups.read' });
      expect((await api('GET', '/api/groups/simple?all=true')).body.groups).toContainEqual({ id: 1, name: 'Netherlands' });
      expect((await api('GET', '/api/user/taken')).body).toEqual({ detail: 'User not found' });
      expect((await create('taken')).status).toBe(409);
      expect((await api('GET', '/api/users')).body.total).toBe(0);
    });

    it('blocks the writes of a limited admin and the manual creates of a template-only role', async () => {
      panel.admin.role = seededRole('administrator');
      panel.admin.status = 'limited';
      expect((await create('blocked')).body).toEqual({ detail: 'Admin is limited — write actions blocked' });
      panel.admin.status = 'active';
      panel.admin.role.access.require_template = true;
      expect((await create('blocked')).body).toEqual({ detail: 'Manual user create/modify is not allowed for your role' });
    });

    it('refuses hwid_limit 0 to a role that caps devices per user', async () => {
      panel.admin.role = seededRole('administrator');
      panel.admin.role.limits.max_hwid_per_user = 3;
      expect((await create('capped', { hwid_limit: 0 })).body).toEqual({ detail: 'HWID limit cannot be unlimited; maximum is 3' });
    });
  });

  describe('subscription', () => {
    const servers = (text: string) => text.split('\n').map((link) => link.split('@')[1]?.split(':')[0] ?? JSON.parse(fromBase64(link.slice(8))).add);

    it("serves each client type with its own body, type and file name, from the nodes' hosts", async () => {
      const url = (await create('formats', { data_limit: 5000, expire: 2000000000 })).body.subscription_url;
      const base64 = await sub(url, '/links_base64');
      expect(base64.contentType).toBe('text/plain; charset=utf-8');
      expect(servers(fromBase64(base64.text)).sort()).toEqual(['de1.example.test', 'de1.example.test', 'nl1.example.test', 'nl1.example.test']);
      expect(base64.headers.get('subscription-userinfo')).toBe('upload=0; download=0; total=5000; expire=2000000000');
      expect(base64.headers.get('content-disposition')).toBe('attachment; filename="formats.txt"');
      const singBox = await sub(url, '/sing_box');
      expect(singBox.contentType).toBe('application/json');
      expect(singBox.body.outbounds.map((o: { server?: string }) => o.server)).toContain('nl1.example.test');
      for (const type of ['clash', 'clash_meta']) {
        const yaml = await sub(url, `/${type}`);
        expect(yaml.contentType).toBe('text/yaml; charset=utf-8');
        expect(yaml.text).toContain('server: "de1.example.test"');
      }
      expect((await sub(url, '/wireguard')).headers.get('content-type')).toBe('application/zip');
    });

    it('answers a bad client type 422, "block" or a format the admin turned off 406, a bad token 404', async () => {
      const url = (await create('refusals')).body.subscription_url;
      expect((await sub(url, '/sing-box')).status).toBe(422);
      expect((await sub(url, '/block')).body).toEqual({ detail: 'Client not supported' });
      panel.manualSubRequest.clash = false;
      expect((await sub(url, '/clash')).status).toBe(406);
      expect((await sub(`${url}x`, '/links')).body).toEqual({ detail: 'Not Found' });
    });

    it('picks the format from the User-Agent on the bare URL and a page for browsers', async () => {
      const url = (await create('by_agent')).body.subscription_url;
      expect((await sub(url, '', { 'user-agent': 'clash-verge/v2.0' })).contentType).toBe('text/yaml; charset=utf-8');
      expect((await sub(url, '', { 'user-agent': 'SFA/1.9' })).contentType).toBe('application/json');
      expect(fromBase64((await sub(url, '', { 'user-agent': 'v2rayNG/1.8' })).text)).toContain('vless://');
      expect((await sub(url, '', { accept: 'text/html' })).contentType).toBe('text/html; charset=utf-8');
    });

    it('issues a new subscription token each second, every one valid', async () => {
      const first = (await create('tokens')).body.subscription_url;
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const second = (await api('GET', '/api/user/tokens')).body.subscription_url;
      expect(second).not.toBe(first);
      expect((await sub(first, '/links')).status).toBe(200);
      expect((await sub(second, '/links')).status).toBe(200);
    });

    it('serves a disabled user the same servers; only a host with a status filter tells them apart', async () => {
      const url = (await create('inactive', { group_ids: [1] })).body.subscription_url;
      const active = (await sub(url, '/links')).text;
      await api('PUT', '/api/user/inactive/disabled', { disabled: true });
      expect((await sub(url, '/links')).text).toBe(active);
      panel.hosts.push({ inbound_tag: 'VLESS TCP REALITY', remark: 'disabled', address: '127.0.0.1', status: ['disabled'] });
      expect((await sub(url, '/links')).text.split('\n')).toHaveLength(3);
    });

    it('counts devices only by x-hwid: no header is served, a new device past the limit gets 403', async () => {
      const url = (await create('devices', { hwid_limit: 1 })).body.subscription_url;
      expect((await sub(url, '/links')).status).toBe(200);
      expect((await sub(url, '/links', { 'x-hwid': 'phone' })).status).toBe(200);
      const second = await sub(url, '/links', { 'x-hwid': 'laptop' });
      expect([second.status, second.body]).toEqual([403, { detail: 'Device limit reached' }]);
      expect((await sub(url, '/links', { 'x-hwid': 'phone' })).status).toBe(200);
    });

    it('needs x-hwid under a forced policy (client-type routes only with require_hwid_for_manual_sub), unless hwid_limit is 0', async () => {
      const url = (await create('forced')).body.subscription_url;
      const optedOut = (await create('opted_out', { hwid_limit: 0 })).body.subscription_url;
      panel.hwid.forced = true;
      expect((await sub(url, '', { 'user-agent': 'v2rayNG/1.8' })).body).toEqual({ detail: 'HWID header required' });
      expect((await sub(url, '/links')).status).toBe(200);
      panel.hwid.require_hwid_for_manual_sub = true;
      expect((await sub(url, '/links')).status).toBe(403);
      expect((await sub(optedOut, '/links')).status).toBe(200);
    });
  });
});
