import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { asMarzneshinUser, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { startPanelShop, type PanelShop } from '../../../test/panel-shop.js';
import { signInWeb, type TestApp, type WebSession } from '../../../test/test-app.js';
import { SYNC_PANEL_ACCOUNTS } from './sync-panel-accounts.js';
import { schedulePeriodicJob } from '../../jobs/periodic-jobs.js';
import { createJobsRepo } from '../../jobs/jobs.repo.js';
import { parseJson } from '../../db/values.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';
import { createAccountsRepo } from '../accounts/accounts.repo.js';
import { createBillingNotices } from '../billing/billing-notices.js';
import { createPanelSync, type SyncOptions } from './panel-sync.js';
import { createPanelSyncRepo } from './panel-sync.repo.js';

const GB = 1024 ** 3;
const FILLERS = 250;
const CLIENT = { 'user-agent': 'v2rayNG/1.8.0' };

/**
 * Accounts kept in step with the panel: usage, limit, expiry and status read in pages (a bounded number
 * of calls per tick, resuming where the last tick stopped); an account disabled or deleted on the panel
 * stops being served by /sub; data-usage e-mails once per period.
 */
describe.each(TEST_DATABASES)('panel sync (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let shop: PanelShop;
  let t: TestApp;
  let panel: FakeMarzneshin;
  let freePlanId: string;
  let serverId: string;
  let call: PanelShop['call'];
  let n = 0;

  /** A new customer with a claimed 1 GB account: its row, its panel user and its /sub path. */
  async function newAccount() {
    const email = `sync-${kind}-${(n += 1)}@example.com`;
    const customer = await signInWeb(t, env.smtp, email);
    const res = await call('POST', '/api/accounts', customer, { planId: freePlanId });
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json();
    return {
      customer,
      email,
      id: account.id as string,
      username: account.username as string,
      sub: new URL(account.combinedUrl).pathname,
      user: () => asMarzneshinUser(panel.users.get(account.username)),
    };
  }

  const listedStatus = async (customer: WebSession, id: string) =>
    (await call('GET', '/api/accounts', customer)).json().find((a: { id: string }) => a.id === id);
  const listCalls = () => panel.requests.filter((r) => r.method === 'GET' && /^\/api\/users\?page=/.test(r.path)).length;

  /** A sync with its own limits, wired like the app's. */
  function syncWith(options: Partial<SyncOptions>) {
    const db = env.database.db;
    return createPanelSync({
      db,
      repo: createPanelSyncRepo(db),
      accounts: createAccountsRepo(db),
      listServers: () => t.app.services.servers.listServerRecords(),
      driverFor: (server) => t.app.services.servers.driverFor(server),
      notices: createBillingNotices({ jobs: createJobsRepo(db), clock: t.clock.now }),
      accountChanged: (id) => void t.app.services.subscription.invalidateAccount(id),
      clock: t.clock.now,
      log: t.app.log,
      options,
    });
  }
  const runJobs = async () => {
    while (await t.app.jobWorker.runOnce()) {
      /* every due job */
    }
  };
  const mailsTo = (email: string, subject: RegExp) => env.smtp.messages.filter((m) => m.to.includes(email) && subject.test(m.subject));

  beforeAll(async () => {
    shop = await startPanelShop(env);
    ({ t, panel, freePlanId, serverId, call } = shop);
    // Someone else's users on the same panel, before ours: the panel's list is several pages long.
    const driver = createMarzneshinDriver({ url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: '1' });
    for (let i = 0; i < FILLERS; i += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, j) => driver.createAccount({ username: `other_${i + j}`, dataLimitBytes: null, expiresAt: null, note: 'not ours' })),
      );
    }
  });
  afterAll(async () => {
    await shop.close();
  });

  it('a user disabled on the panel: after one tick of the job, /sub serves no configurations and the dashboard says disabled', async () => {
    const a = await newAccount();
    expect((await call('GET', a.sub, null, undefined, CLIENT)).statusCode).toBe(200);
    a.user().enabled = false;
    a.user().used_traffic = 123_456;

    await schedulePeriodicJob(t.app.services.jobs, SYNC_PANEL_ACCOUNTS, t.clock.now());
    t.clock.advance(61);
    await runJobs();

    const blocked = await call('GET', a.sub, null, undefined, CLIENT);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.body).toMatch(/disabled/);
    expect(await listedStatus(a.customer, a.id)).toMatchObject({ status: 'disabled', usedTrafficBytes: 123_456 });

    a.user().enabled = true;
    t.clock.advance(61);
    await runJobs();
    expect((await call('GET', a.sub, null, undefined, CLIENT)).statusCode).toBe(200);
    expect((await listedStatus(a.customer, a.id)).status).toBe('active');
  });

  it('reads a bounded number of pages per tick and goes on from there on the next tick', async () => {
    const a = await newAccount(); // after the fillers: on the last page
    const sync = syncWith({ pagesPerTick: 1, pageSize: 100 });
    await sync.syncAll(); // finish any pass in progress
    while (
      !(await createPanelSyncRepo(env.database.db).getState(serverId)).lastCompletePassAt ||
      (await createPanelSyncRepo(env.database.db).getState(serverId)).nextPage !== 1
    )
      await sync.syncAll();

    a.user().used_traffic = 5_000_000;
    const pages = Math.ceil(panel.users.size / 100);
    expect(pages).toBeGreaterThanOrEqual(3);
    for (let tick = 1; tick < pages; tick += 1) {
      const before = listCalls();
      const [result] = await sync.syncAll();
      expect(listCalls() - before).toBe(1);
      expect(result).toMatchObject({ pages: 1, completePass: false, error: null });
      expect((await listedStatus(a.customer, a.id)).usedTrafficBytes).toBe(0);
    }
    const [last] = await sync.syncAll();
    expect(last).toMatchObject({ pages: 1, completePass: true });
    t.clock.advance(1);
    expect((await listedStatus(a.customer, a.id)).usedTrafficBytes).toBe(5_000_000);
  });

  it('an account deleted on the panel is marked disabled only after a complete pass, and /sub stops', async () => {
    const a = await newAccount();
    const sync = syncWith({ pagesPerTick: 1 });
    while ((await createPanelSyncRepo(env.database.db).getState(serverId)).nextPage !== 1) await sync.syncAll();
    t.clock.advance(60);
    await sync.syncAll(); // page 1 of a new pass: the pass started before the deletion
    panel.users.delete(a.username);
    const pages = Math.ceil(panel.users.size / 100);
    for (let tick = 2; tick < pages; tick += 1) {
      t.clock.advance(60);
      await sync.syncAll();
      expect((await listedStatus(a.customer, a.id)).status).toBe('active');
    }
    t.clock.advance(60);
    const [last] = await sync.syncAll();
    expect(last).toMatchObject({ completePass: true, missing: 1 });
    expect((await listedStatus(a.customer, a.id)).status).toBe('disabled');
    expect((await call('GET', a.sub, null, undefined, CLIENT)).statusCode).toBe(403);
    const log = await env.database.db('vpn_account_logs').where({ vpn_account_id: a.id, step: 'panel_user_missing' });
    expect(log).toHaveLength(1);
  });

  it('changes nothing while the panel does not answer', async () => {
    const a = await newAccount();
    await t.app.services.panelSync.syncAll();
    a.user().used_traffic = 777;
    panel.faults.down = true;
    try {
      const [result] = await t.app.services.panelSync.syncAll();
      expect(result!.error).toMatch(/.+/);
    } finally {
      panel.faults.down = false;
    }
    const row = await env.database.db('vpn_accounts').where({ id: a.id }).first();
    expect(parseJson<{ used_traffic?: number }>(row.metadata, {}).used_traffic ?? 0).toBe(0);
    await t.app.services.panelSync.syncAll();
    expect(parseJson<{ used_traffic?: number }>((await env.database.db('vpn_accounts').where({ id: a.id }).first()).metadata, {}).used_traffic).toBe(777);
  });

  it('mails at 80 % and at 100 % of the data limit, once each per period, and again after the limit is renewed', async () => {
    const a = await newAccount();
    const sync = () => t.app.services.panelSync.syncAll();
    await sync();
    a.user().used_traffic = 0.85 * GB;
    await sync();
    await sync();
    await runJobs();
    expect(mailsTo(a.email, /used 80% of your data/)).toHaveLength(1);
    expect(mailsTo(a.email, /used 80% of your data/)[0]!.raw).toContain(a.username);

    a.user().used_traffic = 0.9 * GB;
    await sync();
    a.user().used_traffic = GB;
    await sync();
    await sync();
    await runJobs();
    expect(mailsTo(a.email, /used 80% of your data/)).toHaveLength(1);
    expect(mailsTo(a.email, /used all your data/)).toHaveLength(1);
    expect((await listedStatus(a.customer, a.id)).status).toBe('limited');

    // A renewal: a new expiry, usage back to 0, then 80 % again → a new mail.
    a.user().expire_date = new Date(t.clock.now().getTime() + 60 * 24 * 3600_000);
    a.user().used_traffic = 0;
    await sync();
    a.user().used_traffic = 0.81 * GB;
    await sync();
    await runJobs();
    expect(mailsTo(a.email, /used 80% of your data/)).toHaveLength(2);
  });

  it('3 days before a free plan ends, one mail, however many passes see it', async () => {
    const a = await newAccount(); // 30 days
    await t.app.services.panelSync.syncAll();
    const later = 27.5 * 24 * 3600;
    t.clock.advance(later);
    try {
      await t.app.services.panelSync.syncAll();
      await t.app.services.panelSync.syncAll();
      await runJobs();
    } finally {
      t.clock.advance(-later);
    }
    const ending = mailsTo(a.email, /your plan ends/);
    expect(ending).toHaveLength(1);
    expect(ending[0]!.raw).toContain(a.username);
    expect(ending[0]!.raw).toContain('Free');
  });

  it('two ticks at once send one mail', async () => {
    const a = await newAccount();
    await t.app.services.panelSync.syncAll();
    a.user().used_traffic = 0.95 * GB;
    await Promise.all([t.app.services.panelSync.syncAll(), syncWith({}).syncAll()]);
    await runJobs();
    expect(mailsTo(a.email, /used 80% of your data/)).toHaveLength(1);
  });
});
