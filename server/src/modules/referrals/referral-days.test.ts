import { describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { mailParts } from '../../../test/smtp-catcher.js';
import { myReferrals, setProgramme, signUp } from '../../../test/referral-kit.js';
import type { DesktopSession } from '../../../test/test-app.js';

const DAY_MS = 86_400_000;

/** The referred customer's extra days (referredBenefit `days`): on their first order paid once. */
describe.each(TEST_DATABASES)('referral extra days (%s)', (kind) => {
  const f = useBillingFixture(kind);

  const quote = async (user: DesktopSession, planId: string) => (await f.call(user, 'POST', '/api/checkout/quote', { planId })).json();
  const periodsOf = (user: DesktopSession) => f.env.database.db('paid_periods as p').join('transactions as t', 't.id', 'p.transaction_id')
    .where('t.user_id', user.userId).orderBy('p.starts_at').select('p.starts_at', 'p.ends_at');
  const lengthInDays = (period: { starts_at: unknown; ends_at: unknown }) =>
    Math.round((new Date(period.ends_at as string).getTime() - new Date(period.starts_at as string).getTime()) / DAY_MS);

  it('the admin sets extra days; nonsense is refused by field', async () => {
    expect(await setProgramme(f, { referredBenefit: { kind: 'days', days: 7 } })).toMatchObject({ referredBenefit: { kind: 'days', days: 7 } });
    for (const days of [0, 366, 1.5, '7']) {
      const res = await f.call(f.admin, 'PUT', '/api/admin/referrals/settings', { enabled: true, referredBenefit: { kind: 'days', days }, reward: { kind: 'percent', percent: 20, months: 3 }, refundWindowDays: 14 });
      expect(res.statusCode, String(days)).toBe(400);
      expect(Object.keys(res.json().fields)).toContain('referredBenefit.days');
    }
    const referrer = await signUp(f);
    expect((await myReferrals(f, referrer)).terms.referredBenefit).toEqual({ kind: 'days', days: 7 });
  });

  it('a friend referred with 7 extra days: their first one-off purchase buys 37 days at the list price, Stripe\'s page says so; the next buys 30', async () => {
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

  it('a friend whose first purchase is a card subscription: it starts as usual, its period is Stripe\'s', async () => {
    await setProgramme(f, { referredBenefit: { kind: 'days', days: 7 } });
    const referrer = await signUp(f);
    const friend = await signUp(f, { code: (await myReferrals(f, referrer)).code });
    const started = await f.checkout(friend, { planId: f.recurringPlanId });
    expect(await (await fetch(f.stripe.getSession(started.sessionId)!.url!)).text()).not.toContain('37 days');
    await f.stripe.pay(started.sessionId);
    await f.runJobs();
    expect((await periodsOf(friend)).map(lengthInDays)).toEqual([30]);
  });
});
