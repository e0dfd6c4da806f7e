import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asMarzneshinUser, marzneshinStatus, startFakeMarzneshin } from './marzneshin.js';
import { call, fromBase64, login } from './test-client.js';
import type { FakePanel } from './types.js';

const NAIVE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/;

describe('fake Marzneshin panel', () => {
  let panel: FakePanel;
  let token: string;
  const api = (method: string, path: string, json?: unknown) => call(panel, method, path, { token, json });
  const create = (username: string, extra: Record<string, unknown> = {}) =>
    api('POST', '/api/users', { username, expire_strategy: 'never', service_ids: [1], ...extra });

  beforeEach(async () => {
    panel = await startFakeMarzneshin();
    token = await login(panel, '/api/admins/token');
  });
  afterEach(async () => {
    await panel.close();
  });

  describe('users', () => {
    it('creates the documented user: lower-cased, naive UTC datetimes, relative subscription URL, no status/links', async () => {
      const reply = await api('POST', '/api/users', {
        username: 'User_K3x9q2ab',
        service_ids: [1, 99],
        expire_strategy: 'fixed_date',
        expire_date: '2030-01-31T12:00:00Z',
        data_limit: 53687091200,
        data_limit_reset_strategy: 'no_reset',
        note: 'order 42',
      });
      expect(reply.status).toBe(200);
      const user = reply.body;
      expect(Object.keys(user)).toEqual([
        'id',
        'username',
        'expire_strategy',
        'expire_date',
        'usage_duration',
        'activation_deadline',
        'key',
        'data_limit',
        'data_limit_reset_strategy',
        'note',
        'sub_updated_at',
        'sub_last_user_agent',
        'online_at',
        'activated',
        'is_active',
        'expired',
        'data_limit_reached',
        'enabled',
        'used_traffic',
        'lifetime_used_traffic',
        'sub_revoked_at',
        'created_at',
        'service_ids',
        'subscription_url',
        'owner_username',
        'traffic_reset_at',
      ]);
      expect(user).toMatchObject({
        username: 'user_k3x9q2ab',
        expire_strategy: 'fixed_date',
        expire_date: '2030-01-31T12:00:00',
        usage_duration: null,
        data_limit: 53687091200,
        note: 'order 42',
        activated: true,
        is_active: true,
        expired: false,
        data_limit_reached: false,
        enabled: true,
        used_traffic: 0,
        service_ids: [1],
        owner_username: 'admin',
      });
      expect(user.key).toMatch(/^[0-9a-f]{32}$/);
      expect(user.created_at).toMatch(NAIVE);
      expect(user.subscription_url).toBe(`/sub/user_k3x9q2ab/${user.key}`);
      expect(user).not.toHaveProperty('status');
      expect(user).not.toHaveProperty('links');
      expect(panel.users.has('user_k3x9q2ab')).toBe(true);
    });

    it('stores a data_limit of 0 as null and takes an offset datetime as UTC', async () => {
      const user = (await create('user_zero', { expire_strategy: 'fixed_date', expire_date: '2030-01-31T15:00:00+03:00', data_limit: 0 })).body;
      expect(user.data_limit).toBeNull();
      expect(user.expire_date).toBe('2030-01-31T12:00:00');
    });

    it('validates the username, the expire strategy and its fields with the documented 422 bodies', async () => {
      const hyphen = await create('user-1');
      expect(hyphen.status).toBe(422);
      expect(hyphen.text).toBe(`{"detail":{"username":"String should match pattern '^\\\\w{3,32}$'"}}`);
      expect((await create('ab')).status).toBe(422);
      expect((await create('a'.repeat(33))).status).toBe(422);

      const noStrategy = await api('POST', '/api/users', { username: 'user_ok' });
      expect(noStrategy.body).toEqual({ detail: { expire_strategy: 'Field required' } });
      const noDate = await create('user_ok', { expire_strategy: 'fixed_date' });
      expect(noDate.status).toBe(422);
      expect(noDate.body.detail.body).toMatch(/^Value error, .*fixed_date/);
      const noDuration = await create('user_ok', { expire_strategy: 'start_on_first_use' });
      expect(noDuration.body.detail.body).toMatch(/^Value error, .*usage_duration/);
      const longNote = await create('user_ok', { note: 'x'.repeat(501) });
      expect(longNote.body).toEqual({ detail: { note: 'String should have at most 500 characters' } });
      expect(panel.users.size).toBe(0);
    });

    it('answers 409 for a taken name, CUST_1 and cust_1 included', async () => {
      expect((await create('cust_1')).status).toBe(200);
      const again = await create('CUST_1');
      expect(again.status).toBe(409);
      expect(again.text).toBe('{"detail":"User already exists"}');
    });

    it('gets a user, and 404 "User not found" for a missing one', async () => {
      await create('user_get');
      expect((await api('GET', '/api/users/user_get')).body.username).toBe('user_get');
      const missing = await api('GET', '/api/users/nobody');
      expect(missing.status).toBe(404);
      expect(missing.text).toBe('{"detail":"User not found"}');
    });

    it('starts a start_on_first_use user on hold, and its clock on first use', async () => {
      await create('user_hold', { expire_strategy: 'start_on_first_use', usage_duration: 3600 });
      const user = asMarzneshinUser(panel.users.get('user_hold'));
      expect(marzneshinStatus(user)).toBe('on_hold');
      user.used_traffic = 10;
      const read = (await api('GET', '/api/users/user_hold')).body;
      expect(read.expire_strategy).toBe('fixed_date');
      expect(Date.parse(`${read.expire_date}Z`) - Date.now()).toBeGreaterThan(3590_000);
    });
  });

  describe('the PUT bug', () => {
    beforeEach(async () => {
      await create('user_put', { expire_strategy: 'fixed_date', expire_date: '2030-01-31T12:00:00', data_limit: 1000, note: 'keep' });
    });

    it('answers 500 text/plain without expire_strategy or "usage_duration": null', async () => {
      const reply = await api('PUT', '/api/users/user_put', { username: 'user_put', data_limit: 5000 });
      expect(reply.status).toBe(500);
      expect(reply.contentType).toBe('text/plain; charset=utf-8');
      expect(reply.text).toBe('Internal Server Error');
      expect(asMarzneshinUser(panel.users.get('user_put')).data_limit).toBe(1000);
    });

    it('changes only the non-null fields with "usage_duration": null', async () => {
      const reply = await api('PUT', '/api/users/user_put', { username: 'user_put', data_limit: 5000, usage_duration: null, note: null });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ data_limit: 5000, note: 'keep', expire_strategy: 'fixed_date', expire_date: '2030-01-31T12:00:00' });
    });

    it('works with expire_strategy and its fields; a past date expires the user at once', async () => {
      const later = await api('PUT', '/api/users/user_put', { username: 'user_put', expire_strategy: 'fixed_date', expire_date: '2031-05-01T00:00:00Z' });
      expect(later.body).toMatchObject({ expire_date: '2031-05-01T00:00:00', data_limit: 1000, expired: false });
      const past = await api('PUT', '/api/users/user_put', { username: 'user_put', expire_strategy: 'fixed_date', expire_date: '2020-01-01T00:00:00' });
      expect(past.body).toMatchObject({ expired: true, is_active: false });
      const never = await api('PUT', '/api/users/user_put', { username: 'user_put', expire_strategy: 'never' });
      expect(never.body).toMatchObject({ expire_strategy: 'never', expire_date: null, expired: false });
    });

    it('needs username (a different one is ignored), and service_ids [] removes all services', async () => {
      const noName = await api('PUT', '/api/users/user_put', { usage_duration: null });
      expect(noName.status).toBe(422);
      expect(noName.body).toEqual({ detail: { username: 'Field required' } });
      const renamed = await api('PUT', '/api/users/user_put', { username: 'other_name', usage_duration: null, service_ids: [] });
      expect(renamed.body).toMatchObject({ username: 'user_put', service_ids: [] });
      expect(panel.users.has('other_name')).toBe(false);
      expect((await api('PUT', '/api/users/user_put', { username: 'user_put', usage_duration: null, service_ids: [2, 42] })).body.service_ids).toEqual([2]);
    });
  });

  describe('actions', () => {
    beforeEach(async () => {
      await create('user_act', { data_limit: 100 });
    });

    it('enables and disables, with the 409 texts when already so', async () => {
      const already = await api('POST', '/api/users/user_act/enable');
      expect(already.status).toBe(409);
      expect(already.body).toEqual({ detail: 'User is already enabled' });
      expect((await api('POST', '/api/users/user_act/disable')).body).toMatchObject({ enabled: false, is_active: false, activated: false });
      expect((await api('POST', '/api/users/user_act/disable')).body).toEqual({ detail: 'User is not enabled' });
      expect((await api('POST', '/api/users/user_act/enable')).body).toMatchObject({ enabled: true, is_active: true });
    });

    it('resets traffic, making a limited user active again', async () => {
      asMarzneshinUser(panel.users.get('user_act')).used_traffic = 150;
      expect((await api('GET', '/api/users/user_act')).body).toMatchObject({ data_limit_reached: true, is_active: false });
      expect((await api('POST', '/api/users/user_act/reset')).body).toMatchObject({ used_traffic: 0, data_limit_reached: false, is_active: true });
    });

    it('revokes the subscription: a new key, and the old URL answers 404', async () => {
      const before = (await api('GET', '/api/users/user_act')).body;
      const after = (await api('POST', '/api/users/user_act/revoke_sub')).body;
      expect(after.key).not.toBe(before.key);
      expect(after.sub_revoked_at).toMatch(NAIVE);
      expect((await call(panel, 'GET', before.subscription_url)).body).toEqual({ detail: 'Not Found' });
      expect((await call(panel, 'GET', after.subscription_url)).status).toBe(200);
    });

    it('deletes with 200 {}, then 404, and the name can be reused at once', async () => {
      const deleted = await api('DELETE', '/api/users/user_act');
      expect([deleted.status, deleted.text]).toEqual([200, '{}']);
      expect((await api('DELETE', '/api/users/user_act')).body).toEqual({ detail: 'User not found' });
      expect((await create('user_act')).status).toBe(200);
    });
  });

  describe('lists', () => {
    it('matches one username as an ILIKE substring and two or more exactly', async () => {
      for (const name of ['cust_1', 'cust_10', 'custx1', 'other']) await create(name);
      const one = await api('GET', '/api/users?username=cust_1');
      expect(one.body.items.map((u: { username: string }) => u.username)).toEqual(['cust_1', 'cust_10', 'custx1']);
      expect(one.body).toMatchObject({ total: 3, page: 1, size: 50, pages: 1 });
      expect(one.body.links).toMatchObject({ next: null, prev: null });
      const two = await api('GET', '/api/users?username=cust_1&username=other&page=1&size=50');
      expect(two.body.items.map((u: { username: string }) => u.username)).toEqual(['cust_1', 'other']);
      expect((await api('GET', '/api/users?username=nobody')).body).toMatchObject({ items: [], total: 0 });
      expect((await api('GET', '/api/users?size=101')).status).toBe(422);
      const paged = await api('GET', '/api/users?size=2&page=2');
      expect(paged.body).toMatchObject({ total: 4, page: 2, size: 2, pages: 2 });
      expect(paged.body.items).toHaveLength(2);
    });

    it('lists services with the users in them, and the current admin', async () => {
      await create('user_svc');
      const services = await api('GET', '/api/services?page=1&size=100');
      expect(services.body.items).toEqual([
        { id: 1, name: 'Germany', inbound_ids: [1], user_ids: [1] },
        { id: 2, name: 'Netherlands', inbound_ids: [2], user_ids: [] },
      ]);
      expect((await api('GET', '/api/admins/current')).body).toMatchObject({ username: 'admin', is_sudo: true });
      expect((await api('GET', '/api/nodes')).body.items[0]).toMatchObject({ name: 'de1', status: 'healthy' });
    });
  });

  describe('subscription', () => {
    let url: string;
    beforeEach(async () => {
      const user = (await create('user_k3x9q2ab', { service_ids: [1, 2], data_limit: 1000, expire_strategy: 'fixed_date', expire_date: '2030-01-31T12:00:00' }))
        .body;
      url = user.subscription_url;
      asMarzneshinUser(panel.users.get('user_k3x9q2ab')).used_traffic = 250;
    });
    const get = (path: string, headers: Record<string, string> = {}) => call(panel, 'GET', path, { headers });

    it('serves base64 links by default, with the subscription headers', async () => {
      const reply = await get(url, { 'user-agent': 'SomeClient/1.0' });
      expect(reply.contentType).toBe('text/plain; charset=utf-8');
      const links = fromBase64(reply.text).split('\n');
      expect(links).toHaveLength(3);
      expect(links[0]).toMatch(/^vless:\/\/[0-9a-f-]{36}@de1\.example\.test:443\?security=tls&type=tcp&sni=de1\.example\.test#DE-user_k3x9q2ab$/);
      expect(reply.headers.get('subscription-userinfo')).toBe(`upload=0; download=250; total=1000; expire=${Date.UTC(2030, 0, 31, 12) / 1000}`);
      expect(reply.headers.get('profile-title')).toBe(`base64:${Buffer.from('Support').toString('base64')}`);
      expect(reply.headers.get('profile-update-interval')).toBe('12');
      expect(reply.headers.get('support-url')).toBe('t.me/support');
      expect(asMarzneshinUser(panel.users.get('user_k3x9q2ab')).sub_last_user_agent).toBe('SomeClient/1.0');
    });

    it('chooses the format from the User-Agent', async () => {
      const meta = await get(url, { 'user-agent': 'clash-verge/v2.0.0' });
      expect(meta.contentType).toBe('text/yaml; charset=utf-8');
      expect(meta.text).toContain('proxies:\n  - name: "DE-user_k3x9q2ab"\n    type: vless\n    server: "de1.example.test"');
      expect((await get(url, { 'user-agent': 'Stash/2.4' })).contentType).toBe('text/yaml; charset=utf-8');
      const singBox = await get(url, { 'user-agent': 'SFA/1.9.0' });
      expect(singBox.contentType).toBe('application/json');
      expect(singBox.body.outbounds.map((o: { tag: string }) => o.tag)).toEqual([
        'proxy',
        'DE-user_k3x9q2ab',
        'DE2-user_k3x9q2ab',
        'NL-user_k3x9q2ab',
        'direct',
      ]);
      const hiddify = await get(url, { 'user-agent': 'HiddifyNext/2.0 (android) like ClashMeta v2ray sing-box' });
      expect(hiddify.contentType).toBe('application/json');
      const xray = await get(url, { 'user-agent': 'v2rayNG/1.9.5' });
      expect(xray.body[0]).toMatchObject({ remarks: 'DE-user_k3x9q2ab', outbounds: [{ protocol: 'vless' }, { protocol: 'freedom' }] });
      const oldV2rayN = await get(url, { 'user-agent': 'v2rayN/6.20' });
      expect(fromBase64(oldV2rayN.text)).toContain('vless://');
      const page = await get(url, { accept: 'text/html,application/xhtml+xml' });
      expect(page.contentType).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('<h1>user_k3x9q2ab</h1>');
    });

    it('forces a format with a path suffix', async () => {
      const links = await get(`${url}/links`, { 'user-agent': 'clash-verge/v2.0.0' });
      expect(links.contentType).toBe('text/plain; charset=utf-8');
      expect(links.text.split('\n')).toHaveLength(3);
      expect(fromBase64((await get(`${url}/v2ray`)).text)).toBe(links.text);
      expect((await get(`${url}/sing-box`)).body.outbounds).toHaveLength(5);
      expect((await get(`${url}/clash-meta`)).text).toContain('rules:\n  - MATCH,Proxy');
      expect((await get(`${url}/clash`)).contentType).toBe('text/yaml; charset=utf-8');
      expect((await get(`${url}/xray`)).body).toHaveLength(3);
      expect((await get(`${url}/links`)).headers.get('subscription-userinfo')).toContain('download=250');
      expect((await get(`${url}/nonsense`)).status).toBe(422);
    });

    it('serves info and usage, and 404 "Not Found" for a wrong key', async () => {
      expect((await get(`${url}/info`)).body).toMatchObject({ username: 'user_k3x9q2ab', used_traffic: 250 });
      expect((await get(`${url}/usage`)).body).toMatchObject({ username: 'user_k3x9q2ab' });
      for (const path of [
        '/sub/user_k3x9q2ab/0123456789abcdef0123456789abcdef',
        '/sub/user_k3x9q2ab/not-hex',
        '/sub/nobody/abcdef',
        `${url}/info`.replace('user_k3x9q2ab/', 'nobody/'),
      ]) {
        const reply = await get(path);
        expect([reply.status, reply.text]).toEqual([404, '{"detail":"Not Found"}']);
      }
    });

    it('gives an inactive user only the placeholder vmess link whose remark is "disabled"', async () => {
      await call(panel, 'POST', '/api/users/user_k3x9q2ab/disable', { token });
      const links = (await get(`${url}/links`)).text.split('\n');
      expect(links).toHaveLength(1);
      expect(links[0]).toMatch(/^vmess:\/\//);
      expect(JSON.parse(fromBase64(links[0]!.slice('vmess://'.length))).ps).toBe('disabled');
      expect((await get(`${url}/clash-meta`)).text).toContain('name: "disabled"');
    });
  });

  describe('a non-sudo admin', () => {
    it('gets 403 "You\'re not allowed" for a user it does not own, even a missing one', async () => {
      const other = await startFakeMarzneshin({ sudo: false });
      try {
        const t = await login(other, '/api/admins/token');
        const missing = await call(other, 'GET', '/api/users/nobody', { token: t });
        expect([missing.status, missing.text]).toEqual([403, `{"detail":"You're not allowed"}`]);
        expect((await call(other, 'POST', '/api/users', { token: t, json: { username: 'mine', expire_strategy: 'never' } })).status).toBe(200);
        expect((await call(other, 'GET', '/api/users/mine', { token: t })).status).toBe(200);
        asMarzneshinUser(other.users.get('mine')).owner_username = 'someone_else';
        expect((await call(other, 'GET', '/api/users/mine', { token: t })).status).toBe(403);
        expect((await call(other, 'GET', '/api/users?username=mine', { token: t })).body.items).toEqual([]);
        expect((await call(other, 'GET', '/api/nodes', { token: t })).status).toBe(403);
      } finally {
        await other.close();
      }
    });

    it('with a limited service set: reports it, lists only its services and silently cuts the others from users', async () => {
      const reseller = await startFakeMarzneshin({ sudo: false, adminServiceIds: [2] });
      try {
        const t = await login(reseller, '/api/admins/token');
        expect((await call(reseller, 'GET', '/api/admins/current', { token: t })).body).toMatchObject({
          username: 'admin',
          is_sudo: false,
          enabled: true,
          all_services_access: false,
          modify_users_access: true,
          service_ids: [2],
        });
        expect((await call(reseller, 'GET', '/api/services?page=1&size=100', { token: t })).body.items.map((s: { id: number }) => s.id)).toEqual([2]);
        const created = await call(reseller, 'POST', '/api/users', { token: t, json: { username: 'cut_user', expire_strategy: 'never', service_ids: [1] } });
        expect([created.status, created.body.service_ids]).toEqual([200, []]);
        const both = await call(reseller, 'PUT', '/api/users/cut_user', {
          token: t,
          json: { username: 'cut_user', usage_duration: null, service_ids: [1, 2] },
        });
        expect([both.status, both.body.service_ids]).toEqual([200, [2]]);
      } finally {
        await reseller.close();
      }
    });

    it('with all_services_access: every service, whatever its own service_ids', async () => {
      const broad = await startFakeMarzneshin({ sudo: false, adminServiceIds: [], allServicesAccess: true });
      try {
        const t = await login(broad, '/api/admins/token');
        expect((await call(broad, 'GET', '/api/admins/current', { token: t })).body).toMatchObject({ all_services_access: true, service_ids: [] });
        expect((await call(broad, 'GET', '/api/services', { token: t })).body.items).toHaveLength(2);
        const created = await call(broad, 'POST', '/api/users', { token: t, json: { username: 'all_user', expire_strategy: 'never', service_ids: [1] } });
        expect(created.body.service_ids).toEqual([1]);
      } finally {
        await broad.close();
      }
    });

    it('without modify_users_access: creates and reads its users, but every change is 403 "You\'re not allowed"', async () => {
      const readOnly = await startFakeMarzneshin({ sudo: false, modifyUsersAccess: false });
      try {
        const t = await login(readOnly, '/api/admins/token');
        expect((await call(readOnly, 'GET', '/api/admins/current', { token: t })).body.modify_users_access).toBe(false);
        expect((await call(readOnly, 'POST', '/api/users', { token: t, json: { username: 'ro_user', expire_strategy: 'never' } })).status).toBe(200);
        expect((await call(readOnly, 'GET', '/api/users/ro_user', { token: t })).status).toBe(200);
        for (const [method, path] of [
          ['PUT', '/api/users/ro_user'],
          ['DELETE', '/api/users/ro_user'],
          ['POST', '/api/users/ro_user/disable'],
          ['POST', '/api/users/ro_user/reset'],
        ]) {
          const res = await call(readOnly, method!, path!, { token: t, json: method === 'PUT' ? { username: 'ro_user', usage_duration: null } : undefined });
          expect([res.status, res.text], `${method} ${path}`).toEqual([403, `{"detail":"You're not allowed"}`]);
        }
        expect(readOnly.users.has('ro_user')).toBe(true);
      } finally {
        await readOnly.close();
      }
    });
  });
});
