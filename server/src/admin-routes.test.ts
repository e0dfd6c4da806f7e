import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../test/databases.js';
import { useTestEnvironment } from '../test/environment.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../test/fake-panels/marzneshin.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../test/test-app.js';

interface Route {
  method: string;
  url: string;
}

describe.each(TEST_DATABASES)('every admin route (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let panel: FakeMarzneshin;
  let admin: DesktopSession;
  let user: DesktopSession;
  const registered: Route[] = [];
  let serverId = '';
  let planId = '';

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
    user = await signInDesktop(t, env.smtp, 'user@example.com');
    const server = await t.app.inject({
      method: 'POST',
      url: '/api/admin/servers',
      headers: bearer(admin.accessToken),
      payload: {
        kind: 'marzneshin',
        name: 'DE',
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
    });
    serverId = server.json().id;
    planId = (
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/plans',
        headers: bearer(admin.accessToken),
        payload: { name: 'P', days: 1, dataLimitBytes: 1024 ** 3, price: 0 },
      })
    ).json().id;
  });
  afterAll(async () => {
    await t.app.close();
    await panel.close();
  });

  /** Every admin route the app registered (so a route added later is walked too), ids filled in. */
  function adminRoutes(): Route[] {
    return registered
      .filter((route) => route.url.startsWith('/api/admin/') && route.method !== 'HEAD')
      .map((route) => ({ method: route.method, url: route.url.replace(':id', route.url.includes('/plans') ? planId : serverId) }));
  }

  it('finds the admin routes of every area', () => {
    const areas = new Set(adminRoutes().map((r) => r.url.split('/')[3]));
    expect([...areas].sort()).toEqual([
      'accounts',
      'add-ons',
      'audit',
      'gift-codes',
      'logs',
      'overview',
      'payments',
      'plans',
      'promo-codes',
      'referrals',
      'servers',
      'settings',
      'setup',
      'staff',
      'subscriptions',
      'system',
      'telegram',
      'transactions',
      'users',
    ]);
    expect(adminRoutes().length).toBeGreaterThanOrEqual(20);
  });

  it('answers 401 signed out and 403 to a user on each, changing nothing', async () => {
    const before = await env.database.db('audit_log').count({ n: '*' });
    for (const route of adminRoutes()) {
      const signedOut = await t.app.inject({ method: route.method as 'GET', url: route.url, payload: {} });
      expect(signedOut.statusCode, `${route.method} ${route.url}`).toBe(401);
      const asUser = await t.app.inject({ method: route.method as 'GET', url: route.url, headers: bearer(user.accessToken), payload: {} });
      expect(asUser.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(asUser.json().code).toBe('forbidden');
    }
    expect(await env.database.db('audit_log').count({ n: '*' })).toEqual(before);
  });

  it('never answers an admin with the panel password or a panel token', async () => {
    const bodies: string[] = [];
    for (const route of adminRoutes().filter((r) => r.method === 'GET')) {
      const res = await t.app.inject({ method: 'GET', url: route.url, headers: bearer(admin.accessToken) });
      expect(res.statusCode, route.url).toBeLessThan(500);
      bodies.push(res.body);
    }
    const panelTokens = panel.requests.map((r) => String(r.headers.authorization ?? '').replace(/^Bearer /, '')).filter(Boolean);
    const all = bodies.join('\n');
    expect(all).not.toContain(panel.admin.password);
    for (const token of new Set(panelTokens)) expect(all).not.toContain(token);
    expect(all).not.toMatch(/password_encrypted|access_token/);
  });
});
