import { describe, expect, it } from 'vitest';
import { PROMO_MESSAGES } from '../../../../shared/promo-codes.js';
import { GB, STRIPE_KEYS, useBillingFixture, type BillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { stripePeriodEnd } from '../../../test/recurring-subscriber.js';
import { mailParts } from '../../../test/smtp-catcher.js';
import type { DesktopSession } from '../../../test/test-app.js';

const DAY_MS = 24 * 3600 * 1000;
let codes = 0;
/** A code name no other test of the file uses. */
const fresh = (prefix: string) => `${prefix}${(codes += 1)}`;

async function createCode(f: BillingFixture, body: Record<string, unknown>): Promise<{ id: string; code: string }> {
  const res = await f.call(f.admin, 'POST', '/api/admin/promo-codes', { duration: 'once', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function tenDollarPlan(f: BillingFixture, body: Record<string, unknown> = {}): Promise<string> {
  const res = await f.call(f.admin, 'POST', '/api/admin/plans', {
    name: fresh('Ten '),
    days: 30,
    dataLimitBytes: 10 * GB,
    price: 1000,
    locations: 'all',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

describe.each(TEST_DATABASES)('promo codes (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it('admin: creates, lists with uses, switches off and deletes codes; customers and strangers are refused', async () => {
    const user = await f.newUser();
    const body = { code: fresh('SPRING'), percentOff: 20, duration: 'once' };
    expect((await f.call(null, 'POST', '/api/admin/promo-codes', body)).statusCode).toBe(401);
    expect((await f.call(user, 'POST', '/api/admin/promo-codes', body)).statusCode).toBe(403);
    expect((await f.call(user, 'GET', '/api/admin/promo-codes')).statusCode).toBe(403);

    const created = await createCode(f, { ...body, maxRedemptions: 5, oncePerCustomer: true, planIds: [f.paidPlanId], endsAt: '2099-01-01T00:00:00Z' });
    expect(created).toEqual({
      id: expect.any(String),
      code: body.code,
      percentOff: 20,
      amountOff: null,
      currency: null,
      duration: 'once',
      durationMonths: null,
      planIds: [f.paidPlanId],
      maxRedemptions: 5,
      oncePerCustomer: true,
      startsAt: null,
      endsAt: '2099-01-01T00:00:00.000Z',
      active: true,
      referral: false,
      used: 0,
      paidCount: 0,
      discountTotal: 0,
      createdAt: expect.any(String),
    });
    const fixed = await createCode(f, { code: fresh('FIVE'), amountOff: 500, duration: 'repeating', durationMonths: 3 });
    expect(fixed).toMatchObject({ amountOff: 500, currency: 'usd', duration: 'repeating', durationMonths: 3, planIds: null });
    const list = (await f.call(f.admin, 'GET', '/api/admin/promo-codes')).json();
    expect(list.map((code: { id: string }) => code.id)).toEqual(expect.arrayContaining([created.id, fixed.id]));

    // The same code in another case is the same code.
    const duplicate = await f.call(f.admin, 'POST', '/api/admin/promo-codes', { ...body, code: body.code.toLowerCase() });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().fields).toEqual({ code: 'A promo code with this name exists already' });

    const off = await f.call(f.admin, 'PATCH', `/api/admin/promo-codes/${created.id}`, { active: false, maxRedemptions: null });
    expect(off.json()).toMatchObject({ active: false, maxRedemptions: null, percentOff: 20 });
    expect((await f.call(f.admin, 'PATCH', '/api/admin/promo-codes/nope', { active: false })).statusCode).toBe(404);
    expect((await f.call(user, 'PATCH', `/api/admin/promo-codes/${created.id}`, { active: true })).statusCode).toBe(403);
    // The discount itself never changes.
    expect((await f.call(f.admin, 'PATCH', `/api/admin/promo-codes/${created.id}`, { percentOff: 90 })).json().code).toBe('validation_failed');

    expect((await f.call(user, 'DELETE', `/api/admin/promo-codes/${fixed.id}`)).statusCode).toBe(403);
    expect((await f.call(f.admin, 'DELETE', `/api/admin/promo-codes/${fixed.id}`)).statusCode).toBe(204);
    expect((await f.call(f.admin, 'DELETE', `/api/admin/promo-codes/${fixed.id}`)).statusCode).toBe(404);

    const audit = await f.env.database.db('audit_log').where({ target_id: created.id }).select('action').orderBy('id');
    expect(audit.map((row: { action: string }) => row.action)).toEqual(['promo_code.create', 'promo_code.update']);
    expect(await f.count('audit_log', { target_id: fixed.id, action: 'promo_code.delete' })).toBe(1);
  });

  it('admin: refuses codes that do not make sense, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code: 'X', percentOff: 10 }, 'code'],
      [{ code: 'has space', percentOff: 10 }, 'code'],
      [{ code: fresh('BOTH'), percentOff: 10, amountOff: 100 }, 'percentOff'],
      [{ code: fresh('NONE') }, 'percentOff'],
      [{ code: fresh('OVER'), percentOff: 101 }, 'percentOff'],
      [{ code: fresh('REP'), percentOff: 10, duration: 'repeating' }, 'durationMonths'],
      [{ code: fresh('ONCEM'), percentOff: 10, durationMonths: 2 }, 'durationMonths'],
      [{ code: fresh('DATES'), percentOff: 10, startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }, 'endsAt'],
      [{ code: fresh('PLAN'), percentOff: 10, planIds: ['no-such-plan'] }, 'planIds'],
      [{ code: fresh('EXTRA'), percentOff: 10, price: 1 }, '_'],
    ];
    for (const [body, field] of cases) {
      const res = await f.call(f.admin, 'POST', '/api/admin/promo-codes', { duration: 'once', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      if (field !== '_') expect(Object.keys(res.json().fields), JSON.stringify(body)).toContain(field);
    }
    expect(await f.count('promo_codes', { code: 'X' })).toBe(0);
  });

  it('a 20 % first-payment code on a $10 plan: the session charges $8 with the coupon; transaction and receipt say so', async () => {
    const planId = await tenDollarPlan(f);
    const code = await createCode(f, { code: fresh('TWENTY'), percentOff: 20, duration: 'once' });
    const user = await f.newUser();

    const quote = await f.call(user, 'POST', '/api/checkout/quote', { planId, promoCode: code.code.toLowerCase() });
    expect(quote.json()).toEqual({
      planId,
      currency: 'usd',
      amount: 1000,
      total: 800,
      discount: 200,
      credit: 0,
      bonusDays: 0,
      promo: { code: code.code, duration: 'once', durationMonths: null, percentOff: 20, amountOff: null },
    });
    expect((await f.call(user, 'POST', '/api/checkout/quote', { planId })).json()).toMatchObject({ amount: 1000, total: 1000, discount: 0, promo: null });
    expect((await f.call(null, 'POST', '/api/checkout/quote', { planId, promoCode: code.code })).statusCode).toBe(401);

    const overview = async () => (await f.call(f.admin, 'GET', '/api/admin/overview?days=7')).json().totals as { revenue: number; discounts: number };
    const before = await overview();
    const started = await f.checkout(user, { planId, promoCode: ` ${code.code.toLowerCase()} ` });
    const session = f.stripe.getSession(started.sessionId)!;
    expect(session).toMatchObject({
      amount_subtotal: 1000,
      amount_total: 800,
      total_details: { amount_discount: 200 },
      discounts: [{ coupon: `vpn_promo_${code.id}` }],
      metadata: { promo_code: code.code },
    });
    expect(f.stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/coupons')).toHaveLength(1);
    const db = f.env.database.db;
    expect(await db('transactions').where({ subscription_id: started.subscriptionId }).first()).toMatchObject({ status: 'pending', amount: 800 });

    await f.stripe.pay(started.sessionId);
    await f.runJobs();
    const [transaction] = (await f.call(user, 'GET', '/api/transactions')).json();
    expect(transaction).toMatchObject({ status: 'succeeded', amount: 800, currency: 'usd', promo: { code: code.code, amountBefore: 1000, discount: 200 } });
    expect((await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json()).toMatchObject({ status: 'succeeded', account: { status: 'active' } });

    const { email } = await db('user_profiles').where({ id: user.userId }).select('email').first();
    const receipt = mailParts(f.env.smtp.messages.find((m) => m.to.includes(email) && /receipt/i.test(m.subject))!);
    expect(receipt.text).toContain('$8.00');
    expect(receipt.text).toContain(`${code.code}: $2.00 off $10.00`);

    expect((await f.call(f.admin, 'GET', '/api/admin/promo-codes')).json().find((c: { id: string }) => c.id === code.id)).toMatchObject({
      used: 1,
      paidCount: 1,
      discountTotal: 200,
    });
    // The overview: $8 of revenue, $2 of discounts (revenue before discounts $10), kept by the database's counters.
    expect(await overview()).toMatchObject({ revenue: before.revenue + 800, discounts: before.discounts + 200 });
    // A code in use stays for the records.
    const removed = await f.call(f.admin, 'DELETE', `/api/admin/promo-codes/${code.id}`);
    expect(removed.statusCode).toBe(409);
    expect(removed.json().code).toBe('promo_code_used');
    expect(await f.count('audit_log', { target_id: code.id, action: 'promo_code.redeem' })).toBe(1);
  });

  it('refuses a code with the reason: unknown, switched off, not started, expired, other plan, used up, already used', async () => {
    const planId = await tenDollarPlan(f);
    const user = await f.newUser();
    const other = await f.newUser();
    const day = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();
    const expectReason = async (session: DesktopSession, promoCode: string, reason: keyof typeof PROMO_MESSAGES) => {
      for (const url of ['/api/checkout/quote', '/api/checkout']) {
        const res = await f.call(session, 'POST', url, { planId, promoCode });
        expect(res.statusCode, `${url} ${promoCode}`).toBe(400);
        expect(res.json(), `${url} ${promoCode}`).toEqual({ code: 'promo_invalid', message: PROMO_MESSAGES[reason], reason });
      }
    };
    await expectReason(user, 'NO-SUCH-CODE', 'not_found');
    const off = await createCode(f, { code: fresh('OFF'), percentOff: 10 });
    await f.call(f.admin, 'PATCH', `/api/admin/promo-codes/${off.id}`, { active: false });
    await expectReason(user, off.code, 'not_found');
    await expectReason(user, (await createCode(f, { code: fresh('LATER'), percentOff: 10, startsAt: day(2) })).code, 'not_started');
    await expectReason(user, (await createCode(f, { code: fresh('GONE'), percentOff: 10, startsAt: day(-3), endsAt: day(-1) })).code, 'expired');
    await expectReason(user, (await createCode(f, { code: fresh('OTHER'), percentOff: 10, planIds: [f.paidPlanId] })).code, 'not_for_plan');

    const single = await createCode(f, { code: fresh('ONE'), percentOff: 10, maxRedemptions: 1 });
    await f.checkout(other, { planId, promoCode: single.code });
    await expectReason(user, single.code, 'used_up');

    const mine = await createCode(f, { code: fresh('MINE'), percentOff: 10, oncePerCustomer: true });
    await f.checkout(user, { planId, promoCode: mine.code });
    await expectReason(user, mine.code, 'already_used');
    // Another customer may still use it.
    await f.checkout(other, { planId, promoCode: mine.code });

    // A refused code leaves nothing behind, and Russian readers get the reason in Russian.
    const before = await f.count('transactions');
    const ru = await f.t.app.inject({
      method: 'POST',
      url: '/api/checkout',
      headers: { authorization: `Bearer ${user.accessToken}`, 'accept-language': 'ru' },
      payload: { planId, promoCode: 'NO-SUCH-CODE' },
    });
    expect(ru.json()).toEqual({ code: 'promo_invalid', message: 'Такого промокода нет.', reason: 'not_found' });
    expect(await f.count('transactions')).toBe(before);
  });

  it('the last use: two checkouts at once, one gets it; the winner expires unpaid and the use is free again', async () => {
    const planId = await tenDollarPlan(f);
    const code = await createCode(f, { code: fresh('LAST'), amountOff: 300, maxRedemptions: 1 });
    const [a, b] = [await f.newUser(), await f.newUser()];
    const answers = await Promise.all([a, b].map((user) => f.call(user, 'POST', '/api/checkout', { planId, promoCode: code.code })));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 400]);
    const lost = answers.find((res) => res.statusCode === 400)!;
    expect(lost.json()).toMatchObject({ code: 'promo_invalid', reason: 'used_up' });
    const won = answers.find((res) => res.statusCode === 200)!.json();
    expect(f.stripe.getSession(won.sessionId)).toMatchObject({ amount_total: 700, total_details: { amount_discount: 300 } });
    expect(await f.count('promo_redemptions', {})).toBeGreaterThanOrEqual(1);

    await f.stripe.expire(won.sessionId);
    expect((await f.call(f.admin, 'GET', '/api/admin/promo-codes')).json().find((c: { id: string }) => c.id === code.id)).toMatchObject({
      used: 0,
      paidCount: 0,
    });
    const loser = answers[0]!.statusCode === 400 ? a : b;
    const again = await f.checkout(loser, { planId, promoCode: code.code });
    expect(f.stripe.getSession(again.sessionId)?.amount_total).toBe(700);
  });

  it("keeps Stripe's total when Stripe computes the discount otherwise, so the payment matches it", async () => {
    const planId = await tenDollarPlan(f);
    const code = await createCode(f, { code: fresh('ROUND'), percentOff: 20 });
    // The coupon already at Stripe says 21 % (as a rounding that differs from ours would): Stripe charges $7.90.
    const made = await fetch(`${f.stripe.url}/v1/coupons`, {
      method: 'POST',
      headers: { authorization: `Bearer ${STRIPE_KEYS.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id: `vpn_promo_${code.id}`, percent_off: '21', duration: 'once' }),
    });
    expect(made.status).toBe(200);
    const user = await f.newUser();
    const started = await f.checkout(user, { planId, promoCode: code.code });
    expect(f.stripe.getSession(started.sessionId)?.amount_total).toBe(790);
    const db = f.env.database.db;
    expect(await db('transactions').where({ subscription_id: started.subscriptionId }).first()).toMatchObject({ amount: 790 });
    await f.stripe.pay(started.sessionId);
    await f.runJobs();
    expect((await f.call(user, 'GET', '/api/transactions')).json()).toEqual([
      expect.objectContaining({ status: 'succeeded', amount: 790, promo: { code: code.code, amountBefore: 1000, discount: 210 } }),
    ]);
  });

  it('Stripe failing to open the checkout gives the use back at once, with nothing left behind', async () => {
    const planId = await tenDollarPlan(f);
    const code = await createCode(f, { code: fresh('FLAKY'), percentOff: 10, maxRedemptions: 1 });
    const user = await f.newUser();
    f.stripe.failNextCreates(3); // the SDK retries twice
    const res = await f.call(user, 'POST', '/api/checkout', { planId, promoCode: code.code });
    expect(res.statusCode).toBe(502);
    for (const table of ['subscriptions', 'transactions', 'vpn_accounts']) expect(await f.count(table, { user_id: user.userId })).toBe(0);
    expect(await f.count('promo_redemptions', { user_id: user.userId })).toBe(0);
    const again = await f.checkout(user, { planId, promoCode: code.code });
    expect(f.stripe.getSession(again.sessionId)?.amount_total).toBe(900);
  });

  it('ten customers racing for three uses: exactly three checkouts carry the code', async () => {
    const planId = await tenDollarPlan(f);
    const code = await createCode(f, { code: fresh('THREE'), percentOff: 50, maxRedemptions: 3 });
    const users: DesktopSession[] = [];
    for (let i = 0; i < 10; i += 1) users.push(await f.newUser());
    const answers = await Promise.all(users.map((user) => f.call(user, 'POST', '/api/checkout', { planId, promoCode: code.code })));
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((res) => res.statusCode === 400).map((res) => res.json().reason)).toEqual(Array(7).fill('used_up'));
    const codeRow = await f.env.database.db('promo_codes').where({ id: code.id }).first();
    expect(await f.count('promo_redemptions', { promo_code_id: codeRow.id })).toBe(3);
  });

  it('refuses a code that leaves 1 to 49 cents (under what Stripe can charge) with its reason, before Stripe is asked; 50 cents is charged', async () => {
    const planId = await tenDollarPlan(f);
    const user = await f.newUser();
    const sessionsBefore = f.stripe.listSessions().length;
    const transactionsBefore = await f.count('transactions');
    for (const body of [{ amountOff: 970 }, { amountOff: 999 }, { percentOff: 99 }, { percentOff: 96 }]) {
      const code = await createCode(f, { code: fresh('TINY'), ...body });
      for (const url of ['/api/checkout/quote', '/api/checkout']) {
        const res = await f.call(user, 'POST', url, { planId, promoCode: code.code });
        expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json()).toEqual({ code: 'promo_invalid', message: PROMO_MESSAGES.below_minimum, reason: 'below_minimum' });
      }
    }
    const last = await createCode(f, { code: fresh('TINY'), amountOff: 990 });
    const ru = await f.t.app.inject({
      method: 'POST',
      url: '/api/checkout',
      headers: { authorization: `Bearer ${user.accessToken}`, 'accept-language': 'ru' },
      payload: { planId, promoCode: last.code },
    });
    expect(ru.json()).toMatchObject({ code: 'promo_invalid', reason: 'below_minimum', message: expect.stringContaining('минимальной суммы') });
    expect(f.stripe.listSessions()).toHaveLength(sessionsBefore);
    expect(await f.count('transactions')).toBe(transactionsBefore);
    expect(await f.count('promo_redemptions', { promo_code_id: last.id })).toBe(0);

    // Exactly the minimum is charged.
    const fifty = await createCode(f, { code: fresh('FIFTY'), amountOff: 950 });
    expect((await f.call(user, 'POST', '/api/checkout/quote', { planId, promoCode: fifty.code })).json()).toMatchObject({ total: 50, discount: 950 });
    const started = await f.checkout(user, { planId, promoCode: fifty.code });
    expect(f.stripe.getSession(started.sessionId)).toMatchObject({ amount_subtotal: 1000, amount_total: 50 });
  });

  it('a 100 % code on a one-off plan: no payment, the account is made as for a paid one', async () => {
    const planId = await tenDollarPlan(f);
    const code = await createCode(f, { code: fresh('FREE'), percentOff: 100 });
    const user = await f.newUser();
    const sessionsBefore = f.stripe.listSessions().length;
    const started = await f.checkout(user, { planId, promoCode: code.code });
    expect(started).toEqual({
      url: expect.stringMatching(/^http:\/\/localhost:3000\/thank-you\?session_id=free_/),
      sessionId: expect.stringMatching(/^free_/),
      subscriptionId: expect.any(String),
    });
    expect(f.stripe.listSessions()).toHaveLength(sessionsBefore);
    expect((await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json()).toMatchObject({ status: 'succeeded' });
    await f.runJobs();
    expect((await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json()).toMatchObject({
      status: 'succeeded',
      account: { status: 'active', planName: expect.stringMatching(/^Ten /) },
    });
    expect((await f.call(user, 'GET', '/api/transactions')).json()).toEqual([
      expect.objectContaining({ status: 'succeeded', amount: 0, promo: { code: code.code, amountBefore: 1000, discount: 1000 } }),
    ]);
    // Someone else's free order is not found.
    expect((await f.call(await f.newUser(), 'GET', `/api/checkout/${started.sessionId}`)).statusCode).toBe(404);
  });

  it('a forever code on an auto-renewing plan: the first invoice and every renewal are discounted', async () => {
    const code = await createCode(f, { code: fresh('ALWAYS'), percentOff: 20, duration: 'forever', planIds: [f.recurringPlanId] });
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.recurringPlanId, promoCode: code.code });
    const session = f.stripe.getSession(started.sessionId)!;
    expect(session).toMatchObject({ mode: 'subscription', discounts: [{ coupon: `vpn_promo_${code.id}` }] });
    await f.stripe.pay(started.sessionId);
    await f.runJobs();
    const paid = f.stripe.getSession(started.sessionId)!;
    expect(paid.amount_total).toBe(399);
    const stripeSubscription = paid.subscription as string;
    const subscriptions = (await f.call(user, 'GET', '/api/subscriptions')).json();
    expect(subscriptions[0]).toMatchObject({ status: 'active', price: 499, renewalAmount: 399 });

    const s = { stripeSubscription } as Parameters<typeof stripePeriodEnd>[1];
    const clock = f.stripe.getCustomer(paid.customer as string)!.test_clock as string;
    await f.stripe.advanceClock(clock, stripePeriodEnd(f, s) + 2 * 3600);
    await f.runJobs();
    const invoices = f.stripe.listInvoices(stripeSubscription);
    expect(invoices.map((invoice) => [invoice.subtotal, invoice.total, invoice.amount_paid])).toEqual([
      [499, 399, 399],
      [499, 399, 399],
    ]);
    const transactions = (await f.call(user, 'GET', '/api/transactions')).json();
    expect(transactions.map((t: { amount: number; renewal: boolean; promo?: unknown }) => [t.amount, t.renewal, t.promo])).toEqual(
      expect.arrayContaining([
        [399, true, { code: code.code, amountBefore: 499, discount: 100 }],
        [399, false, { code: code.code, amountBefore: 499, discount: 100 }],
      ]),
    );
    expect(transactions).toHaveLength(2);
  });

  it('a once code on an auto-renewing plan: the renewal is charged in full', async () => {
    const code = await createCode(f, { code: fresh('FIRSTONLY'), amountOff: 200, duration: 'once' });
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.recurringPlanId, promoCode: code.code });
    await f.stripe.pay(started.sessionId);
    await f.runJobs();
    const paid = f.stripe.getSession(started.sessionId)!;
    expect(paid.amount_total).toBe(299);
    expect((await f.call(user, 'GET', '/api/subscriptions')).json()[0]).toMatchObject({ renewalAmount: 499 });
    const stripeSubscription = paid.subscription as string;
    const clock = f.stripe.getCustomer(paid.customer as string)!.test_clock as string;
    await f.stripe.advanceClock(clock, stripePeriodEnd(f, { stripeSubscription } as Parameters<typeof stripePeriodEnd>[1]) + 2 * 3600);
    await f.runJobs();
    expect(f.stripe.listInvoices(stripeSubscription).map((invoice) => invoice.amount_paid)).toEqual([299, 499]);
    const renewal = (await f.call(user, 'GET', '/api/transactions')).json().find((t: { renewal: boolean }) => t.renewal);
    expect(renewal).toMatchObject({ renewal: true, amount: 499 });
    expect(renewal.promo).toBeUndefined();
  });
});
