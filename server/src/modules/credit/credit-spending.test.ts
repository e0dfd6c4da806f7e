import { describe, expect, it } from 'vitest';
import { STRIPE_KEYS, useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { mailParts } from '../../../test/smtp-catcher.js';
import { DAY_S, buy, later, myReferrals, setProgramme, signIn, signUp } from '../../../test/referral-kit.js';
import type { DesktopSession } from '../../../test/test-app.js';

/**
 * Referral credit spent on the customer's own one-off orders (credit-spending.ts): taken off the order when it is
 * written, given back when the order closes unpaid or is refunded.
 */
describe.each(TEST_DATABASES)('referral credit spent on one-off orders (%s)', (kind) => {
  const f = useBillingFixture(kind);

  /** Credit earned long ago (a released referral's reward, say): available now. */
  async function grantCredit(user: DesktopSession, amount: number): Promise<void> {
    const long = new Date(f.t.clock.now().getTime() - 30 * DAY_S * 1000);
    await f.env.database.db('wallet_movements').insert({ user_id: user.userId, kind: 'earned', amount, currency: 'usd', available_at: long, created_at: long });
  }

  const available = async (user: DesktopSession) => (await myReferrals(f, user)).credit[0]?.available ?? 0;
  const movementsOf = (user: DesktopSession) =>
    f.env.database
      .db('wallet_movements')
      .where({ user_id: user.userId })
      .whereIn('kind', ['spent', 'restored'])
      .orderBy('id')
      .select('kind', 'amount', 'note', 'transaction_id');
  const quote = async (user: DesktopSession, planId = f.paidPlanId, promoCode?: string) => {
    const res = await f.call(user, 'POST', '/api/checkout/quote', { planId, ...(promoCode ? { promoCode } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const transactions = async (user: DesktopSession) => (await f.call(user, 'GET', '/api/transactions')).json();

  it("after the window the referrer's credit pays part of their next purchase: the session, the order, the receipt and the history say so; a refund gives it back", async () => {
    await setProgramme(f);
    const referrer = await signUp(f);
    const friend = await signUp(f, { code: (await myReferrals(f, referrer)).code });
    await buy(f, friend);
    expect((await quote(referrer)).credit).toBe(0);

    await later(f, 15 * DAY_S, async () => {
      const me = await signIn(f, referrer.email);
      expect(await available(me)).toBe(99);
      expect(await quote(me)).toMatchObject({ amount: 499, total: 499, discount: 0, promo: null, credit: 99 });

      const { sessionId } = await f.checkout(me, { planId: f.paidPlanId });
      const session = f.stripe.getSession(sessionId)!;
      expect(session).toMatchObject({ amount_subtotal: 499, amount_total: 400 });
      const coupon = session.discounts?.[0]?.coupon as string;
      expect(coupon).toMatch(/^vpn_order_/);
      // Spent when the order was written: the credit cannot pay a second order meanwhile.
      expect(await available(me)).toBe(0);
      expect(await movementsOf(me)).toEqual([expect.objectContaining({ kind: 'spent', amount: -99, note: 'purchase' })]);

      const after = f.env.smtp.messages.length;
      await f.stripe.pay(sessionId);
      await f.runJobs();
      const [paid] = await transactions(me);
      expect(paid).toMatchObject({ status: 'succeeded', amount: 400, credit: 99 });
      const receipt = mailParts(f.env.smtp.messages.slice(after).find((m) => m.to.includes(referrer.email) && /receipt/i.test(m.subject))!);
      expect(receipt.text).toContain('$4.00');
      expect(receipt.text).toContain('Paid from balance');
      expect(receipt.text).toContain('$0.99 of your credit used');
      expect(await f.count('audit_log', { action: 'referral.credit_spent', target_id: me.userId })).toBe(1);

      // A refund gives the credit back, available at once.
      await f.stripe.refund(f.stripe.getSession(sessionId)!.payment_intent as string);
      await f.runJobs();
      expect(await available(me)).toBe(99);
      expect((await movementsOf(me)).map((row: { kind: string; amount: number; note: string }) => [row.kind, row.amount, row.note])).toEqual([
        ['spent', -99, 'purchase'],
        ['restored', 99, 'refunded'],
      ]);
      expect((await myReferrals(f, me)).movements[0]).toMatchObject({ kind: 'restored', amount: 99, note: 'refunded' });
    });
  });

  it('credit that covers the order pays all of it, with no payment page; credit that would leave less than $0.50 to pay leaves $0.50', async () => {
    const user = await f.newUser();
    await grantCredit(user, 600);
    expect(await quote(user)).toMatchObject({ total: 499, credit: 499 });
    const started = await f.checkout(user, { planId: f.paidPlanId });
    expect(started.url).toContain('/thank-you?session_id=free_');
    await f.runJobs();
    const status = (await f.call(user, 'GET', `/api/checkout/${encodeURIComponent(started.sessionId)}`)).json();
    expect(status).toMatchObject({ status: 'succeeded', account: { status: 'active' } });
    expect(await transactions(user)).toEqual([expect.objectContaining({ status: 'succeeded', amount: 0, credit: 499 })]);
    expect(await available(user)).toBe(101);

    // With a promo code too: Stripe takes one discount per session, so the code and the credit are one coupon.
    const code = (await f.call(f.admin, 'POST', '/api/admin/promo-codes', { code: `CREDIT20${kind}`, percentOff: 20, duration: 'once' })).json();
    const withCode = await quote(user, f.paidPlanId, code.code);
    expect(withCode).toMatchObject({ promo: { code: code.code }, credit: 101 });
    const coded = await f.checkout(user, { planId: f.paidPlanId, promoCode: code.code });
    const codedSession = f.stripe.getSession(coded.sessionId)!;
    expect(codedSession).toMatchObject({
      amount_subtotal: 499,
      amount_total: withCode.total - 101,
      metadata: { promo_code: code.code, referral_credit: '101' },
    });
    const couponId = codedSession.discounts?.[0]?.coupon as string;
    const coupon = await (await fetch(`${f.stripe.url}/v1/coupons/${couponId}`, { headers: { authorization: `Bearer ${STRIPE_KEYS.secretKey}` } })).json();
    expect(coupon).toMatchObject({ name: `${code.code} + referral credit`, amount_off: 499 - withCode.total + 101, duration: 'once', max_redemptions: 1 });
    await f.stripe.pay(coded.sessionId);
    await f.runJobs();
    expect((await transactions(user)).find((tx: { promo?: unknown }) => tx.promo)).toMatchObject({
      status: 'succeeded',
      amount: withCode.total - 101,
      credit: 101,
      promo: { code: code.code },
    });
    expect(await available(user)).toBe(0);

    await grantCredit(user, 470);
    expect(await quote(user)).toMatchObject({ total: 499, credit: 449 });
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    expect(f.stripe.getSession(sessionId)).toMatchObject({ amount_subtotal: 499, amount_total: 50 });
    expect(await available(user)).toBe(21);
    // What is left pays the next order as far as it goes.
    expect(await quote(user)).toMatchObject({ total: 499, credit: 21 });
  });

  it('an order that closes unpaid gives its credit back: expired, cancelled, or refused by the provider', async () => {
    const user = await f.newUser();
    await grantCredit(user, 300);

    const expiring = await f.checkout(user, { planId: f.paidPlanId });
    expect(f.stripe.getSession(expiring.sessionId)!.amount_total).toBe(199);
    expect(await available(user)).toBe(0);
    await f.stripe.expire(expiring.sessionId);
    await f.runJobs();
    expect(await available(user)).toBe(300);

    const cancelled = await f.checkout(user, { planId: f.paidPlanId });
    const order = f.stripe.getSession(cancelled.sessionId)!.metadata!.transaction_id!;
    expect((await f.call(user, 'POST', `/api/checkout/${order}/cancel`)).json()).toEqual({ status: 'cancelled' });
    expect(await available(user)).toBe(300);

    f.stripe.failNextCreates(5);
    const refused = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().code).toBe('payment_provider_error');
    f.stripe.failNextCreates(0);
    expect(await available(user)).toBe(300);
    const moves = await movementsOf(user);
    expect(moves.map((row: { kind: string; amount: number }) => [row.kind, row.amount])).toEqual([
      ['spent', -300],
      ['restored', 300],
      ['spent', -300],
      ['restored', 300],
      ['spent', -300],
      ['restored', 300],
    ]);
    // The refused order's rows are gone; its movements still name it.
    expect(await f.count('transactions', { id: moves[4].transaction_id })).toBe(0);
  });

  it('two orders at once spend the credit once', async () => {
    const user = await f.newUser();
    await grantCredit(user, 300);
    const started = await Promise.all([f.checkout(user, { planId: f.paidPlanId }), f.checkout(user, { planId: f.paidPlanId })]);
    const totals = started.map(({ sessionId }) => f.stripe.getSession(sessionId)!.amount_total).sort();
    expect(totals).toEqual([199, 499]);
    expect(await available(user)).toBe(0);
    expect(await f.count('wallet_movements', { user_id: user.userId, kind: 'spent' })).toBe(1);
  });

  it('a card subscription starts at its price: the credit is left for its renewals, and the quote says how much', async () => {
    const user = await f.newUser();
    await grantCredit(user, 300);
    expect(await quote(user, f.recurringPlanId)).toMatchObject({ total: 499, credit: 300 });
    const { sessionId } = await f.checkout(user, { planId: f.recurringPlanId });
    expect(f.stripe.getSession(sessionId)).toMatchObject({ mode: 'subscription', amount_total: 499 });
    expect(f.stripe.getSession(sessionId)!.discounts ?? []).toEqual([]);
    expect(await available(user)).toBe(300);
  });

  it("someone without credit, or signed out: nothing is taken; the quote is the caller's own", async () => {
    const rich = await f.newUser();
    await grantCredit(rich, 300);
    const other = await f.newUser();
    expect((await quote(other)).credit).toBe(0);
    expect((await f.call(null, 'POST', '/api/checkout/quote', { planId: f.paidPlanId })).statusCode).toBe(401);
    const { sessionId } = await f.checkout(other, { planId: f.paidPlanId });
    expect(f.stripe.getSession(sessionId)!.amount_total).toBe(499);
    expect(await available(rich)).toBe(300);
  });
});
