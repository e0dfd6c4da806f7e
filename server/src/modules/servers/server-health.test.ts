import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';
import { CHECK_PANEL_HEALTH } from './check-panel-health.js';
import { schedulePeriodicJob } from '../../jobs/periodic-jobs.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';

const GB = 1024 ** 3;
const ADMINS = ['admin@example.com', 'ops@example.com'];

/**
 * Live panel health: every enabled server is checked once a minute; two failures in a row make it
 * down (admins mailed once), one answer makes it up again (mailed once); the admin list and the public
 * status page show it, and new accounts skip a down server.
 */
describe.each(TEST_DATABASES)('panel server health (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let customer: WebSession;
  let germany: FakeMarzneshin;
  let japan: FakeMarzneshin;
  let ids: { germany: string; japan: string };
  let freePlanId: string;

  const call = async (method: string, url: string, session: WebSession | null, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { origin: TEST_ORIGIN, ...(session ? { cookie: session.cookie } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  /** A minute later: the health job (and the e-mail jobs it queued) run. */
  async function tick(seconds = 61): Promise<void> {
    t.clock.advance(seconds);
    while (await t.app.jobWorker.runOnce()) {
      /* every due job */
    }
  }

  const healthOf = async (id: string) => (await call('GET', '/api/admin/servers', admin)).json().find((s: { id: string }) => s.id === id).health;
  const regions = async () => (await call('GET', '/api/status', null)).json().regions as Array<{ name: string; status: string }>;
  const mails = (subject: RegExp) => env.smtp.messages.filter((m) => subject.test(m.subject));
  let mailsBefore = 0;
  const newMails = (subject: RegExp) => env.smtp.messages.slice(mailsBefore).filter((m) => subject.test(m.subject));

  async function addServer(name: string, panel: FakeMarzneshin): Promise<string> {
    const res = await call('POST', '/api/admin/servers', admin, {
      kind: 'marzneshin',
      name,
      publicName: name,
      url: panel.url,
      username: panel.admin.username,
      password: panel.admin.password,
      serviceId: '1',
      locations: 'all',
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  }

  beforeAll(async () => {
    germany = await startFakeMarzneshin();
    japan = await startFakeMarzneshin();
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: ADMINS.join(',') },
      overrides: { driverFactory: (_kind, connection) => createMarzneshinDriver(connection, { timeoutMs: 500 }) },
    });
    admin = await signInWeb(t, env.smtp, ADMINS[0]!);
    customer = await signInWeb(t, env.smtp, `customer-${kind}@example.com`);
    ids = { germany: await addServer('Germany', germany), japan: await addServer('Japan', japan) };
    const plan = await call('POST', '/api/admin/plans', admin, { name: 'Free', days: 30, dataLimitBytes: GB, price: 0, locations: 'all' });
    expect(plan.statusCode, plan.body).toBe(201);
    freePlanId = plan.json().id;
    await schedulePeriodicJob(t.app.services.jobs, CHECK_PANEL_HEALTH, t.clock.now());
  });
  afterAll(async () => {
    await t.app.close();
    await germany.close();
    await japan.close();
  });
  beforeEach(async () => {
    germany.faults.down = false;
    japan.faults.down = false;
    await tick();
    expect((await healthOf(ids.germany)).state).toBe('up');
    expect((await healthOf(ids.japan)).state).toBe('up');
    mailsBefore = env.smtp.messages.length;
  });

  it('a server is up from its credential test, and each check records its latency', async () => {
    const health = await healthOf(ids.germany);
    expect(health).toEqual({ state: 'up', latencyMs: expect.any(Number), lastError: null, checkedAt: expect.any(String), since: expect.any(String) });
    expect(await regions()).toEqual([
      { name: 'Germany', locationNumber: null, locations: 'all', nameTranslations: {}, status: 'up' },
      { name: 'Japan', locationNumber: null, locations: 'all', nameTranslations: {}, status: 'up' },
    ]);
  });

  it('down after two failed checks in a row, with one mail to each admin; up again after one answer, with one mail each', async () => {
    germany.faults.down = true;
    await tick();
    expect((await healthOf(ids.germany)).state).toBe('up'); // one failure is not down yet
    expect(newMails(/is down/)).toHaveLength(0);

    await tick(21); // after a failure the next check comes 20 s later, not a minute
    const down = await healthOf(ids.germany);
    expect(down).toMatchObject({ state: 'down', latencyMs: null, lastError: expect.any(String) });
    expect((await regions()).find((r) => r.name === 'Germany')?.status).toBe('down');
    expect((await regions()).find((r) => r.name === 'Japan')?.status).toBe('up');
    const downMails = newMails(/server Germany is down/);
    expect(
      downMails
        .map((m) => m.to)
        .flat()
        .sort(),
    ).toEqual(ADMINS);
    expect(downMails[0]!.raw).toContain('/admin');

    await tick();
    await tick();
    expect(newMails(/is down/)).toHaveLength(2); // still down: no more mail

    germany.faults.down = false;
    await tick();
    expect(await healthOf(ids.germany)).toMatchObject({ state: 'up', lastError: null, latencyMs: expect.any(Number) });
    expect((await regions()).find((r) => r.name === 'Germany')?.status).toBe('up');
    expect(
      newMails(/server Germany is back up/)
        .map((m) => m.to)
        .flat()
        .sort(),
    ).toEqual(ADMINS);
    expect(newMails(/Japan/)).toHaveLength(0);
  });

  it('a panel process stopped and started again on the same port: down, then up', async () => {
    const port = Number(new URL(japan.url).port);
    await japan.close();
    await tick();
    await tick();
    expect((await healthOf(ids.japan)).state).toBe('down');
    expect((await healthOf(ids.japan)).lastError).toMatch(/.+/);
    expect(newMails(/server Japan is down/)).toHaveLength(2);

    japan = await startFakeMarzneshin({ port });
    await tick();
    expect((await healthOf(ids.japan)).state).toBe('up');
    expect(newMails(/server Japan is back up/)).toHaveLength(2);
  });

  it('new accounts skip a down server, and say the service is unavailable when every server is down', async () => {
    germany.faults.down = true;
    await tick();
    await tick();
    const onJapan = await call('POST', '/api/accounts', customer, { planId: freePlanId });
    expect(onJapan.statusCode, onJapan.body).toBe(201);
    expect(onJapan.json().server.name).toBe('Japan');
    expect(germany.users.size).toBe(0);

    japan.faults.down = true;
    await tick();
    await tick();
    const none = await call('POST', '/api/accounts', customer, { planId: freePlanId });
    expect(none.statusCode).toBe(503);
    expect(none.json()).toMatchObject({ code: 'service_unavailable' });
    expect(await regions()).toEqual([
      { name: 'Germany', locationNumber: null, locations: 'all', nameTranslations: {}, status: 'down' },
      { name: 'Japan', locationNumber: null, locations: 'all', nameTranslations: {}, status: 'down' },
    ]);
  });

  it('a disabled server is not checked and shows as down publicly; enabling it (a passing test) makes it up', async () => {
    expect((await call('POST', `/api/admin/servers/${ids.japan}/disable`, admin)).statusCode).toBe(200);
    japan.faults.down = true;
    await tick();
    await tick();
    expect((await healthOf(ids.japan)).state).toBe('up'); // not checked while disabled
    expect((await regions()).find((r) => r.name === 'Japan')?.status).toBe('down');
    japan.faults.down = false;
    expect((await call('POST', `/api/admin/servers/${ids.japan}/enable`, admin)).statusCode).toBe(200);
    expect((await regions()).find((r) => r.name === 'Japan')?.status).toBe('up');
    expect(newMails(/Japan/)).toHaveLength(0);
  });

  it('two passes at once take a server down once, with one mail per admin', async () => {
    germany.faults.down = true;
    await tick();
    await Promise.all([t.app.services.serverHealth.checkAll(), t.app.services.serverHealth.checkAll(), t.app.services.serverHealth.checkAll()]);
    await tick();
    expect((await healthOf(ids.germany)).state).toBe('down');
    expect(newMails(/server Germany is down/)).toHaveLength(2);
  });

  it('the public status never shows panel addresses or errors, and the health list is for admins only', async () => {
    const status = await call('GET', '/api/status', null);
    expect(status.body).not.toContain('127.0.0.1');
    expect((await call('GET', '/api/admin/servers', null)).statusCode).toBe(401);
    expect((await call('GET', '/api/admin/servers', customer)).statusCode).toBe(403);
    expect(mails(/is down|back up/).every((m) => ADMINS.some((a) => m.to.includes(a)))).toBe(true);
  });
});
