import { describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { mailParts } from '../../../test/smtp-catcher.js';
import { myReferrals, setProgramme, signUp } from '../../../test/referral-kit.js';
import { panelExpiryOf, subscribeToRecurring } from '../../../test/recurring-subscriber.js';
import type { DesktopSession } from '../../../test/test-app.js';
import { DEFER_RENEWAL } from '../billing/recurring/defer-renewal.js';

const DAY_MS = 86_400_000;
const DAY_S = 86_400;

/** The referred customer's extra days (referredBenefit `days`): on their first order paid once. */
describe.each(TEST_DATABASES)('referral extra days (%s)', (kind) => {
  const f = useBillingFixture(kind);

  const quote = async (user: DesktopSession, planId: string) => (await f.call(user, 'POST', '/api/checkout/quote', { planId })).json();
  const periodsOf = (user: DesktopSession) =>
    f.env.database
      .db('paid_periods as p')
      .join('transactions as t', 't.id', 'p.transaction_id')
      .where('t.user_id', user.userId)
      .orderBy('p.starts_at')
      .select('p.starts_at', 'p.ends_at');
  const lengthInDays = (period: { starts_at: unknown; ends_at: unknown }) =>
    Math.round((new Date(period.ends_at as string).getTime() - new Date(period.starts_at as string).getTime()) / DAY_MS);
  const transactionsOf = (user: DesktopSession) =>
    f.env.database
      .db('transactions')
      .where({ user_id: user.userId })
      .orderBy('created_at')
      .select('amount', 'status')
      .then((rows) => rows.map((row) => ({ ...row, amount: Number(row.amount) })));

  it('the admin sets extra days; nonsense is refused by field', async () => {
    expect(await setProgramme(f, { referredBenefit: { kind: 'days', days: 7 } })).toMatchObject({ referredBenefit: { kind: 'days', days: 7 } });
    for (const days of [0, 366, 1.5, '7']) {
      const res = await f.call(f.admin, 'PUT', '/api/admin/referrals/settings', {
        enabled: true,
        referredBenefit: { kind: 'days', days },
        reward: { kind: 'percent', percent: 20, months: 3 },
        refundWindowDays: 14,
      });
      expect(res.statusCode, String(days)).toBe(400);
      expect(Object.keys(res.json().fields)).toContain('referredBenefit.days');
    }
    const referrer = await signUp(f);
    expect((await myReferrals(f, referrer)).terms.referredBenefit).toEqual({ kind: 'days', days: 7 });
  });

  it("a friend referred with 7 extra days: their first one-off purchase buys 37 days at the list price, Stripe's page says so; the next buys 30", async () => {
    await setProgramme(f, { referredBenefit: { kind: 'days', days: 7 } });
    const referrer = await signUp(f);
    const friend = await signUp(f, { code: (await myReferrals(f, referrer)).code });
    expect(await quote(friend, f.paidPlanId)).toMatchObject({ total: 499, discount: 0, promo: null, bonusDays: 7 });
    // Not the referrer, and nobody else.
    expect((await quote(referrer, f.paidPlanId)).bonusDays).toBe(0);
    expect((await quote(await f.newUser(), f.paidPlanId)).bonusDays).toBe(0);

    const mailsBefore = f.env.smtp.messages.length;
    const first = await f.checkout(friend, { planId: f.paidPlanId });
    const session = f.stripe.getSession(first.sessionId)!;
    // One order has the extra days: a second one opened meanwhile has none.
    expect((await quote(friend, f.paidPlanId)).bonusDays).toBe(0);
    expect(session.amount_total).toBe(499);
    // Stripe's page names what is bought.
    expect(await (await fetch(session.url!)).text()).toContain('37 days');
    await f.stripe.pay(first.sessionId);
    await f.runJobs();
    const [account] = (await f.call(friend, 'GET', '/api/accounts')).json();
    expect(account.status).toBe('active');
    expect(Math.round((new Date(account.expireDate).getTime() - f.t.clock.now().getTime()) / DAY_MS)).toBe(37);
    expect((await periodsOf(friend)).map(lengthInDays)).toEqual([37]);
    // The receipt says where the days came from.
    const receipt = mailParts(f.env.smtp.messages.slice(mailsBefore).find((m) => m.to.includes(friend.email) && /receipt/i.test(m.subject))!);
    expect(receipt.text).toContain("It includes 7 extra days from your friend's referral.");

    // The benefit was the first payment's.
    expect((await quote(friend, f.paidPlanId)).bonusDays).toBe(0);
    const second = await f.checkout(friend, { planId: f.paidPlanId });
    await f.stripe.pay(second.sessionId);
    await f.runJobs();
    expect((await periodsOf(friend)).map(lengthInDays).sort()).toEqual([30, 37]);
  });

  it('a friend whose first purchase is a card subscription: the first period is 7 days longer and Stripe charges again only after it', async () => {
    await setProgramme(f, { referredBenefit: { kind: 'days', days: 7 } });
    const referrer = await signUp(f);
    const friend = await signUp(f, { code: (await myReferrals(f, referrer)).code });
    expect((await quote(friend, f.recurringPlanId)).bonusDays).toBe(7);
    const mailsBefore = f.env.smtp.messages.length;
    const s = await subscribeToRecurring(f, friend);
    const stripePeriod = f.stripe.getSubscription(s.stripeSubscription)!;
    const linePeriod = (invoice: number) => f.stripe.listInvoices(s.stripeSubscription)[invoice]!.lines.data[0]!.period;
    const firstEnd = linePeriod(0).end;
    const until = firstEnd + 7 * DAY_S;
    const days = (period: { start: number; end: number }) => Math.round((period.end - period.start) / DAY_S);

    // Stripe's next charge moved to the end of the 37 days, with a trial that charges nothing.
    expect(stripePeriod).toMatchObject({ status: 'trialing', trial_end: until });
    expect(stripePeriod.items.data[0]!.current_period_end).toBe(until);
    expect((await periodsOf(friend)).map(lengthInDays)).toEqual([days(linePeriod(0)) + 7]);
    const grace = 3 * DAY_MS;
    expect(panelExpiryOf(f, s.accountId)).toBe(until * 1000 + grace);
    const [subscription] = (await f.call(friend, 'GET', '/api/subscriptions')).json();
    expect(subscription).toMatchObject({ status: 'active', autoRenews: true, renewsAt: new Date(until * 1000).toISOString() });
    // The trial's invoice for 0 is no payment: one transaction, one receipt, which names the extra days.
    expect(await transactionsOf(friend)).toEqual([{ amount: 499, status: 'succeeded' }]);
    const receipts = () =>
      f.env.smtp.messages
        .slice(mailsBefore)
        .filter((m) => m.to.includes(friend.email) && /receipt/i.test(m.subject))
        .map(mailParts);
    expect(receipts()).toHaveLength(1);
    expect(receipts()[0]!.text).toContain("It includes 7 extra days from your friend's referral.");

    // Nothing is charged at the end of Stripe's first period; the renewal comes after the extra days, for the next 30.
    await f.stripe.advanceClock(s.clock, firstEnd + DAY_S);
    await f.runJobs();
    expect(await transactionsOf(friend)).toHaveLength(1);
    await f.stripe.advanceClock(s.clock, until + 2 * 3600);
    await f.runJobs();
    expect(await transactionsOf(friend)).toEqual([
      { amount: 499, status: 'succeeded' },
      { amount: 499, status: 'succeeded' },
    ]);
    const renewed = linePeriod(2);
    expect(renewed.start).toBe(until);
    expect((await periodsOf(friend)).map(lengthInDays)).toEqual([days(linePeriod(0)) + 7, days(renewed)]);
    expect(panelExpiryOf(f, s.accountId)).toBe(renewed.end * 1000 + grace);
    expect(receipts()).toHaveLength(2);
    expect(receipts()[1]!.text).not.toContain('extra days');
  });

  it('the next charge is moved once, however often the job runs (a crash after Stripe answered)', async () => {
    await setProgramme(f, { referredBenefit: { kind: 'days', days: 7 } });
    const referrer = await signUp(f);
    const friend = await signUp(f, { code: (await myReferrals(f, referrer)).code });
    const s = await subscribeToRecurring(f, friend);
    const until = f.stripe.getSubscription(s.stripeSubscription)!.trial_end!;
    // The job again, as after a crash between Stripe's answer and the job's completion.
    const job = await f.env.database.db('jobs').where({ type: DEFER_RENEWAL }).first();
    expect(job.status).toBe('done');
    await f.env.database
      .db('jobs')
      .where({ id: job.id })
      .update({ status: 'queued', run_at: new Date(0) });
    await f.runJobs();
    expect(f.stripe.getSubscription(s.stripeSubscription)!.trial_end).toBe(until);
    expect(f.stripe.listInvoices(s.stripeSubscription).map((invoice) => invoice.billing_reason)).toEqual(['subscription_create', 'subscription_update']);
    expect(await transactionsOf(friend)).toHaveLength(1);
  });
});
