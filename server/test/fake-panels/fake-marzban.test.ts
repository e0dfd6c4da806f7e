import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asMarzbanUser, startFakeMarzban } from './marzban.js';
import { call, fromBase64, login } from './test-client.js';
import type { FakePanel } from './types.js';

const ALL = {
  proxies: { vless: {}, vmess: {}, trojan: {}, shadowsocks: {} },
  inbounds: { vless: ['VLESS TCP TLS'], vmess: ['VMess Websocket'], trojan: ['Trojan TCP TLS'], shadowsocks: ['Shadowsocks TCP'] },
};
const inAYear = () => Math.floor(Date.now() / 1000) + 365 * 86400;

describe('fake Marzban panel', () => {
  let panel: FakePanel;
  let token: string;
  const api = (method: string, path: string, json?: unknown) => call(panel, method, path, { token, json });
  const create = (username: string, extra: Record<string, unknown> = {}) => api('POST', '/api/user', { username, ...ALL, ...extra });

  beforeEach(async () => {
    panel = await startFakeMarzban();
    token = await login(panel, '/api/admin/token');
  });
  afterEach(async () => {
    await panel.close();
  });

  describe('users', () => {
    it('lists the inbounds by protocol', async () => {
      const inbounds = (await api('GET', '/api/inbounds')).body;
      expect(Object.keys(inbounds)).toEqual(['vless', 'vmess', 'trojan', 'shadowsocks']);
      expect(inbounds.shadowsocks).toEqual([{ tag: 'Shadowsocks TCP', protocol: 'shadowsocks', network: 'tcp', tls: 'none', port: 1080 }]);
    });

    it('creates a user with proxies and inbounds: status, unix expire, links, a relative subscription URL', async () => {
      const expire = inAYear();
      const reply = await create('User.Name@x', { expire, data_limit: 1000, note: 'order 7' });
      expect(reply.status).toBe(200);
      const user = reply.body;
      expect(user).toMatchObject({ username: 'User.Name@x', status: 'active', expire, data_limit: 1000, used_traffic: 0, note: 'order 7', next_plan: null });
      expect(user.proxies.vless).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), flow: '' });
      expect(user.proxies.shadowsocks.method).toBe('chacha20-ietf-poly1305');
      expect(user.links).toHaveLength(4);
      expect(user.links.map((l: string) => l.split(':')[0])).toEqual(['vless', 'vmess', 'trojan', 'ss']);
      expect(user.subscription_url).toMatch(/^\/sub\/[A-Za-z0-9_-]+$/);
      expect(user.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/);
    });

    it('keeps the case of names and validates them', async () => {
      expect((await create('Cust_1')).status).toBe(200);
      expect((await create('cust_1')).status).toBe(200);
      const dup = await create('Cust_1');
      expect([dup.status, dup.text]).toEqual([409, '{"detail":"User already exists"}']);
      for (const bad of ['ab', 'a.b', 'has space', 'x'.repeat(33)]) {
        const reply = await create(bad);
        expect(reply.status).toBe(422);
        expect(reply.body.detail.username).toMatch(/^Value error, Username only can be 3 to 32 characters/);
      }
    });

    it('excludes a user created without inbounds from every inbound (links: [])', async () => {
      const user = (await api('POST', '/api/user', { username: 'no_inbounds', proxies: { vless: {} } })).body;
      expect(user.links).toEqual([]);
      expect(user.inbounds).toEqual({ vless: [] });
      expect(user.excluded_inbounds).toEqual({ vless: ['VLESS TCP TLS'] });
    });

    it('answers 500 to a create without proxies but saves the user, which then reads back as 500 too', async () => {
      const reply = await api('POST', '/api/user', { username: 'no_proxies', inbounds: ALL.inbounds });
      expect([reply.status, reply.contentType, reply.text]).toEqual([500, 'text/plain; charset=utf-8', 'Internal Server Error']);
      expect(panel.users.has('no_proxies')).toBe(true);
      const read = await api('GET', '/api/user/no_proxies');
      expect([read.status, read.text]).toEqual([500, 'Internal Server Error']);
      expect((await create('no_proxies')).status).toBe(409);
      expect((await api('DELETE', '/api/user/no_proxies')).status).toBe(200);
    });

    it('refuses a disabled protocol with 400', async () => {
      const limited = await startFakeMarzban({ protocols: ['vmess', 'trojan'] });
      try {
        const t = await login(limited, '/api/admin/token');
        expect(Object.keys((await call(limited, 'GET', '/api/inbounds', { token: t })).body)).toEqual(['vmess', 'trojan']);
        const reply = await call(limited, 'POST', '/api/user', { token: t, json: { username: 'user_1', proxies: { vless: {} } } });
        expect([reply.status, reply.text]).toEqual([400, '{"detail":"Protocol ProxyTypes.VLESS is disabled on your server"}']);
        expect(limited.users.size).toBe(0);
      } finally {
        await limited.close();
      }
    });

    it('validates inbound tags and on_hold', async () => {
      const badTag = await create('user_tag', { inbounds: { vless: ['Nope'] } });
      expect(badTag.body).toEqual({ detail: { inbounds: "Value error, Inbound Nope doesn't exist" } });
      const hold = await create('user_hold', { status: 'on_hold' });
      expect(hold.body.detail.status).toMatch(/on_hold_expire_duration/);
      const ok = await create('user_hold', { status: 'on_hold', on_hold_expire_duration: 86400 });
      expect(ok.body).toMatchObject({ status: 'on_hold', expire: null, on_hold_expire_duration: 86400 });
    });

    it('gives a new subscription token on every GET, all valid until revoked', async () => {
      const created = (await create('user_sub')).body.subscription_url as string;
      const first = (await api('GET', '/api/user/user_sub')).body.subscription_url as string;
      const second = (await api('GET', '/api/user/user_sub')).body.subscription_url as string;
      expect(new Set([created, first, second]).size).toBe(3);
      for (const url of [created, first, second]) expect((await call(panel, 'GET', url)).status).toBe(200);
      const revoked = (await api('POST', '/api/user/user_sub/revoke_sub')).body;
      for (const url of [created, first, second]) {
        const reply = await call(panel, 'GET', url);
        expect([reply.status, reply.text]).toEqual([404, '{"detail":"Not Found"}']);
      }
      expect((await call(panel, 'GET', revoked.subscription_url)).status).toBe(200);
      expect((await call(panel, 'GET', `${first.slice(0, -3)}xyz`)).status).toBe(404);
    });

    it('modifies only non-null fields, and a PUT without next_plan deletes it', async () => {
      await create('user_mod', { expire: inAYear(), data_limit: 1000, note: 'keep', next_plan: { data_limit: 5000, expire: 0 } });
      expect(asMarzbanUser(panel.users.get('user_mod')).next_plan).toMatchObject({ data_limit: 5000 });
      const reply = await api('PUT', '/api/user/user_mod', { data_limit: 2000, expire: null, note: null });
      expect(reply.body).toMatchObject({ data_limit: 2000, note: 'keep', status: 'active', next_plan: null });
      expect(reply.body.expire).toBeGreaterThan(Date.now() / 1000);
    });

    it('makes a limited or expired user active again when the limit or expiry is raised', async () => {
      await create('user_lim', { expire: inAYear(), data_limit: 1000 });
      asMarzbanUser(panel.users.get('user_lim')).used_traffic = 1500;
      expect((await api('GET', '/api/user/user_lim')).body.status).toBe('limited');
      expect((await api('PUT', '/api/user/user_lim', { data_limit: 5000 })).body.status).toBe('active');

      const expired = await api('PUT', '/api/user/user_lim', { expire: Math.floor(Date.now() / 1000) - 60 });
      expect(expired.body.status).toBe('expired');
      expect((await api('PUT', '/api/user/user_lim', { expire: inAYear() })).body.status).toBe('active');
      expect((await api('PUT', '/api/user/user_lim', { status: 'disabled' })).body.status).toBe('disabled');
      expect((await api('PUT', '/api/user/user_lim', { status: 'active' })).body.status).toBe('active');
      expect((await api('PUT', '/api/user/user_lim', { status: 'limited' })).status).toBe(422);
    });

    it('resets usage, deletes with a detail and then answers 404', async () => {
      await create('user_del', { data_limit: 100 });
      asMarzbanUser(panel.users.get('user_del')).used_traffic = 100;
      expect((await api('POST', '/api/user/user_del/reset')).body).toMatchObject({ used_traffic: 0, status: 'active' });
      const deleted = await api('DELETE', '/api/user/user_del');
      expect([deleted.status, deleted.text]).toEqual([200, '{"detail":"User successfully deleted"}']);
      const again = await api('GET', '/api/user/user_del');
      expect([again.status, again.text]).toEqual([404, '{"detail":"User not found"}']);
      expect((await api('DELETE', '/api/user/user_del')).status).toBe(404);
    });

    it('lists with offset, limit, search and status', async () => {
      for (const name of ['alpha', 'alpine', 'beta']) await create(name, { note: name === 'beta' ? 'alp note' : null });
      await api('PUT', '/api/user/beta', { status: 'disabled' });
      const all = (await api('GET', '/api/users')).body;
      expect(all.total).toBe(3);
      expect(all.users.map((u: { username: string }) => u.username)).toEqual(['alpha', 'alpine', 'beta']);
      const page = (await api('GET', '/api/users?offset=1&limit=1')).body;
      expect([page.total, page.users.map((u: { username: string }) => u.username)]).toEqual([3, ['alpine']]);
      expect((await api('GET', '/api/users?search=alp')).body.total).toBe(3);
      expect((await api('GET', '/api/users?status=disabled')).body.users.map((u: { username: string }) => u.username)).toEqual(['beta']);
      expect((await api('GET', '/api/users?status=nope')).status).toBe(422);
    });

    it('answers 403 to a non-sudo admin for a user it does not own, 404 first for a missing one', async () => {
      const other = await startFakeMarzban({ sudo: false });
      try {
        const t = await login(other, '/api/admin/token');
        expect((await call(other, 'GET', '/api/user/nobody', { token: t })).status).toBe(404);
        await call(other, 'POST', '/api/user', { token: t, json: { username: 'mine', ...ALL } });
        asMarzbanUser(other.users.get('mine')).admin = 'someone_else';
        const reply = await call(other, 'GET', '/api/user/mine', { token: t });
        expect([reply.status, reply.text]).toEqual([403, `{"detail":"You're not allowed"}`]);
        expect((await call(other, 'GET', '/api/users', { token: t })).body).toEqual({ users: [], total: 0 });
      } finally {
        await other.close();
      }
    });
  });

  describe('subscription', () => {
    let url: string;
    let expire: number;
    beforeEach(async () => {
      expire = inAYear();
      url = (await create('sub_user', { expire, data_limit: 1000 })).body.subscription_url;
      asMarzbanUser(panel.users.get('sub_user')).used_traffic = 300;
    });
    const get = (path: string, headers: Record<string, string> = {}) => call(panel, 'GET', path, { headers });

    it('serves base64 links by default (with or without the trailing slash), with the headers', async () => {
      for (const path of [url, `${url}/`]) {
        const reply = await get(path, { 'user-agent': 'v2rayN/6.45' });
        expect(reply.contentType).toBe('text/plain; charset=utf-8');
        expect(fromBase64(reply.text).split('\n')).toHaveLength(4);
        expect(reply.headers.get('subscription-userinfo')).toBe(`upload=0; download=300; total=1000; expire=${expire}`);
        expect(reply.headers.get('profile-title')).toBe(`base64:${Buffer.from('Subscription').toString('base64')}`);
        expect(reply.headers.get('profile-update-interval')).toBe('12');
        expect(reply.headers.get('support-url')).toBe('https://t.me/');
        expect(reply.headers.get('content-disposition')).toBe('attachment; filename="sub_user"');
      }
    });

    it('chooses the format from the User-Agent or the path', async () => {
      expect((await get(url, { 'user-agent': 'ClashMeta/1.18' })).text).toContain('type: vless');
      expect((await get(url, { 'user-agent': 'clash.meta' })).contentType).toBe('text/yaml; charset=utf-8');
      expect((await get(url, { 'user-agent': 'SFI/1.9' })).body.outbounds.map((o: { type: string }) => o.type)).toEqual([
        'selector',
        'vless',
        'vmess',
        'trojan',
        'shadowsocks',
        'direct',
      ]);
      expect((await get(url, { 'user-agent': 'Outline/1.0' })).body).toMatchObject({ server: 'nl1.example.test', server_port: 1080 });
      expect((await get(url, { accept: 'text/html' })).contentType).toBe('text/html; charset=utf-8');
      expect((await get(`${url}/clash`)).text).toContain('type: ss');
      expect((await get(`${url}/sing-box`)).contentType).toBe('application/json');
      expect((await get(`${url}/v2ray-json`)).body).toHaveLength(4);
      expect(fromBase64((await get(`${url}/v2ray`)).text)).toContain('trojan://');
      expect((await get(`${url}/links`)).status).toBe(422);
    });

    it('serves info without admin, note and inbounds, and usage', async () => {
      const info = (await get(`${url}/info`)).body;
      expect(info).toMatchObject({ username: 'sub_user', status: 'active', used_traffic: 300 });
      for (const hidden of ['admin', 'note', 'inbounds', 'excluded_inbounds']) expect(info).not.toHaveProperty(hidden);
      expect((await get(`${url}/usage`)).body).toMatchObject({ username: 'sub_user', usages: [{ used_traffic: 300 }] });
    });

    it('refuses a token of a deleted and re-created user', async () => {
      await api('DELETE', '/api/user/sub_user');
      expect((await get(url)).status).toBe(404);
      await create('sub_user');
      expect((await get(url)).status).toBe(404);
    });
  });
});
