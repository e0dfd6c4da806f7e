import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../test/databases.js';
import { useTestEnvironment } from '../../test/environment.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../../test/fake-panels/marzneshin.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../test/test-app.js';
import { checkBody, findNul, MAX_BODY_DEPTH, NUL_MESSAGE, TOO_DEEP_MESSAGE } from './nul-characters.js';

interface Route {
  method: string;
  url: string;
}

describe('finding a NUL in a parsed body', () => {
  it('names the path of the first string or key that holds one', () => {
    expect(findNul({ a: 'ok', b: { c: ['x', 'y\u0000'] } })).toBe('b.c.1');
    expect(findNul({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(findNul('\u0000')).toBe('_');
    expect(findNul({ a: 'fine', n: 1, t: true, z: null })).toBeUndefined();
    expect(findNul(Buffer.from([0]))).toBeUndefined();
  });

  it('walks a body nested thousands of levels deep without overflowing the stack, and names it too deep', () => {
    const deep = JSON.parse('['.repeat(30_000) + ']'.repeat(30_000)) as unknown;
    expect(() => findNul(deep)).not.toThrow();
    expect(findNul(deep)).toBeUndefined();
    expect(checkBody(deep)).toEqual({ tooDeep: true });
    const nested = (levels: number) => JSON.parse('{"a":'.repeat(levels - 1) + '["x"]' + '}'.repeat(levels - 1)) as unknown;
    expect(checkBody(nested(MAX_BODY_DEPTH))).toBeUndefined();
    expect(checkBody(nested(MAX_BODY_DEPTH + 1))).toEqual({ tooDeep: true });
  });
});

describe.each(TEST_DATABASES)('a NUL character in any request (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let panel: FakeMarzneshin;
  let admin: DesktopSession;
  const registered: Route[] = [];

  beforeAll(async () => {
    panel = await startFakeMarzneshin();
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com' },
      overrides: { onRoute: ({ method, url }) => [method].flat().forEach((m) => registered.push({ method: m, url })) },
    });
    await t.app.ready();
    admin = await signInDesktop(t, env.smtp, 'admin@example.com');
  });
  afterAll(async () => {
    await t.app.close();
    await panel.close();
  });

  const rows = async () => {
    const counts: number[] = [];
    for (const table of ['user_profiles', 'plans', 'vpn_accounts', 'masterservers', 'transactions', 'audit_log', 'settings']) {
      counts.push(Number((await env.database.db(table).count({ n: '*' }))[0]!.n));
    }
    return counts;
  };

  it('answers 400 for %00 in any path id, on every route, and writes nothing', async () => {
    const before = await rows();
    const withIds = registered.filter((route) => route.url.includes(':') && route.method !== 'HEAD');
    expect(withIds.length).toBeGreaterThan(20);
    for (const route of withIds) {
      const url = route.url.replace(/:[A-Za-z]+/g, 'a%00b');
      const res = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: bearer(admin.accessToken),
        payload: route.method === 'GET' ? undefined : {},
      });
      expect(res.statusCode, `${route.method} ${url}`).toBe(400);
      expect(res.json()).toEqual({ code: 'validation_failed', message: NUL_MESSAGE });
    }
    expect(await rows()).toEqual(before);
  });

  it('answers 400 for \\u0000 in any JSON body or query string, naming the field, before any route runs', async () => {
    const before = await rows();
    const cases: Array<[string, string, unknown?]> = [
      ['POST', '/api/accounts', { planId: 'a\u0000' }],
      ['POST', '/api/admin/plans', { name: 'Plan\u0000', days: 30, dataLimitBytes: 1024 ** 3, price: 0 }],
      ['PUT', '/api/admin/settings', { brandName: 'Brand\u0000' }],
      ['POST', '/api/admin/transactions/some-id/refund', { note: 'oops\u0000' }],
      ['POST', '/api/admin/servers', { kind: 'marzneshin', name: 'x', url: panel.url, username: 'a\u0000', password: 'p', serviceId: '1' }],
      ['POST', '/api/auth/otp', { email: 'a\u0000@example.com' }],
      ['POST', '/api/checkout', { planId: 'p', nested: { list: ['ok', 'bad\u0000'] } }],
    ];
    for (const [method, url, payload] of cases) {
      const res = await t.app.inject({ method: method as 'POST', url, headers: bearer(admin.accessToken), payload: payload as object });
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(Object.values(res.json().fields)).toEqual([NUL_MESSAGE]);
    }
    for (const url of ['/api/admin/users?q=%00', '/api/admin/users?q=a%00b', '/api/checkout/%00', '/sub/%00', '/%00']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(admin.accessToken) });
      expect(res.statusCode, url).toBe(400);
    }
    expect(await rows()).toEqual(before);
    // The panel was never asked (the server's credential test would have called it).
    expect(panel.requests).toHaveLength(0);
  });

  it('answers 400 invalid_body, not 500, for a JSON body nested thousands of levels deep, signed in or not', async () => {
    const deep = '['.repeat(8000) + ']'.repeat(8000);
    const cases: Array<[string, Record<string, string>]> = [
      ['/api/auth/otp', {}],
      ['/api/auth/verify', {}],
      ['/api/checkout', bearer(admin.accessToken)],
      ['/api/admin/plans', bearer(admin.accessToken)],
    ];
    for (const [url, headers] of cases) {
      const res = await t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: deep });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ code: 'invalid_body', message: TOO_DEEP_MESSAGE });
    }
    const inRussian = await t.app.inject({
      method: 'POST',
      url: '/api/auth/otp',
      headers: { 'content-type': 'application/json', 'accept-language': 'ru' },
      payload: deep,
    });
    expect(inRussian.json()).toEqual({ code: 'invalid_body', message: expect.not.stringContaining('deeper') });
    // A body within the limit goes on to the route's own checks.
    const shallow = await t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email: [[['a@example.com']]] } });
    expect(shallow.json().code).toBe('validation_failed');
  });

  it('still takes ordinary text, escapes and all', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/plans',
      headers: bearer(admin.accessToken),
      payload: { name: 'Plan \\u0000 «ok» %00', days: 30, dataLimitBytes: 1024 ** 3, price: 0 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('Plan \\u0000 «ok» %00');
  });
});
