import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { asMarzneshinUser, startFakeMarzneshin, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../test/test-app.js';
import { CLEANUP_PANEL_USER, cleanupPanelUserJob } from './cleanup-panel-user.js';
import { SWEEP_STUCK_ACCOUNTS } from './sweep-stuck-accounts.js';
import { addSeconds } from '../../lib/clock.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';
import { createBillingRepo } from '../billing/billing.repo.js';
import { generateSubToken, generateUsername } from './account-values.js';
import { createAccountsRepo, type AccountsRepo } from './accounts.repo.js';
import { createProvisioner, provisionedFields } from './provisioning.js';
import { DEFAULT_STUCK_AFTER_SECONDS, DEFAULT_SWEEP_INTERVAL_SECONDS } from './stuck-accounts.js';

const GB = 1024 ** 3;
/** Past the threshold and the interval: every stuck row is due, and so is the sweep. */
const LATER = DEFAULT_STUCK_AFTER_SECONDS + 1;

describe.each(TEST_DATABASES)('sweep of stuck accounts (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let panel: FakeMarzneshin;
  let admin: DesktopSession;
  let repo: AccountsRepo;
  let trialPlanId: string;
  let serverId: string;
  let n = 0;

  const call = (session: DesktopSession | null, method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: session ? bearer(session.accessToken) : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const newUser = () => signInDesktop(t, env.smtp, `stuck${(n += 1)}-${kind}@example.com`);
  const row = (id: string) => env.database.db('vpn_accounts').where({ id }).first();
  const trialUsed = async (userId: string) => Boolean((await env.database.db('user_profiles').where({ id: userId }).first()).trial_used);
  const markerUsers = (id: string, fake: FakeMarzneshin = panel) => [...fake.users.values()].filter((u) => asMarzneshinUser(u).note === id);
  const sweepJob = async () => (await t.app.services.jobs.findById((await env.database.db('jobs').where({ type: SWEEP_STUCK_ACCOUNTS }).first()).id))!;
  const runDueJobs = async () => {
    while (await t.app.jobWorker.runOnce()) {
      /* every due job, the sweep included */
    }
  };
  const driverOf = async (id: string) => t.app.services.servers.driverFor((await t.app.services.servers.findServerRecord(id))!);

  /**
   * What a request killed at some step leaves: the waiting row (a trial claims the user's trial), the
   * intent it recorded before calling the panel, and the panel user if the create had gone through.
   */
  async function leftByCrash(user: DesktopSession, options: { trial?: boolean; intentOn?: string | null; panelUser?: boolean } = {}) {
    const id = randomUUID();
    const username = generateUsername();
    await repo.insertPending(
      { id, userId: user.userId, planId: trialPlanId, username, subToken: generateSubToken(), trialUserId: options.trial === false ? null : user.userId },
      t.clock.now(),
    );
    const intentOn = options.intentOn === undefined ? serverId : options.intentOn;
    if (intentOn) expect(await repo.recordIntent(id, { serverId: intentOn, username }, t.clock.now())).toBe(true);
    if (options.panelUser)
      await (await driverOf(intentOn!)).createAccount({ username, dataLimitBytes: GB, expiresAt: addSeconds(new Date(), 3 * 3600), note: id });
    return { id, username };
  }

  beforeAll(async () => {
    panel = await startFakeMarzneshin();
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com' },
      overrides: { driverFactory: (_kind, c) => createMarzneshinDriver(c, { timeoutMs: 2000 }) },
    });
    repo = createAccountsRepo(env.database.db);
    admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    const server = await call(admin, 'POST', '/api/admin/servers', {
      kind: 'marzneshin',
      name: 'Germany',
      publicName: 'Germany',
      url: panel.url,
      username: panel.admin.username,
      password: panel.admin.password,
      serviceId: '1',
      locations: 'all',
    });
    expect(server.statusCode).toBe(201);
    serverId = server.json().id;
    trialPlanId = (
      await call(admin, 'POST', '/api/admin/plans', { name: 'Trial', days: 0.125, dataLimitBytes: GB, price: 0, locations: 'all', isTrial: true })
    ).json().id;
    expect((await call(admin, 'PUT', '/api/admin/settings', { trialPlanId })).statusCode).toBe(200);
    // What main.ts does at start, twice as two instances would: one sweep job.
    await t.app.services.scheduleRecurringJobs();
    await t.app.services.scheduleRecurringJobs();
    expect(await env.database.db('jobs').where({ type: SWEEP_STUCK_ACCOUNTS })).toHaveLength(1);
  });
  afterAll(async () => {
    await t.app.close();
    await panel.close();
  });

  it('removes a stuck trial row that never reached the panel, and the trial can be claimed again', async () => {
    const user = await newUser();
    const afterInsert = await leftByCrash(user, { intentOn: null });
    expect((await call(user, 'POST', '/api/accounts', { planId: trialPlanId })).json().code).toBe('trial_used');

    t.clock.advance(LATER);
    await runDueJobs();
    expect(await row(afterInsert.id)).toBeUndefined();
    const beforeCreate = await leftByCrash(user); // this time the crash came after the intent, before the panel call
    t.clock.advance(LATER);
    await runDueJobs();
    expect(await row(beforeCreate.id)).toBeUndefined();
    expect(await trialUsed(user.userId)).toBe(false);

    const claimed = await call(user, 'POST', '/api/accounts', { planId: trialPlanId });
    expect(claimed.statusCode).toBe(201);
    expect(claimed.json()).toMatchObject({ status: 'active', planName: 'Trial' });
    const steps = await env.database.db('vpn_account_logs').whereIn('vpn_account_id', [afterInsert.id, beforeCreate.id]).pluck('step');
    expect(steps).toEqual(['stuck_account_removed', 'stuck_account_removed']);
  });

  it('adopts a stuck row whose panel user exists with our marker: the account is active and the trial used', async () => {
    const user = await newUser();
    const stuck = await leftByCrash(user, { panelUser: true });
    t.clock.advance(LATER);
    await runDueJobs();

    expect(await row(stuck.id)).toMatchObject({
      status: 'active',
      master_server_id: serverId,
      username: stuck.username,
      subscription_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/sub\//),
    });
    expect(await trialUsed(user.userId)).toBe(true);
    const listed = (await call(user, 'GET', '/api/accounts')).json();
    expect(listed).toEqual([
      expect.objectContaining({
        id: stuck.id,
        status: 'active',
        server: { name: 'Germany', locationNumber: null, locations: 'all', nameTranslations: {} },
        combinedUrl: expect.stringContaining('/sub/'),
      }),
    ]);
    expect(listed[0].links.length).toBeGreaterThan(0);
    expect(markerUsers(stuck.id)).toHaveLength(1);
    expect((await call(user, 'POST', '/api/accounts', { planId: trialPlanId })).json().code).toBe('trial_used');
    // A later pass leaves a provisioned account alone.
    t.clock.advance(LATER);
    await runDueJobs();
    expect(await row(stuck.id)).toMatchObject({ status: 'active' });
    expect(markerUsers(stuck.id)).toHaveLength(1);
  });

  it('has a marker user whose row is gone deleted from the panel (a create that landed after the sweep)', async () => {
    const user = await newUser();
    const stuck = await leftByCrash(user, { trial: false });
    t.clock.advance(LATER);
    await runDueJobs();
    expect(await row(stuck.id)).toBeUndefined();
    await (await driverOf(serverId)).createAccount({ username: stuck.username, dataLimitBytes: GB, expiresAt: null, note: stuck.id });
    expect(markerUsers(stuck.id)).toHaveLength(1);

    t.clock.advance(31);
    await runDueJobs();
    expect(markerUsers(stuck.id)).toHaveLength(0);
    expect(
      await env.database.db('jobs').where({
        type: CLEANUP_PANEL_USER,
        dedupe_key: cleanupPanelUserJob({ serverId, username: stuck.username, marker: stuck.id }, new Date()).dedupeKey!,
        status: 'done',
      }),
    ).toHaveLength(1);
  });

  it('cleans up the panel user of a request whose row was taken away while the panel created it', async () => {
    const user = await newUser();
    panel.faults.delayMs = 500;
    const pending = call(user, 'POST', '/api/accounts', { planId: trialPlanId });
    let id: string | undefined;
    await expect
      .poll(async () => (id = (await env.database.db('vpn_accounts').where({ user_id: user.userId }).whereNotNull('provisioning_server_id').first())?.id))
      .toBeDefined();
    await env.database.db('vpn_accounts').where({ id }).delete(); // as a sweep would, had this request stalled for minutes
    const res = await pending;
    panel.faults.delayMs = 0;

    expect(res.statusCode).toBe(503);
    expect(markerUsers(id!)).toHaveLength(1);
    t.clock.advance(31);
    await runDueJobs();
    expect(markerUsers(id!)).toHaveLength(0);
    expect(await trialUsed(user.userId)).toBe(false);
    expect((await call(user, 'POST', '/api/accounts', { planId: trialPlanId })).statusCode).toBe(201);
  });

  it('leaves a paid row alone while its payment is pending or being delivered, and sweeps it once the payment failed', async () => {
    const user = await newUser();
    const stuck = await leftByCrash(user, { trial: false });
    const subscriptionId = randomUUID();
    const transactionId = randomUUID();
    await env.database.db.transaction((trx) =>
      createBillingRepo(env.database.db).insertCheckout(
        {
          subscription: {
            id: subscriptionId,
            userId: user.userId,
            vpnAccountId: stuck.id,
            providerId: null,
            planId: trialPlanId,
            billing: 'one_off',
            metadata: { plan_id: trialPlanId, plan_name: 'Plus', price: 499, kind: 'purchase', days: 30, data_limit: GB, locations: 'all' },
          },
          transaction: { id: transactionId, amount: 499, currency: 'usd' },
        },
        t.clock.now(),
        trx,
      ),
    );

    for (const status of ['pending', 'succeeded']) {
      await env.database.db('transactions').where({ id: transactionId }).update({ status });
      t.clock.advance(LATER);
      await runDueJobs();
      expect(await row(stuck.id)).toMatchObject({ status: 'suspended', provisioning_server_id: serverId, username: stuck.username });
    }
    await env.database.db('transactions').where({ id: transactionId }).update({ status: 'failed' });
    t.clock.advance(LATER);
    await runDueJobs();
    expect(await row(stuck.id)).toBeUndefined();
  });

  it('leaves a row younger than the threshold alone (its request may still be at work)', async () => {
    const user = await newUser();
    const fresh = await leftByCrash(user);
    t.clock.advance(DEFAULT_STUCK_AFTER_SECONDS - 30);
    await runDueJobs();
    expect(await row(fresh.id)).toMatchObject({ status: 'suspended', provisioning_server_id: serverId });
    expect(await sweepJob()).toMatchObject({ status: 'queued', attempts: 0, runAt: addSeconds(t.clock.now(), DEFAULT_SWEEP_INTERVAL_SECONDS) });
    t.clock.advance(60);
    await runDueJobs();
    expect(await row(fresh.id)).toBeUndefined();
  });

  it('changes nothing while the recorded panel is down, says so on the job, and settles the row once it answers', async () => {
    const user = await newUser();
    const gone = await leftByCrash(user);
    const adoptable = await leftByCrash(await newUser(), { panelUser: true });
    t.clock.advance(LATER);
    panel.faults.down = true;
    try {
      await runDueJobs();
    } finally {
      panel.faults.down = false;
    }
    expect(await row(gone.id)).toMatchObject({ status: 'suspended', provisioning_server_id: serverId, username: gone.username });
    expect(await row(adoptable.id)).toMatchObject({ status: 'suspended', subscription_url: null });
    expect(await sweepJob()).toMatchObject({
      status: 'queued',
      attempts: 0,
      lastError: expect.stringContaining('Germany: 2 stuck account(s) left for the next pass'),
      runAt: addSeconds(t.clock.now(), DEFAULT_SWEEP_INTERVAL_SECONDS),
    });

    t.clock.advance(DEFAULT_SWEEP_INTERVAL_SECONDS);
    await runDueJobs();
    expect(await row(gone.id)).toBeUndefined();
    expect(await row(adoptable.id)).toMatchObject({ status: 'active' });
    expect(await trialUsed(user.userId)).toBe(false);
    expect(await sweepJob()).toMatchObject({ status: 'queued', lastError: null });
  });

  it('resumes paid provisioning on the recorded server: adopts the user there, or has it cleaned up once the account lives elsewhere', async () => {
    const second = await startFakeMarzneshin();
    try {
      const created = await call(admin, 'POST', '/api/admin/servers', {
        kind: 'marzneshin',
        name: 'Netherlands',
        url: second.url,
        username: second.admin.username,
        password: second.admin.password,
        serviceId: '1',
        locations: 'all',
      });
      expect(created.statusCode).toBe(201);
      const secondId: string = created.json().id;
      await call(admin, 'POST', `/api/admin/servers/${secondId}/disable`); // out of the other tests' way
      const candidates = [(await t.app.services.servers.findServerRecord(serverId))!, (await t.app.services.servers.findServerRecord(secondId))!];
      const provisioner = createProvisioner({
        accounts: repo,
        servers: t.app.services.servers,
        clock: t.clock.now,
        log: t.app.log,
        scheduleCleanup: async (payload) => void (await t.app.services.jobs.enqueue(cleanupPanelUserJob(payload, t.clock.now()), t.clock.now())),
      });
      const resume = (account: { id: string; username: string }, userId: string) =>
        provisioner.provision(
          { accountId: account.id, userId, username: account.username, dataLimitBytes: GB, expiresAt: null, resumeServerId: secondId },
          candidates,
        );

      // The job had recorded the second server and created the user there before it was killed.
      const user = await newUser();
      const adopted = await leftByCrash(user, { trial: false, intentOn: secondId, panelUser: true });
      const result = await resume(adopted, user.userId);
      expect(result).toMatchObject({ server: { id: secondId }, username: adopted.username });
      expect(markerUsers(adopted.id, second)).toHaveLength(1);
      expect(markerUsers(adopted.id)).toHaveLength(0);

      // Same, but the second server is down on the retry: the account is made on the first, and the
      // user left on the second goes once the account is saved and that panel answers.
      const moved = await leftByCrash(user, { trial: false, intentOn: secondId, panelUser: true });
      second.faults.down = true;
      const elsewhere = await resume(moved, user.userId);
      second.faults.down = false;
      expect(elsewhere).toMatchObject({ server: { id: serverId }, username: moved.username });
      expect(await row(moved.id)).toMatchObject({ provisioning_server_id: serverId });
      t.clock.advance(31);
      await runDueJobs();
      expect(markerUsers(moved.id, second)).toHaveLength(1); // the account still waits: the clean-up waits too
      expect(await repo.markProvisioned(moved.id, provisionedFields(elsewhere), t.clock.now())).toBe(true);
      t.clock.advance(301);
      await runDueJobs();
      expect(markerUsers(moved.id, second)).toHaveLength(0);
      expect(markerUsers(moved.id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
