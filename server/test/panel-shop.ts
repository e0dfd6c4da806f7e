import type { LightMyRequestResponse } from 'fastify';
import { createMarzneshinDriver } from '../src/panels/marzneshin.js';
import type { TestEnvironment } from './environment.js';
import { startFakeMarzneshin, type FakeMarzneshin } from './fake-panels/marzneshin.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from './test-app.js';

const GB = 1024 ** 3;

export interface PanelShop {
  t: TestApp;
  panel: FakeMarzneshin;
  admin: WebSession;
  serverId: string;
  /** A free plan: 1 GB for 30 days, every location. */
  freePlanId: string;
  /** A request as `session` (the admin unless given; null = signed out), from the site's own origin. */
  call(method: string, url: string, session?: WebSession | null, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The app with a fake Marzneshin that the admin (admin@example.com) added through the API as
 * "Germany", and a free plan to claim accounts from.
 */
export async function startPanelShop(env: TestEnvironment): Promise<PanelShop> {
  const panel = await startFakeMarzneshin();
  const t = await buildTestApp({
    db: env.database.db,
    smtp: env.smtp,
    env: { ADMIN_EMAILS: 'admin@example.com' },
    overrides: { driverFactory: (_kind, connection) => createMarzneshinDriver(connection, { timeoutMs: 500 }) },
  });
  const admin = await signInWeb(t, env.smtp, 'admin@example.com');
  const call: PanelShop['call'] = (method, url, session = admin, payload, headers = {}) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { origin: TEST_ORIGIN, ...(session ? { cookie: session.cookie } : {}), ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const server = await call('POST', '/api/admin/servers', admin, {
    kind: 'marzneshin',
    name: 'Germany',
    publicName: 'Germany',
    url: panel.url,
    username: panel.admin.username,
    password: panel.admin.password,
    serviceId: '1',
    locations: 'all',
  });
  if (server.statusCode !== 201) throw new Error(`adding the server failed: ${server.body}`);
  const plan = await call('POST', '/api/admin/plans', admin, { name: 'Free', days: 30, dataLimitBytes: GB, price: 0, locations: 'all' });
  if (plan.statusCode !== 201) throw new Error(`adding the plan failed: ${plan.body}`);
  return {
    t,
    panel,
    admin,
    call,
    serverId: server.json().id,
    freePlanId: plan.json().id,
    close: async () => {
      await t.app.close();
      await panel.close();
    },
  };
}
