/**
 * The traffic rules of a plan on a real panel over HTTP (a fake Marzneshin): a 12-month plan with a monthly reset has
 * its used data reset on the panel each month, once (however often the scan runs, after a restart, after a failure,
 * with two instances at once), with the unused data carried over exactly when the plan says so; a plan with grace
 * keeps the account running past its paid end, with grace data from the end, until a renewal brings the normal limit.
 * The test clock moves month by month; the panel counts its own reset calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../../../shared/constants.js';
import { createDb, type Db } from '../../../db/knex.js';
import { schedulePeriodicJob } from '../../../jobs/periodic-jobs.js';
import { createPanelDriver } from '../../../panels/index.js';
import { GB, useBillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import { panelExpiryOf } from '../../../../test/recurring-subscriber.js';
import { buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../../test/test-app.js';
import { SCAN_PLAN_TRAFFIC } from './scan-plan-traffic.js';
import { monthStart } from './traffic-months.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

describe.each(TEST_DATABASES)('plan traffic rules on the panel (%s)', (kind) => {
  const f = useBillingFixture(kind);
  const db = () => f.env.database.db;
  const plans = { monthly: '', carried: '', graced: '', carriedMonth: '' };

  /** A customer who bought `planId` from their balance: the account, its panel user and its paid period. */
  const buy = async (planId: string) => {
    const user = await f.newUser();
    await f.t.app.services.wallet.adjust({ id: null, email: 'admin@example.com' }, user.userId, { amount: 999, note: 'Test money' });
    const bought = await f.call(user, 'POST', '/api/checkout', { planId, method: 'wallet' });
    expect(bought.statusCode, bought.body).toBe(200);
    await f.runJobs();
    const account = await db()('vpn_accounts').where({ user_id: user.userId }).first();
    const period = await db()('paid_periods').where({ vpn_account_id: account.id }).first();
    const email = (await db()('user_profiles').where({ id: user.userId }).first()).email as string;
    return {
      user,
      email,
      accountId: account.id as string,
      username: account.username as string,
      start: new Date(period.starts_at),
      end: new Date(period.ends_at),
    };
  };
  /** Renews the account from the customer's balance (signed in again: the clock has moved past their session). */
  const renew = async (email: string, accountId: string) => {
    const user: DesktopSession = await signInDesktop(f.t, f.env.smtp, email);
    await f.t.app.services.wallet.adjust({ id: null, email: 'admin@example.com' }, user.userId, { amount: 999, note: 'Test money' });
    const renewed = await f.call(user, 'POST', '/api/checkout', { accountId, method: 'wallet' });
    expect(renewed.statusCode, renewed.body).toBe(200);
    await f.runJobs();
  };
  const panelUser = (username: string) => asMarzneshinUser(f.panel.users.get(username)!);
  /** What the customer has used, as the panel counts it. */
  const use = (username: string, bytes: number) => {
    panelUser(username).used_traffic = bytes;
  };
  const resetsOf = (username: string) => f.panel.requests.filter((r) => r.method === 'POST' && r.path === `/api/users/${username}/reset`).length;
  /** Our clock moved to `at` (never back), then the due jobs run: the scan among them. */
  const runAt = async (at: number) => {
    const ahead = Math.ceil((at - f.t.clock.now().getTime()) / 1000);
    if (ahead > 0) f.t.clock.advance(ahead);
    await f.runJobs();
  };
  const stepsOf = (accountId: string) => db()('plan_traffic_steps').where({ vpn_account_id: accountId }).orderBy('id');

  beforeAll(async () => {
    const plan = async (body: Record<string, unknown>) => {
      const res = await f.call(f.admin, 'POST', '/api/admin/plans', { locations: 'all', dataLimitBytes: 10 * GB, price: 999, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    plans.monthly = await plan({ name: 'Year, reset monthly', days: 365, trafficReset: 'monthly' });
    plans.carried = await plan({ name: 'Year, carried over', days: 365, trafficReset: 'monthly', trafficCarryOver: true });
    plans.graced = await plan({ name: 'Month with grace', days: 30, graceDays: 3, graceDataBytes: GB });
    plans.carriedMonth = await plan({ name: 'Month, carried over', days: 30, trafficCarryOver: true });
    // The periodic scan, as main.ts queues it (the fixture queues no periodic job of its own).
    await schedulePeriodicJob(f.t.app.services.jobs, SCAN_PLAN_TRAFFIC, f.t.clock.now());
  });

  it('resets a 12-month plan’s data on the panel each month, once, back to the plan’s limit; not at the end, not after a restart', async () => {
    const { accountId, username, start, end } = await buy(plans.monthly);
    expect(resetsOf(username)).toBe(0);
    for (let month = 1; month <= 11; month += 1) {
      const boundary = monthStart(start, month).getTime();
      use(username, month * GB);
      // Say the operator raised the limit by hand meanwhile: a month starts again from the plan's.
      if (month === 4) panelUser(username).data_limit = 50 * GB;
      await runAt(boundary - HOUR_MS);
      expect(resetsOf(username), `before month ${month}`).toBe(month - 1);
      await runAt(boundary + MINUTE_MS);
      expect(resetsOf(username), `month ${month}`).toBe(month);
      expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 10 * GB });
      // The scan runs again (every 15 minutes) within the month: nothing more.
      await runAt(boundary + 2 * HOUR_MS);
      await runAt(boundary + 5 * DAY_MS);
      expect(resetsOf(username), `month ${month}, later`).toBe(month);
      if (month === 6) await f.restart();
    }
    // Month 12 would begin at the paid end: the period ends there, nothing is reset.
    await runAt(end.getTime() - MINUTE_MS);
    expect(resetsOf(username)).toBe(11);
    const steps = await stepsOf(accountId);
    expect(steps).toHaveLength(11);
    expect(steps.every((step) => step.done_at !== null && Number(step.carried) === 0 && Number(step.data_limit) === 10 * GB)).toBe(true);
    expect(await db()('vpn_account_logs').where({ vpn_account_id: accountId, step: 'traffic_reset_monthly' })).toHaveLength(11);
    // The account's row follows the panel: what it used, its limit.
    expect(await db()('vpn_accounts').where({ id: accountId }).first()).toMatchObject({ status: 'active' });
  });

  it('starts each month with the traffic of the add-ons the account bought as well', async () => {
    const { user, accountId, username, start } = await buy(plans.monthly);
    const admin = await signInDesktop(f.t, f.env.smtp, 'admin@example.com');
    const addOn = await f.call(admin, 'POST', '/api/admin/add-ons', {
      name: '+50 GB for good',
      kind: 'traffic',
      amount: 50 * GB,
      price: 300,
      until: 'forever',
    });
    expect(addOn.statusCode, addOn.body).toBe(201);
    await f.t.app.services.wallet.adjust({ id: null, email: 'admin@example.com' }, user.userId, { amount: 300, note: 'Test money' });
    const bought = await f.call(user, 'POST', `/api/accounts/${accountId}/add-ons`, { addOnId: addOn.json().id, method: 'wallet' });
    expect(bought.statusCode, bought.body).toBe(200);
    await f.runJobs();
    expect(panelUser(username).data_limit).toBe(60 * GB);
    use(username, 20 * GB);
    await runAt(monthStart(start, 1).getTime() + MINUTE_MS);
    expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 60 * GB });
  });

  it('carries the unused data of each month over, exactly, and a month used up (limited) runs again on the plan’s limit', async () => {
    const { accountId, username, start } = await buy(plans.carried);
    const month = async (k: number, used: number) => {
      use(username, used);
      await runAt(monthStart(start, k).getTime() + MINUTE_MS);
    };
    await month(1, 3 * GB);
    expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 17 * GB });
    await month(2, 17 * GB);
    expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 10 * GB });
    await month(3, 4 * GB + 123);
    expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 16 * GB - 123 });
    const steps = await stepsOf(accountId);
    expect(steps.map((step) => [Number(step.used_before), Number(step.carried), Number(step.data_limit)])).toEqual([
      [3 * GB, 7 * GB, 17 * GB],
      [17 * GB, 0, 10 * GB],
      [4 * GB + 123, 6 * GB - 123, 16 * GB - 123],
    ]);
    expect(resetsOf(username)).toBe(3);
    const row = await db()('vpn_accounts').where({ id: accountId }).first();
    expect(row.status).toBe('active');
    expect(Number(row.data_limit)).toBe(16 * GB - 123);
  });

  it('never resets a month twice when the panel fails after the reset: the retry sets the limit it recorded', async () => {
    const { username, start } = await buy(plans.carried);
    use(username, 2 * GB);
    f.panel.faults.failNext.push({ method: 'PUT', pathPrefix: `/api/users/${username}`, status: 500 });
    await runAt(monthStart(start, 1).getTime() + MINUTE_MS);
    expect(resetsOf(username)).toBe(1);
    expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 10 * GB });
    // The job is tried again after its back-off: the reset reached the panel, so only the limit is set.
    use(username, 100);
    await runAt(monthStart(start, 1).getTime() + 10 * MINUTE_MS);
    expect(resetsOf(username)).toBe(1);
    expect(panelUser(username)).toMatchObject({ used_traffic: 100, data_limit: 18 * GB });
  });

  it('keeps a plan’s account running its grace days past the paid end with its grace data, once; the customer sees the paid end', async () => {
    const { user, email, accountId, username, end } = await buy(plans.graced);
    // The panel runs 3 days longer; the dashboard says what was paid for.
    expect(panelExpiryOf(f, accountId)).toBe(Math.floor((end.getTime() + 3 * DAY_MS) / 1000) * 1000);
    const shown = (await f.call(user, 'GET', '/api/accounts')).json()[0];
    expect(new Date(shown.expireDate).getTime()).toBe(end.getTime());
    use(username, 4 * GB);
    await runAt(end.getTime() - MINUTE_MS);
    expect(panelUser(username).data_limit).toBe(10 * GB);
    await runAt(end.getTime() + MINUTE_MS);
    expect(panelUser(username)).toMatchObject({ used_traffic: 4 * GB, data_limit: 5 * GB, enabled: true });
    // Once per paid end: later scans leave the grace limit as it is.
    use(username, 4.5 * GB);
    await runAt(end.getTime() + 2 * HOUR_MS);
    expect(panelUser(username).data_limit).toBe(5 * GB);
    expect((await stepsOf(accountId)).map((step) => step.step_key)).toEqual([`grace:${end.toISOString()}`]);
    // Renewed during the grace: a fresh period from now with the plan's limit (its unused grace data is not carried).
    await runAt(end.getTime() + DAY_MS);
    await renew(email, accountId);
    const now = f.t.clock.now().getTime();
    const paidUntil = new Date((await db()('vpn_accounts').where({ id: accountId }).first()).paid_until).getTime();
    expect(paidUntil).toBe(now + 30 * DAY_MS);
    expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 10 * GB });
    expect(panelExpiryOf(f, accountId)).toBe(Math.floor((paidUntil + 3 * DAY_MS) / 1000) * 1000);
  });

  it('carries the unused data of a period over to a renewal that continues it, and not to one after the paid time ran out', async () => {
    const { email, accountId, username, end } = await buy(plans.carriedMonth);
    use(username, 4 * GB);
    await runAt(end.getTime() - 2 * DAY_MS);
    await renew(email, accountId);
    expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 16 * GB });
    const renewalStep = (await stepsOf(accountId)).find((step) => String(step.step_key).startsWith('renewal:'));
    expect(Number(renewalStep.carried)).toBe(6 * GB);
    // Both periods run out; renewed a day later, it starts afresh.
    const paidUntil = new Date((await db()('vpn_accounts').where({ id: accountId }).first()).paid_until).getTime();
    use(username, GB);
    await runAt(paidUntil + DAY_MS);
    await renew(email, accountId);
    expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 10 * GB });
  });

  describe('two runners at once', () => {
    let second: TestApp;
    let pool: Db | undefined;

    beforeAll(async () => {
      // PostgreSQL: another instance with its own pool, as a second server has; SQLite: its one writer, shared.
      pool = kind === 'postgres' ? createDb(f.env.database.url, { searchPath: f.env.database.schema }) : undefined;
      second = await buildTestApp({
        db: pool ?? f.env.database.db,
        smtp: f.env.smtp,
        clock: f.t.clock,
        env: { ADMIN_EMAILS: 'admin@example.com', STRIPE_API_URL: f.stripe.url, STRIPE_TEST_CLOCKS: 'true' },
        overrides: { driverFactory: (k, c) => createPanelDriver(k, c, { timeoutMs: 500 }) },
      });
    });
    afterAll(async () => {
      await second?.app.close();
      await pool?.destroy();
    });

    const drain = async (app: TestApp['app']) => {
      while (await app.jobWorker.runOnce());
    };

    it('reset a month once: two scans and two workers side by side', async () => {
      const { accountId, username, start } = await buy(plans.carried);
      use(username, 5 * GB);
      f.t.clock.advance(Math.ceil((monthStart(start, 1).getTime() + MINUTE_MS - f.t.clock.now().getTime()) / 1000));
      await Promise.all([
        f.t.app.services.planTraffic.scan(),
        second.app.services.planTraffic.scan(),
        drain(f.t.app),
        drain(second.app),
        f.t.app.services.planTraffic.scan(),
        second.app.services.planTraffic.scan(),
      ]);
      await Promise.all([drain(f.t.app), drain(second.app)]);
      expect(resetsOf(username)).toBe(1);
      expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 15 * GB });
      expect(await db()('jobs').where({ type: 'reset_monthly_traffic' }).where('dedupe_key', 'like', `%${accountId}%`)).toHaveLength(1);
      expect(await stepsOf(accountId)).toHaveLength(1);
    });

    it('reset a month once when two handlers of it run at once', async () => {
      const { accountId, username, start } = await buy(plans.monthly);
      use(username, 5 * GB);
      f.t.clock.advance(Math.ceil((monthStart(start, 1).getTime() + MINUTE_MS - f.t.clock.now().getTime()) / 1000));
      const period = await db()('paid_periods').where({ vpn_account_id: accountId }).first();
      const payload = { accountId, periodId: period.id, month: 1 };
      const handle = (app: TestApp['app'], jobId: string) => app.services.jobHandlers.reset_monthly_traffic!(payload, { id: jobId } as never);
      await Promise.all([handle(f.t.app, 'job-a'), handle(second.app, 'job-b')]);
      expect(resetsOf(username)).toBe(1);
      expect(panelUser(username)).toMatchObject({ used_traffic: 0, data_limit: 10 * GB });
    });
  });
});
