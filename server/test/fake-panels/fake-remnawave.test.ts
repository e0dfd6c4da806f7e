import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeRemnawave, type FakeRemnawave } from './remnawave.js';

const FORWARDED = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };
const DAY = 86_400_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON (undefined when not JSON); `any` so tests read panel fields directly. */
  body: any;
}

describe('fake Remnawave 3.x panel', () => {
  let panel: FakeRemnawave;

  async function send(path: string, init: { method?: string; token?: string | null; json?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...FORWARDED, ...init.headers };
    const token = init.token === undefined ? panel.apiToken : init.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${panel.url}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, text, body };
  }
  const create = (username: string, extra: Record<string, unknown> = {}) =>
    send('/api/users', {
      method: 'POST',
      json: { username, expireAt: new Date(Date.now() + 30 * DAY).toISOString(), activeInternalSquads: [panel.squads[0]!.uuid], ...extra },
    });

  beforeEach(async () => {
    panel = await startFakeRemnawave();
  });
  afterEach(async () => {
    await panel.close();
  });

  describe('the reverse-proxy check', () => {
    it('destroys the connection of a request without X-Forwarded-For or with X-Forwarded-Proto other than https', async () => {
      const bare = { authorization: `Bearer ${panel.apiToken}` };
      for (const headers of [bare, { ...bare, 'x-forwarded-proto': 'https' }, { ...bare, 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'http' }]) {
        const err = await fetch(`${panel.url}/api/users`, { headers }).then(
          () => null,
          (e: unknown) => e as { cause?: { code?: string } },
        );
        expect(err?.cause?.code).toBe('UND_ERR_SOCKET');
      }
      expect((await send('/api/users')).status).toBe(200);
    });

    it('checks nothing in development mode, and drops everything behind a plain-http proxy', async () => {
      panel.devMode = true;
      expect((await fetch(`${panel.url}/api/users`, { headers: { authorization: `Bearer ${panel.apiToken}` } })).status).toBe(200);
      panel.devMode = false;
      panel.frontProxy = 'plain-http';
      await expect(send('/api/users')).rejects.toThrow();
    });

    it('checks before routing: an unknown route is dropped too', async () => {
      await expect(fetch(`${panel.url}/api/nope`)).rejects.toThrow();
      expect(await send('/api/nope')).toMatchObject({ status: 404, body: { message: 'Cannot GET /api/nope', error: 'Not Found', statusCode: 404 } });
    });
  });

  describe('API tokens', () => {
    it("answers a missing or forged token 401 with Nest's plain body", async () => {
      for (const token of [null, 'not-a-jwt', `${panel.apiToken}x`]) {
        const reply = await send('/api/users', { token });
        expect(reply.status).toBe(401);
        expect(reply.body).toEqual({ message: 'Unauthorized', statusCode: 401 });
      }
    });

    it('answers a deleted token, and a token without the scope, 403 "Forbidden resource"', async () => {
      const readOnly = panel.issueApiToken(['users:read']);
      expect((await send('/api/users', { token: readOnly })).status).toBe(200);
      const refused = await send('/api/internal-squads', { token: readOnly });
      expect(refused).toMatchObject({ status: 403, body: { message: 'Forbidden resource', error: 'Forbidden', statusCode: 403 } });
      expect((await create('scoped_user', {}).then(() => send('/api/users', { method: 'POST', token: readOnly, json: {} }))).status).toBe(403);
      const byEndpoint = panel.issueApiToken(['users:by-username']);
      expect((await send('/api/users/by-username/scoped_user', { token: byEndpoint })).status).toBe(200);
      expect((await send('/api/users', { token: byEndpoint })).status).toBe(403);
      panel.deleteApiToken(readOnly);
      expect((await send('/api/users', { token: readOnly })).body.message).toBe('Forbidden resource');
    });

    it("refuses the dashboard's admin session JWT: the API wants an API token", async () => {
      const reply = await send('/api/users', { token: panel.adminSessionToken });
      expect(reply.status).toBe(403);
      expect(reply.body.message).toBe('For API requests you must create own API-token in the admin dashboard.');
    });
  });

  describe('users', () => {
    it('creates a user: 201, the {response} envelope, numeric id, https-less test subscription URL, nested traffic', async () => {
      const expireAt = '2030-01-31T12:00:00.000Z';
      const reply = await create('User-K3x_9', { expireAt, trafficLimitBytes: 50 * 1024 ** 3, description: 'order 42', hwidDeviceLimit: 0 });
      expect(reply.status).toBe(201);
      expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const user = reply.body.response;
      expect(Object.keys(user)).toEqual([
        'id',
        'shortUuid',
        'username',
        'status',
        'trafficLimitBytes',
        'trafficLimitStrategy',
        'expireAt',
        'telegramId',
        'email',
        'description',
        'tag',
        'hwidDeviceLimit',
        'externalSquadUuid',
        'trojanPassword',
        'vlessUuid',
        'ssPassword',
        'lastTriggeredThreshold',
        'subRevokedAt',
        'lastTrafficResetAt',
        'createdAt',
        'updatedAt',
        'subscriptionUrl',
        'activeInternalSquads',
        'userTraffic',
      ]);
      expect(user).toMatchObject({
        id: 1,
        username: 'User-K3x_9',
        status: 'ACTIVE',
        trafficLimitBytes: 50 * 1024 ** 3,
        trafficLimitStrategy: 'NO_RESET',
        expireAt,
        description: 'order 42',
        hwidDeviceLimit: 0,
        activeInternalSquads: [{ uuid: panel.squads[0]!.uuid, name: 'Default-Squad' }],
        userTraffic: { usedTrafficBytes: 0, lifetimeUsedTrafficBytes: 0, onlineAt: null, lastConnectedNodeUuid: null, firstConnectedAt: null },
      });
      expect(user.createdAt).toMatch(ISO);
      expect(user.subscriptionUrl).toBe(`${panel.url}/api/sub/${user.shortUuid}`);
      expect(user).not.toHaveProperty('uuid');
    });

    it('builds https://<SUB_PUBLIC_DOMAIN>/<shortUuid> when given the domain, like the panel', async () => {
      const other = await startFakeRemnawave({ subPublicDomain: 'sub.example.test' });
      const reply = await fetch(`${other.url}/api/users`, {
        method: 'POST',
        headers: { ...FORWARDED, authorization: `Bearer ${other.apiToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'domain_user', expireAt: '2030-01-01T00:00:00Z' }),
      }).then((res) => res.json() as Promise<any>);
      expect(reply.response.subscriptionUrl).toBe(`https://sub.example.test/${reply.response.shortUuid}`);
      await other.close();
    });

    it('validates with zod issues in a 400 "Validation failed", and stores nothing', async () => {
      const hyphenated = await create('bad name!');
      expect(hyphenated.status).toBe(400);
      expect(hyphenated.body).toMatchObject({ statusCode: 400, message: 'Validation failed' });
      expect(hyphenated.body.errors).toEqual([
        expect.objectContaining({ code: 'invalid_format', path: ['username'], message: 'Username can only contain letters, numbers, underscores and dashes' }),
      ]);
      expect((await create('ab')).body.errors[0]).toMatchObject({ code: 'too_small', message: 'Username must be at least 3 characters' });
      expect((await create('a'.repeat(37))).body.errors[0].message).toBe('Username must be less than 36 characters');
      const noExpiry = await send('/api/users', { method: 'POST', json: { username: 'no_expiry' } });
      expect(noExpiry.body.errors).toEqual([expect.objectContaining({ path: ['expireAt'], code: 'invalid_type' })]);
      expect(panel.users.size).toBe(0);
    });

    it('answers a taken username 400 with errorCode A019, case-sensitively', async () => {
      expect((await create('cust_1')).status).toBe(201);
      const again = await create('cust_1');
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ timestamp: expect.stringMatching(ISO), path: '/api/users', message: 'User username already exists', errorCode: 'A019' });
      expect((await create('CUST_1')).status).toBe(201);
    });

    it('fails the whole create with 500 A018 for an unknown squad, leaving no user', async () => {
      const reply = await create('squadless', { activeInternalSquads: ['00000000-0000-4000-8000-000000000001'] });
      expect(reply.status).toBe(500);
      expect(reply.body).toMatchObject({ message: 'Failed to create user', errorCode: 'A018' });
      expect(panel.users.has('squadless')).toBe(false);
    });

    it('reads by username (404 A063 when missing) and by numeric id (400 for a non-number)', async () => {
      const id = (await create('reader')).body.response.id;
      expect((await send('/api/users/by-username/reader')).body.response.id).toBe(id);
      const missing = await send('/api/users/by-username/nobody');
      expect(missing).toMatchObject({
        status: 404,
        body: { message: 'User with specified params not found', errorCode: 'A063', path: '/api/users/by-username/nobody' },
      });
      expect((await send(`/api/users/${id}`)).body.response.username).toBe('reader');
      const notANumber = await send('/api/users/not-a-number');
      expect(notANumber.status).toBe(400);
      expect(notANumber.body.errors[0].path).toEqual(['userId']);
    });

    it('lists with start/size (at most 1000), newest first by default, oldest first when sorted by id', async () => {
      for (const name of ['u_one', 'u_two', 'u_three']) await create(name);
      const first = await send('/api/users?start=0&size=2');
      expect(first.body.response.total).toBe(3);
      expect(first.body.response.users.map((u: { username: string }) => u.username)).toEqual(['u_three', 'u_two']);
      const sorting = encodeURIComponent(JSON.stringify([{ id: 'id', desc: false }]));
      const ascending = await send(`/api/users?start=2&size=2&sorting=${sorting}`);
      expect(ascending.body.response.users.map((u: { username: string }) => u.username)).toEqual(['u_three']);
      expect((await send('/api/users?size=1001')).body.errors[0].message).toBe('Size (limit) must be less than 1000');
    });

    it('deletes with 204 and no body, then answers 404 A025', async () => {
      const id = (await create('gone_soon')).body.response.id;
      const deleted = await send(`/api/users/${id}`, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      const again = await send(`/api/users/${id}`, { method: 'DELETE' });
      expect(again).toMatchObject({ status: 404, body: { message: 'User not found', errorCode: 'A025' } });
    });

    it('enables and disables through actions, 400 A030 / A029 when already so', async () => {
      const id = (await create('toggler')).body.response.id;
      expect((await send(`/api/users/${id}/actions/enable`, { method: 'POST' })).body).toMatchObject({ errorCode: 'A030', message: 'User already enabled' });
      expect((await send(`/api/users/${id}/actions/disable`, { method: 'POST' })).body.response.status).toBe('DISABLED');
      expect((await send(`/api/users/${id}/actions/disable`, { method: 'POST' })).body).toMatchObject({ errorCode: 'A029' });
      expect((await send(`/api/users/${id}/actions/enable`, { method: 'POST' })).body.response.status).toBe('ACTIVE');
    });

    it('moves status as its review jobs do: past expireAt → EXPIRED, limit reached → LIMITED', async () => {
      await create('expiring', { expireAt: new Date(Date.now() - DAY).toISOString() });
      expect((await send('/api/users/by-username/expiring')).body.response.status).toBe('EXPIRED');
      await create('heavy', { trafficLimitBytes: 1000 });
      panel.users.get('heavy')!.usedTrafficBytes = 1000;
      expect((await send('/api/users/by-username/heavy')).body.response.status).toBe('LIMITED');
      const reset = await send(`/api/users/${panel.users.get('heavy')!.id}/actions/reset-traffic`, { method: 'POST' });
      expect(reset.body.response).toMatchObject({ status: 'ACTIVE', userTraffic: { usedTrafficBytes: 0 } });
    });

    it('PATCH by username: a future expireAt reactivates an EXPIRED user, a past one is refused', async () => {
      await create('lapsed', { expireAt: new Date(Date.now() - DAY).toISOString() });
      const past = await send('/api/users', { method: 'PATCH', json: { username: 'lapsed', expireAt: new Date(Date.now() - 1000).toISOString() } });
      expect(past.status).toBe(400);
      expect(past.body.errors[0].message).toBe('Expiration date cannot be in the past');
      const later = new Date(Date.now() + 10 * DAY).toISOString();
      const renewed = await send('/api/users', { method: 'PATCH', json: { username: 'lapsed', expireAt: later } });
      expect(renewed.body.response).toMatchObject({ status: 'ACTIVE', expireAt: later });
      expect((await send('/api/users', { method: 'PATCH', json: { username: 'nobody', trafficLimitBytes: 1 } })).body.errorCode).toBe('A025');
    });

    it('PATCH status DISABLED leaves a user that is not ACTIVE as it is (only the disable action disables it)', async () => {
      await create('expired_one', { expireAt: new Date(Date.now() - DAY).toISOString() });
      const reply = await send('/api/users', { method: 'PATCH', json: { username: 'expired_one', status: 'DISABLED' } });
      expect(reply.body.response.status).toBe('EXPIRED');
    });

    it('extends by days from now for an EXPIRED user, making it ACTIVE', async () => {
      const id = (await create('extend_me', { expireAt: new Date(Date.now() - 5 * DAY).toISOString() })).body.response.id;
      const reply = await send(`/api/users/${id}/actions/extend`, { method: 'POST', json: { days: 3 } });
      expect(reply.body.response.status).toBe('ACTIVE');
      expect(new Date(reply.body.response.expireAt).getTime()).toBeGreaterThan(Date.now() + 2.9 * DAY);
    });
  });

  describe('squads and system', () => {
    it('lists internal squads with member counts', async () => {
      await create('member');
      const reply = await send('/api/internal-squads');
      expect(reply.body.response.total).toBe(2);
      expect(reply.body.response.internalSquads[0]).toMatchObject({ uuid: panel.squads[0]!.uuid, name: 'Default-Squad', info: { membersCount: 1 } });
    });

    it('reports its version at /api/system/metadata', async () => {
      expect((await send('/api/system/metadata')).body.response.version).toBe('3.3.2');
    });
  });

  describe('public subscription', () => {
    const get = (url: string, headers: Record<string, string> = {}) =>
      fetch(url, { headers: { ...FORWARDED, 'user-agent': 'vpn-storefront/1.0', ...headers } }).then(async (res) => ({ res, text: await res.text() }));

    it('serves base64 links by default and each forced client type, with the squad hosts and never the panel address', async () => {
      const user = (await create('sub_user', { trafficLimitBytes: 2048 })).body.response;
      panel.users.get('sub_user')!.usedTrafficBytes = 100;
      const base = await get(user.subscriptionUrl);
      expect(base.res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const links = Buffer.from(base.text, 'base64').toString('utf8').split('\n');
      expect(links).toEqual([
        expect.stringMatching(/^vless:\/\/.+@de1\.example\.test:443\?.*#DE%20sub_user$/),
        expect.stringMatching(/^trojan:\/\/.+@de2\.example\.test:443/),
      ]);
      const expire = Math.floor(new Date(user.expireAt).getTime() / 1000);
      expect(base.res.headers.get('subscription-userinfo')).toBe(`upload=0; download=100; total=2048; expire=${expire}`);
      expect(base.res.headers.get('content-disposition')).toBe('attachment; filename=sub_user');
      expect(base.res.headers.get('profile-title')).toBe(`base64:${Buffer.from('Remnawave').toString('base64')}`);

      const singbox = await get(`${user.subscriptionUrl}/singbox`);
      expect(singbox.res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(
        JSON.parse(singbox.text)
          .outbounds.map((o: { server?: string }) => o.server)
          .filter(Boolean),
      ).toEqual(['de1.example.test', 'de2.example.test']);
      for (const type of ['mihomo', 'clash']) {
        const yaml = await get(`${user.subscriptionUrl}/${type}`);
        expect(yaml.res.headers.get('content-type')).toBe('text/yaml; charset=utf-8');
        expect(yaml.text).toContain('server: "de1.example.test"');
      }
      for (const text of [Buffer.from(base.text, 'base64').toString('utf8'), singbox.text]) expect(text).not.toContain(new URL(panel.url).host);
    });

    it('picks the format from the User-Agent by the seeded rules, and sends a browser the JSON info', async () => {
      const url = (await create('ua_user')).body.response.subscriptionUrl;
      expect((await get(url, { 'user-agent': 'SFA/1.11.4' })).res.headers.get('content-type')).toContain('application/json');
      expect((await get(url, { 'user-agent': 'clash-verge/v2.0' })).res.headers.get('content-type')).toContain('text/yaml');
      const browser = await get(url, { 'user-agent': 'Mozilla/5.0', accept: 'text/html' });
      expect(JSON.parse(browser.text)).toMatchObject({ isFound: true, user: { username: 'ua_user', userStatus: 'ACTIVE' } });
    });

    it('answers 403 without a User-Agent or for an unknown client type, 404 for an unknown short UUID', async () => {
      const url = (await create('strict_user')).body.response.subscriptionUrl;
      const noAgent = await fetch(url, { headers: { ...FORWARDED, 'user-agent': '' } });
      expect(noAgent.status).toBe(403);
      expect(await noAgent.json()).toEqual({ statusCode: 403, message: 'Forbidden' });
      expect((await get(`${url}/v2ray`)).res.status).toBe(403);
      const unknown = await get(`${panel.url}/api/sub/doesnotexist`);
      expect(unknown.res.status).toBe(404);
      expect(JSON.parse(unknown.text)).toEqual({ isFound: false, statusCode: 404, message: 'Resource not found' });
    });

    it('hands an inactive user remark-only lines to 0.0.0.0:1, still with 200', async () => {
      const user = (await create('off_user')).body.response;
      await send(`/api/users/${user.id}/actions/disable`, { method: 'POST' });
      const base = await get(user.subscriptionUrl);
      expect(base.res.status).toBe(200);
      const links = Buffer.from(base.text, 'base64').toString('utf8').split('\n');
      expect(links.map((link) => decodeURIComponent(link.split('#')[1]!))).toEqual(['🚫 Subscription disabled', 'Contact support']);
      expect(links.every((link) => link.startsWith('vless://00000000-0000-0000-0000-000000000000@0.0.0.0:1?'))).toBe(true);
    });

    it("with the global HWID limit on, refuses a request without x-hwid unless the user's hwidDeviceLimit is 0", async () => {
      panel.hwid = { enabled: true, fallbackDeviceLimit: 1 };
      const limited = (await create('hwid_null')).body.response;
      const refused = await get(limited.subscriptionUrl);
      expect(refused.res.status).toBe(200);
      expect(refused.res.headers.get('x-hwid-not-supported')).toBe('true');
      expect(Buffer.from(refused.text, 'base64').toString('utf8')).toContain('0.0.0.0:1');
      const first = await get(limited.subscriptionUrl, { 'x-hwid': 'device-one-0001' });
      expect(Buffer.from(first.text, 'base64').toString('utf8')).toContain('de1.example.test');
      const second = await get(limited.subscriptionUrl, { 'x-hwid': 'device-two-0002' });
      expect(second.res.headers.get('x-hwid-max-devices-reached')).toBe('true');

      const unlimited = (await create('hwid_zero', { hwidDeviceLimit: 0 })).body.response;
      const served = await get(unlimited.subscriptionUrl);
      expect(served.res.headers.get('x-hwid-not-supported')).toBeNull();
      expect(Buffer.from(served.text, 'base64').toString('utf8')).toContain('de1.example.test');
    });

    it('gives the links through the authenticated /api/subscriptions/by-username', async () => {
      await create('linked');
      const reply = await send('/api/subscriptions/by-username/linked');
      expect(reply.body.response.links).toHaveLength(2);
      expect(reply.body.response.user).toMatchObject({ username: 'linked', isActive: true });
      expect((await send('/api/subscriptions/by-username/nobody')).body.errorCode).toBe('A025');
    });
  });

  describe('faults', () => {
    it('answers a slow create late but has written it already', async () => {
      panel.faults.slowOnce.push({ method: 'POST', pathPrefix: '/api/users', delayMs: 300 });
      const pending = create('slow_user');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(panel.users.has('slow_user')).toBe(true);
      expect((await pending).status).toBe(201);
    });

    it('resets every connection while down', async () => {
      panel.faults.down = true;
      const err = await send('/api/users').then(
        () => null,
        (e: unknown) => e as { cause?: { code?: string } },
      );
      expect(err?.cause?.code).toBe('ECONNRESET');
    });
  });
});
