import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { STRIPE_KEYS, useBillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { panelExpiryOf, stripePeriodEnd, subscribeToRecurring } from '../../../../test/recurring-subscriber.js';
import { buildTestApp, signInDesktop, type DesktopSession } from '../../../../test/test-app.js';
import { toDate, toDateOrNull } from '../../../db/values.js';
import { RECONCILE, RECONCILE_SUBSCRIPTIONS } from './reconcile-subscriptions.js';
import { schedulePeriodicJob } from '../../../jobs/periodic-jobs.js';
import { createJobsRepo } from '../../../jobs/jobs.repo.js';

const HOUR = 3600;
const DAY = 24 * HOUR;
const GRACE_MS = 3 * DAY * 1000;

describe.each(TEST_DATABASES)('reconcile that cannot starve (%s)', (kind) => {
  const f = useBillingFixture(kind);
  const db = () => f.env.database.db;
  const jobs = () => createJobsRepo(db());

  /**
   * Live recurring subscriptions of a Stripe account these keys do not reach (as after a switch of
   * accounts): every read answers resource_missing. Their period ended at `periodEnd`.
   */
  async function insertUnreadable(userId: string, count: number, periodEnd: Date): Promise<string[]> {
    const now = f.t.clock.now();
    const rows = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      user_id: userId,
      status: 'active',
      billing: 'recurring',
      provider_subscription_id: `sub_elsewhere${i}_${randomUUID().slice(0, 8)}`,
      current_period_start: new Date(periodEnd.getTime() - 30 * DAY * 1000),
      current_period_end: periodEnd,
      metadata: JSON.stringify({ plan_name: 'Plus Auto', price: 499, days: 30 }),
      created_at: now,
      updated_at: now,
    }));
    await db()('subscriptions').insert(rows);
    return rows.map((row) => row.id);
  }

  async function readState(subscriptionId: string) {
    const row = await db()('reconcile_schedule').where({ subscription_id: subscriptionId }).first();
    expect(row, `reconcile_schedule row of ${subscriptionId}`).toBeDefined();
    return {
      failures: Number(row.failures),
      lastError: row.last_error as string | null,
      nextTryAt: toDate(row.next_try_at),
      lastReadAt: toDateOrNull(row.last_read_at),
      lastTriedAt: toDateOrNull(row.last_tried_at),
    };
  }

  /** Its read is due now (as it is at least once a day); other passes of the periodic job may have read it already. */
  const makeDue = async (subscriptionId: string) => {
    await db()('reconcile_schedule').where({ subscription_id: subscriptionId }).update({ next_try_at: f.t.clock.now() });
  };

  /** The admin signed in now: these tests move the clock by weeks, past the fixture admin's tokens. */
  const signInAdmin = (): Promise<DesktopSession> => signInDesktop(f.t, f.env.smtp, 'admin@example.com');

  const providerId = async (subscriptionId: string) =>
    (await db()('subscriptions').where({ id: subscriptionId }).first('provider_subscription_id')).provider_subscription_id as string;
  const readsAtStripe = (stripeSubscription: string) =>
    f.stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/subscriptions/${stripeSubscription}`).length;

  /** Runs the reconcile job as the worker does, every 5 minutes of our clock, while the clock moves `seconds`. */
  async function reconcileFor(seconds: number): Promise<void> {
    await schedulePeriodicJob(jobs(), RECONCILE_SUBSCRIPTIONS, f.t.clock.now());
    for (let moved = 0; moved < seconds; moved += RECONCILE.intervalSeconds) {
      await f.runJobs();
      f.t.clock.advance(RECONCILE.intervalSeconds);
    }
  }

  it('60 subscriptions that cannot be read and one lost renewal: the renewal is applied within the day, the failing ones back off and are shown', async () => {
    const s = await subscribeToRecurring(f);
    const end = stripePeriodEnd(f, s);
    // Their periods ended two days before this one's: the oldest rows, which used to fill every batch.
    const unreadable = await insertUnreadable(s.user.userId, 60, new Date((end - 2 * DAY) * 1000));
    const stripeIds = await Promise.all(unreadable.map(providerId));
    f.t.clock.advance((end * 1000 - f.t.clock.now().getTime()) / 1000 - HOUR);
    const dayStart = f.t.clock.now();

    await reconcileFor(RECONCILE.intervalSeconds);
    expect(await readState(s.subscriptionId)).toMatchObject({
      failures: 0,
      lastError: null,
      lastReadAt: dayStart,
      nextTryAt: new Date((end + 2 * HOUR) * 1000),
    });
    for (const id of unreadable) {
      expect(await readState(id)).toMatchObject({
        failures: 1,
        lastError: expect.stringContaining('resource_missing'),
        nextTryAt: new Date(dayStart.getTime() + 300_000),
      });
    }

    // Stripe charges the renewal; its webhooks never arrive.
    const before = panelExpiryOf(f, s.accountId);
    await f.payQuietly(() => f.stripe.advanceClock(s.clock, end + HOUR));
    await f.runJobs();
    expect(panelExpiryOf(f, s.accountId)).toBe(before);

    // Two hours after the period end, the renewal is read and applied.
    await reconcileFor(3 * HOUR);
    expect(stripePeriodEnd(f, s)).toBeGreaterThan(end);
    expect(panelExpiryOf(f, s.accountId)).toBe(stripePeriodEnd(f, s) * 1000 + GRACE_MS);
    expect(await f.count('transactions', { subscription_id: s.subscriptionId, status: 'succeeded' })).toBe(2);
    expect(await readState(s.subscriptionId)).toMatchObject({ failures: 0, lastReadAt: new Date((end + 2 * HOUR) * 1000) });

    await reconcileFor(DAY - 3 * HOUR - RECONCILE.intervalSeconds);
    const now = f.t.clock.now();
    expect(now.getTime() - dayStart.getTime()).toBe(DAY * 1000);
    // Read again within the day; the renewal is not applied twice.
    const healthy = await readState(s.subscriptionId);
    expect(healthy.nextTryAt.getTime() - healthy.lastReadAt!.getTime()).toBeLessThanOrEqual(DAY * 1000);
    expect(await f.count('transactions', { subscription_id: s.subscriptionId, status: 'succeeded' })).toBe(2);

    // Each failing one was tried about ten times in the day (not 288), backing off to 6 hours.
    for (const [i, id] of unreadable.entries()) {
      const state = await readState(id);
      expect(state.failures).toBeGreaterThanOrEqual(8);
      expect(state.failures).toBeLessThanOrEqual(12);
      expect(readsAtStripe(stripeIds[i]!)).toBe(state.failures);
      expect(state.nextTryAt.getTime() - state.lastTriedAt!.getTime()).toBe(6 * HOUR * 1000);
      expect(state.nextTryAt.getTime()).toBeGreaterThan(now.getTime());
      expect(state.lastReadAt).toBeNull();
    }

    // The admin sees them: listed with their error, and counted on the System tab.
    const admin = await signInAdmin();
    const listed = await f.call(admin, 'GET', '/api/admin/subscriptions?unreadable=true&limit=500');
    expect(listed.statusCode, listed.body).toBe(200);
    const rows = listed.json() as Array<{ id: string; providerRead: Record<string, unknown> }>;
    expect(rows.map((row) => row.id).sort()).toEqual([...unreadable].sort());
    expect(rows[0]!.providerRead).toMatchObject({
      failing: true,
      failures: expect.any(Number),
      lastReadAt: null,
      lastError: expect.stringContaining('No such subscription'),
    });
    const all = (await f.call(admin, 'GET', '/api/admin/subscriptions?limit=500')).json() as Array<{ id: string; providerRead: Record<string, unknown> }>;
    expect(all.find((row) => row.id === s.subscriptionId)!.providerRead).toMatchObject({
      failing: false,
      failures: 0,
      lastError: null,
      lastReadAt: healthy.lastReadAt!.toISOString(),
    });
    const system = (await f.call(admin, 'GET', '/api/admin/system')).json();
    expect(system.payments.recurring).toMatchObject({ unreadable: 60, lastReadError: expect.stringContaining('resource_missing') });
    const bad = await f.call(admin, 'GET', '/api/admin/subscriptions?unreadable=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });

    // Once they are over (the admin ended them), they are neither read nor shown.
    await db()('subscriptions').whereIn('id', unreadable).update({ status: 'canceled' });
    expect((await f.call(admin, 'GET', '/api/admin/subscriptions?unreadable=true')).json()).toEqual([]);
    expect((await f.call(admin, 'GET', '/api/admin/system')).json().payments.recurring).toMatchObject({ unreadable: 0, lastReadError: null });
  });

  it('a subscription whose reads fail backs off, and its first read that works resets its failures', async () => {
    const s = await subscribeToRecurring(f);
    await reconcileFor(RECONCILE.intervalSeconds);
    const { lastReadAt } = await readState(s.subscriptionId);
    await makeDue(s.subscriptionId);
    // Stripe refuses every call for a while (the key was rolled there and not yet here).
    f.stripe.rollSecretKey('sk_test_unreachable0123456789');
    try {
      const first = f.t.clock.now();
      await reconcileFor(RECONCILE.intervalSeconds);
      expect(await readState(s.subscriptionId)).toMatchObject({
        failures: 1,
        lastError: expect.stringMatching(/API key/i),
        lastReadAt,
        nextTryAt: new Date(first.getTime() + 300_000),
      });
      const second = f.t.clock.now();
      await reconcileFor(RECONCILE.intervalSeconds);
      expect(await readState(s.subscriptionId)).toMatchObject({ failures: 2, nextTryAt: new Date(second.getTime() + 600_000) });
    } finally {
      f.stripe.rollSecretKey(STRIPE_KEYS.secretKey);
    }
    await reconcileFor(2 * RECONCILE.intervalSeconds);
    const recovered = await readState(s.subscriptionId);
    expect(recovered).toMatchObject({ failures: 0, lastError: null });
    expect(recovered.lastReadAt!.getTime()).toBeGreaterThan(lastReadAt!.getTime());
    expect(recovered.nextTryAt.getTime()).toBeGreaterThan(recovered.lastReadAt!.getTime());
  });

  it('two instances reconciling at once read each subscription once and apply a lost renewal once', async () => {
    const s = await subscribeToRecurring(f);
    await f.payQuietly(() => f.stripe.advanceClock(s.clock, stripePeriodEnd(f, s) + 2 * HOUR));
    await makeDue(s.subscriptionId);
    const other = await buildTestApp({
      db: db(),
      smtp: f.env.smtp,
      clock: f.t.clock,
      env: { ADMIN_EMAILS: 'admin@example.com', STRIPE_API_URL: f.stripe.url, STRIPE_TEST_CLOCKS: 'true' },
    });
    try {
      for (const instance of ['a', 'b']) {
        await jobs().enqueue({ type: RECONCILE_SUBSCRIPTIONS, payload: {}, dedupeKey: `test-reconcile-${instance}-${s.subscriptionId}` }, f.t.clock.now());
      }
      const readsBefore = readsAtStripe(s.stripeSubscription);
      const ran = await Promise.all([f.t.app.jobWorker.runOnce(), other.app.jobWorker.runOnce()]);
      expect(ran).toEqual([true, true]);
      expect(readsAtStripe(s.stripeSubscription) - readsBefore).toBe(1);
    } finally {
      await other.app.close();
    }
    await f.runJobs();
    expect(await f.count('transactions', { subscription_id: s.subscriptionId, status: 'succeeded' })).toBe(2);
    expect(panelExpiryOf(f, s.accountId)).toBe(stripePeriodEnd(f, s) * 1000 + GRACE_MS);
    expect(await readState(s.subscriptionId)).toMatchObject({ failures: 0, lastError: null });
    const { email } = await db()('user_profiles').where({ id: s.user.userId }).first('email');
    expect(f.env.smtp.messages.filter((m) => m.to.includes(email) && /receipt/i.test(m.subject))).toHaveLength(2);
  });
});
