import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '../../../../shared/servers.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { startFakeMarzban } from '../../../test/fake-panels/marzban.js';
import { startFakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';
import { createMarzbanDriver } from '../../panels/marzban.js';
import type { PanelDriver } from '../../panels/panel-driver.js';

type Fake = Awaited<ReturnType<typeof startFakeMarzneshin>>;

describe.each(TEST_DATABASES)('admin: master servers (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let user: WebSession;
  let marzneshin: Fake;
  let marzban: Fake;
  /** Every response body an admin received in this suite: none may carry a secret. */
  const seen: string[] = [];

  beforeAll(async () => {
    marzneshin = await startFakeMarzneshin();
    marzban = await startFakeMarzban();
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com' },
      overrides: {
        driverFactory: (panelKind, connection) =>
          panelKind === 'marzban' ? createMarzbanDriver(connection, { timeoutMs: 500 }) : createMarzneshinDriver(connection, { timeoutMs: 500 }),
      },
    });
    admin = await signInWeb(t, env.smtp, 'admin@example.com');
    user = await signInWeb(t, env.smtp, 'user@example.com');
  });
  afterAll(async () => {
    await t.app.close();
    await marzneshin.close();
    await marzban.close();
  });

  const call = async (method: string, url: string, payload?: unknown, session: WebSession | null = admin) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { origin: TEST_ORIGIN, ...(session ? { cookie: session.cookie } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    if (session === admin) seen.push(res.body);
    return res;
  };
  const marzneshinBody = (overrides: Record<string, unknown> = {}) => ({
    kind: 'marzneshin',
    name: 'Germany',
    url: marzneshin.url,
    username: marzneshin.admin.username,
    password: marzneshin.admin.password,
    serviceId: '1',
    locations: 'de, nl',
    ...overrides,
  });
  const serverCount = async () => Number((await env.database.db('masterservers').count({ n: '*' }))[0]!.n);

  it('answers 401 signed out and 403 to a user on every server route, and changes nothing', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/servers'],
      ['POST', '/api/admin/servers', marzneshinBody()],
      ['POST', '/api/admin/servers/test', marzneshinBody()],
      ['PATCH', '/api/admin/servers/x', { name: 'y' }],
      ['DELETE', '/api/admin/servers/x'],
      ['POST', '/api/admin/servers/x/enable'],
      ['POST', '/api/admin/servers/x/disable'],
      ['GET', '/api/admin/servers/x/services'],
    ];
    for (const [method, url, payload] of routes) {
      expect((await call(method, url, payload, null)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, payload, user)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await serverCount()).toBe(0);
  });

  it('tests credentials and lists the panel services, or fails with the spec message', async () => {
    const ok = await call('POST', '/api/admin/servers/test', marzneshinBody());
    expect(ok.statusCode).toBe(200);
    expect(ok.json().services).toEqual(expect.arrayContaining([{ id: '1', name: expect.any(String) }]));
    const wrong = await call('POST', '/api/admin/servers/test', marzneshinBody({ password: 'nope' }));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 'connection_test_failed', message: SERVER_MESSAGES.testFailed });
  });

  it('refuses to save a server whose credentials fail, and saves nothing', async () => {
    const res = await call('POST', '/api/admin/servers', marzneshinBody({ password: 'wrong' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Connection test failed. Please check the credentials.');
    marzneshin.faults.down = true;
    const down = await call('POST', '/api/admin/servers', marzneshinBody());
    marzneshin.faults.down = false;
    expect(down.statusCode).toBe(502);
    // A panel that does not answer: the spec's message, then what was found.
    expect(down.json().message).toBe(`${SERVER_MESSAGES.testFailed} The panel could not be reached (ECONNRESET).`);
    expect(await serverCount()).toBe(0);
  });

  it('refuses bad input with the fields named', async () => {
    const res = await call('POST', '/api/admin/servers', marzneshinBody({ url: 'not a url', name: '', locations: 'de;nl' }));
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['locations', 'name', 'url']);
    const unknownService = await call('POST', '/api/admin/servers', marzneshinBody({ serviceId: '999' }));
    expect(unknownService.statusCode).toBe(400);
    expect(unknownService.json().fields).toHaveProperty('serviceId');
    expect(await serverCount()).toBe(0);
  });

  let serverId: string;

  it('saves a Marzneshin server with its password encrypted and never sent back', async () => {
    const res = await call('POST', '/api/admin/servers', marzneshinBody());
    expect(res.statusCode).toBe(201);
    const server = res.json();
    serverId = server.id;
    expect(server).toEqual({
      id: expect.any(String),
      kind: 'marzneshin',
      name: 'Germany',
      publicName: null,
      publicNameTranslations: {},
      url: marzneshin.url,
      username: marzneshin.admin.username,
      serviceId: '1',
      locations: 'DE,NL',
      premium: false,
      status: 'active',
      lastCheck: expect.any(String),
      apiTokenExpiresAt: null,
      health: { state: 'up', latencyMs: null, lastError: null, checkedAt: expect.any(String), since: expect.any(String) },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const row = await env.database.db('masterservers').where({ id: serverId }).first();
    expect(row.password_encrypted).not.toContain(marzneshin.admin.password);
    expect(row.password_encrypted).toMatch(/^v1\./);
  });

  it('saves a Marzban server on all its inbounds', async () => {
    const res = await call('POST', '/api/admin/servers', {
      kind: 'marzban',
      name: 'Japan',
      url: marzban.url,
      username: marzban.admin.username,
      password: marzban.admin.password,
      serviceId: 'all',
      locations: 'all',
    });
    expect(res.statusCode).toBe(201);
    const services = await call('GET', `/api/admin/servers/${res.json().id}/services`);
    expect(services.json()[0]).toEqual({ id: 'all', name: 'All inbounds' });
  });

  it('renames a Marzban server and sets its public region name without touching its kind, locations or panel', async () => {
    const created = await call('POST', '/api/admin/servers', {
      kind: 'marzban',
      name: 'tokyo-internal-7',
      url: marzban.url,
      username: marzban.admin.username,
      password: marzban.admin.password,
      serviceId: 'all',
      locations: 'JP',
    });
    const id = created.json().id as string;
    expect(created.json().publicName).toBeNull();
    const before = marzban.requests.length;
    const renamed = await call('PATCH', `/api/admin/servers/${id}`, { name: 'tokyo-internal-8', publicName: '  Japan ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ kind: 'marzban', name: 'tokyo-internal-8', publicName: 'Japan', locations: 'JP' });
    expect(marzban.requests.length).toBe(before);

    const status = (await call('GET', '/api/status', undefined, null)).json() as { regions: Array<{ name: string }> };
    expect(status.regions.map((region) => region.name)).toContain('Japan');
    expect(JSON.stringify(status)).not.toContain('internal');
    expect((await call('PATCH', `/api/admin/servers/${id}`, { publicName: '' })).json().publicName).toBeNull();
    expect((await call('PATCH', `/api/admin/servers/${id}`, { publicName: 'x'.repeat(61) })).statusCode).toBe(400);
    expect((await call('DELETE', `/api/admin/servers/${id}`)).statusCode).toBe(204);
  });

  it('updates a name without a credential test, and re-tests a new password (refusing a wrong one)', async () => {
    const before = marzneshin.requests.length;
    const renamed = await call('PATCH', `/api/admin/servers/${serverId}`, { name: 'Germany 1' });
    expect(renamed.json().name).toBe('Germany 1');
    expect(marzneshin.requests.length).toBe(before);
    const wrong = await call('PATCH', `/api/admin/servers/${serverId}`, { password: 'wrong' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(SERVER_MESSAGES.testFailed);
    expect((await call('GET', `/api/admin/servers/${serverId}/services`)).statusCode).toBe(200);
    expect((await call('PATCH', `/api/admin/servers/${serverId}`, { password: marzneshin.admin.password })).statusCode).toBe(200);
  });

  it('disables, refuses to enable while the panel is down, and enables after a passing test', async () => {
    expect((await call('POST', `/api/admin/servers/${serverId}/disable`)).json().status).toBe('disabled');
    marzneshin.faults.down = true;
    const refused = await call('POST', `/api/admin/servers/${serverId}/enable`);
    marzneshin.faults.down = false;
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toMatch(/^Connection test failed\. Cannot activate server\. The panel could not be reached/);
    expect((await env.database.db('masterservers').where({ id: serverId }).first()).status).toBe('disabled');
    const enabled = await call('POST', `/api/admin/servers/${serverId}/enable`);
    expect(enabled.json()).toMatchObject({ status: 'active' });
  });

  it('refuses to delete a server that still holds accounts, and deletes an empty one', async () => {
    await env.database.db('vpn_accounts').insert({
      id: 'acct-on-server',
      user_id: user.userId,
      master_server_id: serverId,
      username: 'user_held0001',
      status: 'active',
      data_limit: 0,
      sub_token: 'tok-held',
      metadata: '{}',
      created_at: new Date(),
      updated_at: new Date(),
    });
    const busy = await call('DELETE', `/api/admin/servers/${serverId}`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe('server_in_use');
    await env.database.db('vpn_accounts').where({ id: 'acct-on-server' }).delete();
    expect((await call('DELETE', `/api/admin/servers/${serverId}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/admin/servers/${serverId}`)).statusCode).toBe(404);
    expect((await call('PATCH', '/api/admin/servers/no-such-id', { name: 'x' })).statusCode).toBe(404);
  });

  describe('a panel admin that cannot assign the chosen service', () => {
    let reseller: Fake;
    beforeAll(async () => {
      reseller = await startFakeMarzneshin({ sudo: false, adminServiceIds: [2] });
    });
    afterAll(async () => {
      await reseller.close();
    });
    const resellerBody = (overrides: Record<string, unknown> = {}) =>
      marzneshinBody({ url: reseller.url, username: reseller.admin.username, password: reseller.admin.password, ...overrides });
    const CANNOT_ASSIGN_1 = 'this panel admin cannot assign service 1; use a sudo admin or give it the service';

    it('fails the test and the save with the reason on the service field, and saves nothing', async () => {
      const before = await serverCount();
      const saved = await call('POST', '/api/admin/servers', resellerBody({ serviceId: '1' }));
      expect(saved.statusCode).toBe(400);
      expect(saved.json()).toEqual({ code: 'connection_test_failed', message: CANNOT_ASSIGN_1, fields: { serviceId: CANNOT_ASSIGN_1 } });
      const tested = await call('POST', '/api/admin/servers/test', resellerBody({ serviceId: '1' }));
      expect(tested.statusCode).toBe(400);
      expect(tested.json().message).toBe(CANNOT_ASSIGN_1);
      expect(await serverCount()).toBe(before);
      expect(reseller.users.size).toBe(0);
    });

    it('passes the test without a service (listing only its own), and saves the service it may assign', async () => {
      const tested = await call('POST', '/api/admin/servers/test', resellerBody({ serviceId: undefined }));
      expect(tested.statusCode).toBe(200);
      expect(tested.json().services.map((s: { id: string }) => s.id)).toEqual(['2']);
      const saved = await call('POST', '/api/admin/servers', resellerBody({ name: 'Reseller NL', serviceId: '2' }));
      expect(saved.statusCode).toBe(201);
      expect(saved.json()).toMatchObject({ serviceId: '2', status: 'active' });
    });

    it('refuses to switch a saved server to a service its admin cannot assign', async () => {
      const id = (await env.database.db('masterservers').where({ name: 'Reseller NL' }).first()).id;
      const res = await call('PATCH', `/api/admin/servers/${id}`, { serviceId: '1', password: reseller.admin.password });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(CANNOT_ASSIGN_1);
      expect((await env.database.db('masterservers').where({ id }).first()).service_id).toBe('2');
    });
  });

  describe('panel URLs on link-local and cloud-metadata addresses', () => {
    const REFUSED_URLS = [
      'http://169.254.169.254',
      'https://169.254.12.34:8443',
      'http://[fe80::1]:8000',
      'http://[fd00:ec2::254]',
      'http://[::ffff:169.254.169.254]',
    ];

    it('are refused when testing or adding a server, on the url field, before any request', async () => {
      const before = await serverCount();
      for (const url of REFUSED_URLS) {
        for (const path of ['/api/admin/servers/test', '/api/admin/servers']) {
          const res = await call('POST', path, marzneshinBody({ url }));
          expect(res.statusCode, `${path} ${url}`).toBe(400);
          expect(res.json(), `${path} ${url}`).toMatchObject({
            code: 'validation_failed',
            fields: { url: expect.stringContaining('ALLOW_LINK_LOCAL_PANELS') },
          });
        }
      }
      expect(await serverCount()).toBe(before);
    });

    it('are refused when editing a server, which keeps its address', async () => {
      const saved = await call('POST', '/api/admin/servers', marzneshinBody({ name: 'Edited' }));
      expect(saved.statusCode).toBe(201);
      const res = await call('PATCH', `/api/admin/servers/${saved.json().id}`, { url: 'http://169.254.169.254' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { url: expect.any(String) } });
      expect((await env.database.db('masterservers').where({ id: saved.json().id }).first()).url).toBe(marzneshin.url);
    });

    it('leave loopback panels allowed', async () => {
      expect(new URL(marzneshin.url).hostname).toBe('127.0.0.1');
      expect((await call('POST', '/api/admin/servers/test', marzneshinBody())).statusCode).toBe(200);
    });
  });

  it('lets the operator allow link-local panels with ALLOW_LINK_LOCAL_PANELS=true', async () => {
    // A stand-in driver: nothing is sent to a link-local address from a test.
    const stub: PanelDriver = {
      kind: 'marzneshin',
      testConnection: async () => {},
      listServices: async () => [{ id: '1', name: 'Local' }],
      createAccount: async () => {
        throw new Error('unused');
      },
      getAccount: async () => null,
      listAccounts: async () => ({ accounts: [], total: 0 }),
      extendAccount: async () => {
        throw new Error('unused');
      },
      setServices: async () => {
        throw new Error('unused');
      },
      setEnabled: async () => {
        throw new Error('unused');
      },
      resetUsage: async () => {
        throw new Error('unused');
      },
      deleteAccount: async () => ({ alreadyGone: true }),
    };
    const body = marzneshinBody({ url: 'http://169.254.169.254' });
    for (const [allow, expected] of [
      ['true', 200],
      ['false', 400],
    ] as const) {
      const local = await buildTestApp({ db: env.database.db, env: { ALLOW_LINK_LOCAL_PANELS: allow }, overrides: { driverFactory: () => stub } });
      try {
        const res = await local.app.inject({
          method: 'POST',
          url: '/api/admin/servers/test',
          headers: { origin: TEST_ORIGIN, cookie: admin.cookie },
          payload: body,
        });
        expect(res.statusCode, `ALLOW_LINK_LOCAL_PANELS=${allow}: ${res.body}`).toBe(expected);
      } finally {
        await local.app.close();
      }
    }
  });

  it('never returned a password or a panel token in any admin answer', () => {
    const all = seen.join('\n');
    expect(all).not.toContain(marzneshin.admin.password);
    expect(all).not.toContain(marzban.admin.password);
    expect(all).not.toMatch(/access_?token|password_encrypted|eyJ[\w-]+\.[\w-]+\./i);
  });
});
