import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../../../shared/constants.js';
import { GB, useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import { mailParts } from '../../../../test/smtp-catcher.js';
import { signInDesktop, type DesktopSession } from '../../../../test/test-app.js';
import { schedulePeriodicJob } from '../../../jobs/periodic-jobs.js';
import { APPLY_WAITING_PLAN_CHANGES } from './plan-change-jobs.js';

const DAY = 24 * 3600;

/**
 * Switching an account to another plan (issue 55): on day 10 of a 30-day plan the quote credits 20 days of what was
 * paid, an upgrade charges the difference by card, a downgrade credits the wallet or waits for the paid end (as the
 * operator set), and the panel user keeps its name and link with the new plan's limits. Refused cleanly otherwise;
 * two changes at once make one.
 */
describe.each(TEST_DATABASES)('plan changes (%s)', (kind) => {
  const f: BillingFixture = useBillingFixture(kind);
  const db = () => f.env.database.db;
  let proPlanId = '';
  let litePlanId = '';

  beforeAll(async () => {
    const plan = async (body: Record<string, unknown>) => {
      const res = await f.call(f.admin, 'POST', '/api/admin/plans', { locations: 'all', days: 30, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    proPlanId = await plan({ name: 'Pro Monthly', dataLimitBytes: 50 * GB, price: 999, deviceLimit: 5 });
    litePlanId = await plan({ name: 'Lite Monthly', dataLimitBytes: 5 * GB, price: 199, deviceLimit: 1 });
    await schedulePeriodicJob(f.t.app.services.jobs, APPLY_WAITING_PLAN_CHANGES, f.t.clock.now());
  });

  const panelUserOf = async (accountId: string) => {
    const { username } = await db()('vpn_accounts').where({ id: accountId }).first();
    return asMarzneshinUser(f.panel.users.get(username));
  };
  const accountOf = async (user: DesktopSession, accountId: string) =>
    ((await f.call(user, 'GET', '/api/accounts')).json() as Array<Record<string, unknown>>).find((account) => account.id === accountId)!;
  const quote = (user: DesktopSession | null, accountId: string, planId: string) =>
    f.call(user, 'POST', `/api/accounts/${accountId}/change-plan/quote`, { planId });
  const change = (user: DesktopSession | null, accountId: string, body: Record<string, unknown>) =>
    f.call(user, 'POST', `/api/accounts/${accountId}/change-plan`, body);
  // Sessions end as the clock moves on by days: everyone signs in again where they act.
  let n = 0;
  const signIn = (email: string) => signInDesktop(f.t, f.env.smtp, email);
  const admin = () => signIn('admin@example.com');
  const setDowngrade = async (planChangeDowngrade: string) =>
    expect((await f.call(await admin(), 'PUT', '/api/admin/settings', { planChangeDowngrade })).statusCode).toBe(200);
  /** A customer with an account bought by card on `planId`, ten days ago (signed in again now). */
  const onDayTen = async (planId = f.paidPlanId) => {
    const email = `changer${(n += 1)}-${kind}@example.com`;
    const buyer = await signIn(email);
    const { sessionId } = await f.checkout(buyer, { planId });
    await f.stripe.pay(sessionId);
    await f.runJobs();
    const accountId = f.stripe.getSession(sessionId)!.metadata!.vpn_account_id!;
    f.t.clock.advance(10 * DAY);
    return { user: await signIn(email), accountId, email };
  };
  const fund = async (user: DesktopSession, amount: number) =>
    expect((await f.call(await admin(), 'POST', `/api/admin/users/${user.userId}/wallet`, { amount, note: 'Test balance' })).statusCode).toBe(200);

  it('an upgrade on day 10 credits 20 days and charges the difference; the panel user keeps its name and link with the new limits', async () => {
    const { user, accountId, email } = await onDayTen();
    const before = await panelUserOf(accountId);
    const link = (await accountOf(user, accountId)).subscriptionUrl;
    const now = f.t.clock.now();
    const quoted = await quote(user, accountId, proPlanId);
    expect(quoted.statusCode, quoted.body).toBe(200);
    // $4.99 for 30 days, 20 of them unused: 332 cents (to the nearest whole day).
    expect(quoted.json()).toEqual({
      accountId,
      fromPlanId: f.paidPlanId,
      planId: proPlanId,
      currency: 'usd',
      price: 999,
      credit: 332,
      creditDays: 20,
      charge: 667,
      walletCredit: 0,
      takesEffect: 'now',
      effectiveAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 30 * DAY_MS).toISOString(),
    });
    const started = await change(user, accountId, { planId: proPlanId, method: 'card' });
    expect(started.statusCode, started.body).toBe(200);
    const { sessionId, takesEffect } = started.json();
    expect(takesEffect).toBe('now');
    expect(f.stripe.getSession(sessionId)!.amount_total).toBe(667);
    // Nothing changes until it is paid.
    expect((await accountOf(user, accountId)).planId).toBe(f.paidPlanId);
    await f.stripe.pay(sessionId);
    await f.runJobs();
    const after = await panelUserOf(accountId);
    expect(after.username).toBe(before.username);
    expect(after.data_limit).toBe(50 * GB);
    expect(new Date(`${after.expire_date}Z`).getTime()).toBe(Math.floor((now.getTime() + 30 * DAY_MS) / 1000) * 1000);
    const shown = await accountOf(user, accountId);
    expect(shown).toMatchObject({ planId: proPlanId, planName: 'Pro Monthly', subscriptionUrl: link, deviceLimit: 5, dataLimitBytes: 50 * GB });
    // The ledger: the old period ends now (cut by the change), the new one runs 30 days from now.
    const periods = await db()('paid_periods').where({ vpn_account_id: accountId }).orderBy('created_at');
    expect(periods).toHaveLength(2);
    expect(new Date(periods[0].ends_at).getTime()).toBe(now.getTime());
    expect(periods[0].cut_by_transaction_id).toEqual(periods[1].transaction_id);
    expect(new Date(periods[1].ends_at).getTime()).toBe(now.getTime() + 30 * DAY_MS);
    const history = (await f.call(user, 'GET', '/api/transactions')).json() as Array<{ amount: number; status: string }>;
    expect(history[0]).toMatchObject({ amount: 667, status: 'succeeded' });
    // Its receipt says what was credited, and that the account is on the new plan.
    const receipt = f.env.smtp.messages.filter((m) => m.to.includes(email) && /receipt/i.test(m.subject)).at(-1)!;
    expect(mailParts(receipt).text).toContain('$3.32 for 20 unused days');
    expect(mailParts(receipt).text).toContain('Your VPN account is on Pro Monthly now');
  });

  it('a refund of the upgrade puts the account back on its plan before, with the days it had', async () => {
    const { user, accountId } = await onDayTen();
    const paidEnd = (await db()('vpn_accounts').where({ id: accountId }).first()).paid_until;
    const { sessionId } = (await change(user, accountId, { planId: proPlanId })).json();
    await f.stripe.pay(sessionId);
    await f.runJobs();
    expect((await panelUserOf(accountId)).data_limit).toBe(50 * GB);
    const [upgrade] = await db()('transactions').where({ provider_transaction_id: sessionId });
    const refunded = await f.call(await admin(), 'POST', `/api/admin/transactions/${upgrade.id}/refund`, {});
    expect(refunded.statusCode, refunded.body).toBe(200);
    await f.runJobs();
    const shown = await accountOf(user, accountId);
    expect(shown).toMatchObject({ planId: f.paidPlanId, deviceLimit: null, dataLimitBytes: 10 * GB });
    expect(new Date((await db()('vpn_accounts').where({ id: accountId }).first()).paid_until).getTime()).toBe(new Date(paidEnd).getTime());
    const panel = await panelUserOf(accountId);
    expect(panel.data_limit).toBe(10 * GB);
    expect(new Date(`${panel.expire_date}Z`).getTime()).toBe(Math.floor(new Date(paidEnd).getTime() / 1000) * 1000);
  });

  it('a downgrade credits the wallet with the rest, at once, when the operator chose so', async () => {
    await setDowngrade('wallet');
    const { user, accountId } = await onDayTen(proPlanId);
    const quoted = (await quote(user, accountId, litePlanId)).json();
    // $9.99 for 30 days, 20 unused: 666; Lite costs 199, so 467 goes into the wallet.
    expect(quoted).toMatchObject({ credit: 666, creditDays: 20, charge: 0, walletCredit: 467, takesEffect: 'now' });
    const started = await change(user, accountId, { planId: litePlanId });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().sessionId).toMatch(/^free_/);
    await f.runJobs();
    const wallet = (await f.call(user, 'GET', '/api/wallet')).json();
    expect(wallet.balance).toBe(467);
    expect(wallet.movements[0]).toMatchObject({ kind: 'plan_change', amount: 467, note: 'Lite Monthly' });
    expect((await panelUserOf(accountId)).data_limit).toBe(5 * GB);
    expect(await accountOf(user, accountId)).toMatchObject({ planId: litePlanId, deviceLimit: 1 });
  });

  it('a downgrade waits for the paid end when the operator chose so, and can be called off', async () => {
    await setDowngrade('period_end');
    try {
      const bought = await onDayTen(proPlanId);
      let user = bought.user;
      const { accountId, email } = bought;
      const paidEnd = new Date((await db()('vpn_accounts').where({ id: accountId }).first()).paid_until);
      expect((await quote(user, accountId, litePlanId)).json()).toMatchObject({
        charge: 0,
        walletCredit: 0,
        takesEffect: 'period_end',
        effectiveAt: paidEnd.toISOString(),
        expiresAt: paidEnd.toISOString(),
      });
      const started = await change(user, accountId, { planId: litePlanId });
      expect(started.json()).toEqual({ takesEffect: 'period_end', planId: litePlanId, effectiveAt: paidEnd.toISOString() });
      expect(await accountOf(user, accountId)).toMatchObject({
        planId: proPlanId,
        scheduledPlanChange: { planId: litePlanId, effectiveAt: paidEnd.toISOString() },
      });
      expect((await panelUserOf(accountId)).data_limit).toBe(50 * GB);
      // Its renewal now buys the plan it switches to.
      const renewal = await f.checkout(user, { accountId });
      expect(f.stripe.getSession(renewal.sessionId)!.amount_total).toBe(199);
      expect((await f.call(user, 'POST', `/api/checkout/${renewal.subscriptionId}/cancel`)).statusCode).toBeLessThan(500);
      // At the paid end it is made: the panel user gets the new plan's data limit.
      f.t.clock.advance(Math.ceil((paidEnd.getTime() - f.t.clock.now().getTime()) / 1000) + 601);
      await f.runJobs();
      user = await signIn(email);
      expect(await accountOf(user, accountId)).toMatchObject({ planId: litePlanId, scheduledPlanChange: null, deviceLimit: 1 });
      expect((await panelUserOf(accountId)).data_limit).toBe(5 * GB);

      // Another one, called off by its customer (and nobody else's).
      const second = await onDayTen(proPlanId);
      expect((await change(second.user, second.accountId, { planId: litePlanId })).statusCode).toBe(200);
      expect((await f.call(user, 'DELETE', `/api/accounts/${second.accountId}/change-plan`)).statusCode).toBe(404);
      expect((await f.call(second.user, 'DELETE', `/api/accounts/${second.accountId}/change-plan`)).statusCode).toBe(204);
      expect((await accountOf(second.user, second.accountId)).scheduledPlanChange).toBeNull();
      const again = await f.call(second.user, 'DELETE', `/api/accounts/${second.accountId}/change-plan`);
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('no_scheduled_change');
    } finally {
      await setDowngrade('wallet');
    }
  });

  it('an upgrade paid from the wallet is made at once; a balance short of it is 409 with what is missing', async () => {
    const { user, accountId } = await onDayTen();
    const short = await change(user, accountId, { planId: proPlanId, method: 'wallet' });
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ code: 'insufficient_balance', needed: 667 });
    expect(await f.count('paid_periods', { vpn_account_id: accountId })).toBe(1);
    await fund(user, 1000);
    const paid = await change(user, accountId, { planId: proPlanId, method: 'wallet' });
    expect(paid.statusCode, paid.body).toBe(200);
    await f.runJobs();
    expect((await f.call(user, 'GET', '/api/wallet')).json().balance).toBe(333);
    expect((await panelUserOf(accountId)).data_limit).toBe(50 * GB);
  });

  it('is refused cleanly: signed out, someone else’s, bad input, the same plan, a trial, a card subscription, a change waiting for its payment', async () => {
    const { user, accountId } = await onDayTen();
    const other = await f.newUser();
    expect((await quote(null, accountId, proPlanId)).statusCode).toBe(401);
    expect((await change(null, accountId, { planId: proPlanId })).statusCode).toBe(401);
    expect((await quote(other, accountId, proPlanId)).statusCode).toBe(404);
    expect((await change(other, accountId, { planId: proPlanId })).statusCode).toBe(404);
    for (const body of [{}, { planId: '' }, { planId: proPlanId, method: 'stars' }, { planId: proPlanId, extra: 1 }]) {
      const res = await change(user, accountId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await quote(user, accountId, 'no-such-plan')).statusCode).toBe(404);
    expect((await quote(user, accountId, f.trialPlanId)).json().code).toBe('not_purchasable');
    const same = await quote(user, accountId, f.paidPlanId);
    expect(same.statusCode).toBe(409);
    expect(same.json().code).toBe('same_plan');

    const trial = await f.call(other, 'POST', '/api/accounts', { planId: f.trialPlanId });
    expect(trial.statusCode, trial.body).toBe(201);
    expect((await quote(other, trial.json().id, proPlanId)).json().code).toBe('plan_not_switchable');

    const subscriber = await f.newUser();
    const { sessionId } = await f.checkout(subscriber, { planId: f.recurringPlanId });
    await f.stripe.pay(sessionId);
    await f.runJobs();
    const renewing = f.stripe.getSession(sessionId)!.metadata!.vpn_account_id!;
    // A Stripe card subscription changes at Stripe, to a plan that renews by card the same way (plan-change-stripe.test.ts): not this one-off plan.
    expect((await quote(subscriber, renewing, proPlanId)).json().code).toBe('renewal_mismatch');

    // A change waiting for its card payment: a second one, and a renewal, wait for it.
    expect((await change(user, accountId, { planId: proPlanId })).statusCode).toBe(200);
    const twice = await change(user, accountId, { planId: litePlanId });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('change_in_progress');
    expect((await f.call(user, 'POST', '/api/checkout', { accountId })).json().code).toBe('change_in_progress');
  });

  it('two changes at once make one', async () => {
    const { user, accountId } = await onDayTen();
    await fund(user, 2000);
    const answers = await Promise.all([
      change(user, accountId, { planId: proPlanId, method: 'wallet' }),
      change(user, accountId, { planId: proPlanId, method: 'wallet' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    await f.runJobs();
    expect((await f.call(user, 'GET', '/api/wallet')).json().balance).toBe(2000 - 667);
    const orders = await db()('subscriptions').where({ vpn_account_id: accountId }).select('metadata');
    const changes = orders.filter((row) => (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata).kind === 'change');
    expect(changes).toHaveLength(1);
    expect(await f.count('paid_periods', { vpn_account_id: accountId, cut_at: null })).toBe(1);
  });
});
