import { describe, expect, it } from 'vitest';
import { STRIPE_KEYS, useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import type { StripeEventObject } from '../../../../test/fake-stripe/index.js';
import { stripePeriodEnd, subscribeToRecurring, type Subscriber } from '../../../../test/recurring-subscriber.js';
import { mailParts } from '../../../../test/smtp-catcher.js';
import type { DesktopSession } from '../../../../test/test-app.js';
import { RECONCILE_SUBSCRIPTIONS } from './reconcile-subscriptions.js';
import { createJobsRepo } from '../../../jobs/jobs.repo.js';
import { PROVISION_PAID_ACCOUNT } from '../fulfilment/paid-account-jobs.js';

const DAY = 24 * 3600;

type Subscribed = Subscriber;
const subscribe = subscribeToRecurring;
const periodEnd = stripePeriodEnd;

/** The panel user of an account (its note is our account id). */
function panelUser(f: BillingFixture, accountId: string) {
  const found = [...f.panel.users.values()].map(asMarzneshinUser).filter((u) => u.note === accountId);
  expect(found).toHaveLength(1);
  return found[0]!;
}

const panelExpiry = (f: BillingFixture, accountId: string) => new Date(`${panelUser(f, accountId).expire_date}Z`).getTime();

/** Moves the customer's Stripe clock past the period end (Stripe charges the renewal an hour after it). */
async function renewOnce(f: BillingFixture, s: Subscribed): Promise<void> {
  await f.stripe.advanceClock(s.clock, periodEnd(f, s) + 2 * 3600);
  await f.runJobs();
}

async function ourSubscription(f: BillingFixture, s: Subscribed) {
  const list = (await f.call(s.user, 'GET', '/api/subscriptions')).json() as Array<Record<string, unknown>>;
  return list.find((entry) => entry.id === s.subscriptionId)!;
}

async function mailsTo(f: BillingFixture, user: DesktopSession, subject: RegExp) {
  const { email } = await f.env.database.db('user_profiles').where({ id: user.userId }).select('email').first();
  return f.env.smtp.messages.filter((m) => m.to.includes(email) && subject.test(m.subject));
}

const emailOf = async (f: BillingFixture, user: DesktopSession): Promise<string> =>
  (await f.env.database.db('user_profiles').where({ id: user.userId }).select('email').first()).email;

describe.each(TEST_DATABASES)('auto-renewing subscriptions (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it('a monthly plan renews three times: the same panel account extended each time, 4 payments, 4 receipts', async () => {
    const s = await subscribe(f);
    const first = (await f.call(s.user, 'GET', '/api/accounts')).json();
    expect(first).toEqual([expect.objectContaining({ id: s.accountId, status: 'active' })]);
    const grace = 3 * DAY * 1000;
    expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000 + grace);
    expect(await ourSubscription(f, s)).toMatchObject({
      status: 'active',
      billing: 'recurring',
      autoRenews: true,
      renewsAt: new Date(periodEnd(f, s) * 1000).toISOString(),
      renewalAmount: 499,
      cancelAtPeriodEnd: false,
    });

    for (let renewal = 1; renewal <= 3; renewal += 1) {
      const before = panelExpiry(f, s.accountId);
      await renewOnce(f, s);
      expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000 + grace);
      expect(panelExpiry(f, s.accountId)).toBeGreaterThan(before);
    }
    expect(f.panel.users.size).toBeGreaterThan(0);
    expect([...f.panel.users.values()].filter((u) => asMarzneshinUser(u).note === s.accountId)).toHaveLength(1);
    const history = (await f.call(s.user, 'GET', '/api/transactions')).json();
    expect(history).toHaveLength(4);
    expect(history.map((t: { status: string; amount: number }) => [t.status, t.amount])).toEqual(Array(4).fill(['succeeded', 499]));
    expect(history.filter((t: { renewal: boolean }) => t.renewal)).toHaveLength(3);
    expect(await f.count('subscriptions', { user_id: s.user.userId })).toBe(1);
    expect(await mailsTo(f, s.user, /receipt/i)).toHaveLength(4);
    expect(f.stripe.listInvoices(s.stripeSubscription).filter((i) => i.status === 'paid')).toHaveLength(4);
  });

  it('every event delivered 3 times and in reverse order: each period applied once', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.recurringPlanId });
    const from = f.stripe.events.length;
    await f.payQuietly(() => f.stripe.pay(sessionId));
    const checkoutEvents = f.stripe.events.slice(from);
    // Reversed: checkout.session.completed first, subscription.updated before invoice.paid, and so on.
    for (const event of [...checkoutEvents].reverse()) for (let i = 0; i < 3; i += 1) expect(await f.stripe.deliver(event)).toBe(200);
    await f.runJobs();
    const session = f.stripe.getSession(sessionId)!;
    const s: Subscribed = {
      user,
      sessionId,
      subscriptionId: session.metadata!.subscription_id!,
      accountId: session.metadata!.vpn_account_id!,
      stripeSubscription: session.subscription as string,
      customer: session.customer as string,
      clock: f.stripe.getCustomer(session.customer as string)!.test_clock as string,
    };
    expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000 + 3 * DAY * 1000);

    const renewalFrom = f.stripe.events.length;
    await f.payQuietly(() => f.stripe.advanceClock(s.clock, periodEnd(f, s) + 2 * 3600));
    const renewalEvents = f.stripe.events.slice(renewalFrom);
    expect(renewalEvents.map((e) => e.type)).toContain('invoice.paid');
    for (const event of [...renewalEvents].reverse()) for (let i = 0; i < 3; i += 1) expect(await f.stripe.deliver(event)).toBe(200);
    await f.runJobs();
    expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000 + 3 * DAY * 1000);
    expect(await f.count('transactions', { subscription_id: s.subscriptionId, status: 'succeeded' })).toBe(2);
    const paidIds = (await f.env.database.db('transactions').where({ subscription_id: s.subscriptionId }).select('id')).map(
      (row) => `${PROVISION_PAID_ACCOUNT}:${row.id as string}`,
    );
    expect(await f.env.database.db('jobs').whereIn('dedupe_key', paidIds).count({ n: '*' }).first()).toMatchObject({ n: expect.anything() });
    expect(Number((await f.env.database.db('jobs').whereIn('dedupe_key', paidIds).count({ n: '*' }).first())?.n)).toBe(2);
    expect(await mailsTo(f, user, /receipt/i)).toHaveLength(2);
  });

  it('the same renewal racing: webhooks, the return check and the reconcile job at once apply it once', async () => {
    const s = await subscribe(f);
    const from = f.stripe.events.length;
    await f.payQuietly(() => f.stripe.advanceClock(s.clock, periodEnd(f, s) + 2 * 3600));
    const paid = f.stripe.events.slice(from).find((e) => e.type === 'invoice.paid') as StripeEventObject;
    const { body, signature } = f.stripe.signedDelivery(paid);
    const jobs = createJobsRepo(f.env.database.db);
    await jobs.enqueue({ type: RECONCILE_SUBSCRIPTIONS, payload: {}, dedupeKey: `test-reconcile-${s.subscriptionId}` }, f.t.clock.now());
    const results = await Promise.all([
      f.postWebhook(body, signature),
      f.postWebhook(body, signature),
      f.runJobs(),
      f.postWebhook(body, signature),
      f.call(s.user, 'GET', `/api/checkout/${s.sessionId}`),
    ]);
    expect(results.slice(0, 2).map((r) => (r as { status: number }).status)).toEqual([200, 200]);
    await f.runJobs();
    expect(await f.count('transactions', { subscription_id: s.subscriptionId, status: 'succeeded' })).toBe(2);
    expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000 + 3 * DAY * 1000);
  });

  it('a renewal whose webhooks never arrived is recovered by the reconcile job', async () => {
    const s = await subscribe(f);
    const before = panelExpiry(f, s.accountId);
    await f.payQuietly(() => f.stripe.advanceClock(s.clock, periodEnd(f, s) + 2 * 3600));
    await f.runJobs();
    expect(panelExpiry(f, s.accountId)).toBe(before);
    // Our clock reaches the period end the Stripe clock has passed; the reconcile pass reads the subscription.
    f.t.clock.advance(40 * DAY);
    try {
      await createJobsRepo(f.env.database.db).enqueue(
        { type: RECONCILE_SUBSCRIPTIONS, payload: {}, dedupeKey: `test-reconcile-lost-${s.subscriptionId}` },
        f.t.clock.now(),
      );
      await f.runJobs();
    } finally {
      f.t.clock.advance(-40 * DAY);
    }
    expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000 + 3 * DAY * 1000);
    expect(await f.count('transactions', { subscription_id: s.subscriptionId, status: 'succeeded' })).toBe(2);
  });

  it('a declined renewal: past_due and a mail; paused after the grace period; fixing the card enables and extends it', async () => {
    const s = await subscribe(f);
    f.stripe.setCardDeclines(s.customer, true);
    const paidEnd = periodEnd(f, s);
    await renewOnce(f, s);
    expect(await ourSubscription(f, s)).toMatchObject({ status: 'past_due', autoRenews: true, graceEndsAt: expect.any(String) });
    expect(await mailsTo(f, s.user, /did not go through/i)).toHaveLength(1);
    expect(panelUser(f, s.accountId).enabled).toBe(true);
    const history = (await f.call(s.user, 'GET', '/api/transactions')).json();
    expect(history.map((t: { status: string }) => t.status).sort()).toEqual(['failed', 'succeeded']);

    // The grace period (3 days from the failed charge) ends: the account is paused, once, with a mail.
    f.t.clock.advance(3 * DAY + 60);
    await f.runJobs();
    expect(panelUser(f, s.accountId).enabled).toBe(false);
    expect(await mailsTo(f, s.user, /paused/i)).toHaveLength(1);

    // The customer fixes the card in the portal: the open invoice is paid, the account runs again, extended.
    const { user } = s;
    const portal = await f.call(user, 'POST', '/api/billing/portal');
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().url).toContain('/p/session/');
    // In the customer's language once they chose one Stripe has, and back to their dashboard in it.
    expect((await f.call(user, 'PATCH', '/api/me', { locale: 'ru' })).statusCode).toBe(200);
    const russian = await (await fetch((await f.call(user, 'POST', '/api/billing/portal')).json().url)).text();
    expect(russian).toContain('Page language: ru');
    expect(russian).toMatch(/href="http[^"]*\/ru\/dashboard"/);
    f.stripe.setCardDeclines(s.customer, false);
    await f.stripe.payOpenInvoices(s.customer);
    await f.runJobs();
    expect(panelUser(f, s.accountId).enabled).toBe(true);
    expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000 + 3 * DAY * 1000);
    expect(periodEnd(f, s)).toBeGreaterThan(paidEnd);
    expect(await ourSubscription(f, s)).toMatchObject({ status: 'active', graceEndsAt: null });
    expect((await f.call(user, 'GET', '/api/transactions')).json().map((t: { status: string }) => t.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('cancel at period end: no further invoice, the account ends at the paid end; resume before then restores renewal', async () => {
    const s = await subscribe(f);
    const cancel = await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ cancelAtPeriodEnd: true, canceledAt: expect.any(String), autoRenews: false, renewsAt: null });
    expect(f.stripe.getSubscription(s.stripeSubscription)!.cancel_at_period_end).toBe(true);
    await f.runJobs();
    // Auto-renew off: no grace any more, the account runs to the paid end.
    expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000);
    expect(await mailsTo(f, s.user, /cancel/i)).toHaveLength(1);

    const resume = await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`);
    expect(resume.statusCode, resume.body).toBe(200);
    expect(resume.json()).toMatchObject({ cancelAtPeriodEnd: false, canceledAt: null, autoRenews: true });
    expect(f.stripe.getSubscription(s.stripeSubscription)!.cancel_at_period_end).toBe(false);
    await f.runJobs();
    expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000 + 3 * DAY * 1000);

    expect((await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`)).statusCode).toBe(200);
    const end = periodEnd(f, s);
    await f.stripe.advanceClock(s.clock, end + 2 * 3600);
    await f.runJobs();
    expect(f.stripe.getSubscription(s.stripeSubscription)!.status).toBe('canceled');
    expect(f.stripe.listInvoices(s.stripeSubscription)).toHaveLength(1);
    expect(await ourSubscription(f, s)).toMatchObject({ status: 'canceled', autoRenews: false });
    expect(panelExpiry(f, s.accountId)).toBe(end * 1000);
    const again = await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'not_renewing' });
  });

  it("controls: someone else's subscription is a 404, a one-off one a 409, signed out a 401; the portal needs a card on file", async () => {
    const s = await subscribe(f);
    const stranger = await f.newUser();
    for (const action of ['cancel', 'resume']) {
      const res = await f.call(stranger, 'POST', `/api/subscriptions/${s.subscriptionId}/${action}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      expect((await f.call(null, 'POST', `/api/subscriptions/${s.subscriptionId}/${action}`)).statusCode).toBe(401);
    }
    expect((await f.call(null, 'POST', '/api/billing/portal')).statusCode).toBe(401);
    const noCard = await f.call(stranger, 'POST', '/api/billing/portal');
    expect(noCard.statusCode).toBe(409);
    expect(noCard.json()).toMatchObject({ code: 'no_billing_account' });

    const { subscriptionId: oneOff, sessionId } = await f.checkout(stranger, { planId: f.paidPlanId });
    await f.stripe.pay(sessionId);
    const refused = await f.call(stranger, 'POST', `/api/subscriptions/${oneOff}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'not_recurring' });
    // An account that renews by itself has nothing to pay now.
    const renew = await f.call(s.user, 'POST', '/api/checkout', { accountId: s.accountId });
    expect(renew.statusCode).toBe(409);
    expect(renew.json()).toMatchObject({ code: 'already_renews' });
  });

  it('one Stripe customer per user, reused; a changed price makes a new Price and existing subscribers keep theirs', async () => {
    const user = await f.newUser();
    const a = await f.checkout(user, { planId: f.recurringPlanId });
    const b = await f.checkout(user, { planId: f.recurringPlanId });
    expect(f.stripe.getSession(a.sessionId)!.customer).toBe(f.stripe.getSession(b.sessionId)!.customer);
    expect(await f.count('payment_customers', { user_id: user.userId })).toBe(1);
    const s = await subscribe(f, user);
    const oldPrice = f.stripe.getSubscription(s.stripeSubscription)!.items.data[0]!.price.id;

    const changed = await f.call(f.admin, 'PATCH', `/api/admin/plans/${f.recurringPlanId}`, { price: 599, name: 'Plus Auto Plus' });
    expect(changed.statusCode, changed.body).toBe(200);
    // Saving the plan brings Stripe in step before anyone buys: the product renamed, a new price beside the old one.
    await f.runJobs();
    const stripeGet = async (path: string): Promise<{ data?: unknown; name?: string }> =>
      (await fetch(`${f.stripe.url}${path}`, { headers: { authorization: `Bearer ${STRIPE_KEYS.secretKey}` } })).json() as { data?: unknown; name?: string };
    const product = `vpn_plan_${f.recurringPlanId.replace(/[^A-Za-z0-9_-]/g, '')}`;
    expect(await stripeGet(`/v1/products/${product}`)).toMatchObject({ name: 'Plus Auto Plus' });
    const prices = (await stripeGet(`/v1/prices?product=${product}&limit=100`)).data as Array<{ unit_amount: number; active: boolean }>;
    expect(prices.map((p) => p.unit_amount).sort()).toEqual([499, 599]);
    const other = await subscribe(f);
    const newPrice = f.stripe.getSubscription(other.stripeSubscription)!.items.data[0]!.price;
    expect(newPrice.id).not.toBe(oldPrice);
    expect(newPrice.unit_amount).toBe(599);
    await renewOnce(f, s);
    const renewed = (await f.call(user, 'GET', '/api/transactions'))
      .json()
      .filter((t: { subscriptionId: string; status: string }) => t.subscriptionId === s.subscriptionId && t.status === 'succeeded');
    expect(renewed.map((t: { amount: number }) => t.amount)).toEqual([499, 499]);
    await f.call(f.admin, 'PATCH', `/api/admin/plans/${f.recurringPlanId}`, { price: 499, name: 'Plus Auto' });
  });

  it('the admin lists recurring subscriptions, cancels one now, and sees the recurring figures', async () => {
    const s = await subscribe(f);
    expect((await f.call(s.user, 'GET', '/api/admin/subscriptions')).statusCode).toBe(403);
    expect((await f.call(null, 'GET', '/api/admin/subscriptions')).statusCode).toBe(401);
    const email = await emailOf(f, s.user);
    const listed = await f.call(f.admin, 'GET', `/api/admin/subscriptions?email=${encodeURIComponent(email)}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([expect.objectContaining({ id: s.subscriptionId, userEmail: email, status: 'active', autoRenews: true })]);
    const system = (await f.call(f.admin, 'GET', '/api/admin/system')).json();
    expect(system.payments.recurring).toMatchObject({ activeRecurring: expect.any(Number), monthlyRecurringRevenue: expect.any(Number), currency: 'usd' });
    expect(system.payments.recurring.monthlyRecurringRevenue).toBeGreaterThanOrEqual(499);

    expect((await f.call(f.admin, 'POST', `/api/admin/subscriptions/${s.subscriptionId}/cancel`, { when: 'sometime' })).statusCode).toBe(400);
    expect((await f.call(s.user, 'POST', `/api/admin/subscriptions/${s.subscriptionId}/cancel`, { when: 'now' })).statusCode).toBe(403);
    expect((await f.call(f.admin, 'POST', '/api/admin/subscriptions/nope/cancel', { when: 'now' })).statusCode).toBe(404);
    const now = await f.call(f.admin, 'POST', `/api/admin/subscriptions/${s.subscriptionId}/cancel`, { when: 'now' });
    expect(now.statusCode, now.body).toBe(200);
    expect(now.json()).toMatchObject({ status: 'canceled', autoRenews: false });
    expect(f.stripe.getSubscription(s.stripeSubscription)!.status).toBe('canceled');
    await f.runJobs();
    // Ended now, but what was paid runs to its end.
    expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000);
    expect(panelUser(f, s.accountId).enabled).toBe(true);
    expect(await mailsTo(f, s.user, /cancel/i)).toHaveLength(1);
  });

  it('a full refund of a renewal takes its period off the same account and ends the subscription at Stripe: nothing more is charged', async () => {
    const s = await subscribe(f);
    const firstEnd = periodEnd(f, s);
    await renewOnce(f, s);
    const renewal = (await f.call(s.user, 'GET', '/api/transactions')).json().find((t: { renewal: boolean }) => t.renewal);
    const refund = await f.call(f.admin, 'POST', `/api/admin/transactions/${renewal.id}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(200);
    await f.runJobs();
    expect((await f.call(s.user, 'GET', '/api/transactions')).json().find((t: { id: string }) => t.id === renewal.id)).toMatchObject({ status: 'refunded' });
    expect(f.stripe.getSubscription(s.stripeSubscription)!.status).toBe('canceled');
    expect(await ourSubscription(f, s)).toMatchObject({
      status: 'canceled',
      autoRenews: false,
      renewsAt: null,
      currentPeriodEnd: new Date(firstEnd * 1000).toISOString(),
    });
    // What is still paid (the first period), without the grace a renewing subscription gets.
    expect(panelExpiry(f, s.accountId)).toBe(firstEnd * 1000);

    const invoices = f.stripe.listInvoices(s.stripeSubscription).length;
    await f.stripe.advanceClock(s.clock, firstEnd + 40 * DAY);
    await f.runJobs();
    expect(f.stripe.listInvoices(s.stripeSubscription)).toHaveLength(invoices);
    expect((await f.call(s.user, 'GET', '/api/transactions')).json()).toHaveLength(2);
  });

  it('a partial refund of the first payment leaves the subscription running; refunding the rest ends it at Stripe and the account', async () => {
    const s = await subscribe(f);
    const [first] = (await f.call(s.user, 'GET', '/api/transactions')).json() as Array<{ id: string }>;
    const part = await f.call(f.admin, 'POST', `/api/admin/transactions/${first!.id}/refund`, { amount: 100 });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({ status: 'succeeded', amountRefunded: 100, refundable: true });
    await f.runJobs();
    expect(f.stripe.getSubscription(s.stripeSubscription)!.status).toBe('active');
    expect(await ourSubscription(f, s)).toMatchObject({ status: 'active', autoRenews: true });
    expect(panelUser(f, s.accountId).enabled).toBe(true);

    const rest = await f.call(f.admin, 'POST', `/api/admin/transactions/${first!.id}/refund`, {});
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ status: 'refunded', amountRefunded: 499, refundable: false });
    await f.runJobs();
    expect(f.stripe.getSubscription(s.stripeSubscription)!.status).toBe('canceled');
    expect(await ourSubscription(f, s)).toMatchObject({ status: 'canceled', autoRenews: false, renewsAt: null });
    expect(panelUser(f, s.accountId).enabled).toBe(false);
    expect(
      f.stripe
        .listRefunds()
        .filter((r) => r.metadata?.transaction_id === first!.id)
        .map((r) => r.amount)
        .sort((a, b) => a - b),
    ).toEqual([100, 399]);
    const mails = await mailsTo(f, s.user, /refunded/);
    expect(mails).toHaveLength(2);
    expect(mailParts(mails.find((m) => /: your payment was refunded/.test(m.subject))!).text).toMatch(
      /subscription has ended with this refund: nothing more will be charged/,
    );
  });

  it('deleting an account ends its subscription at Stripe first; when Stripe refuses, the account stays', async () => {
    const s = await subscribe(f);
    // Stripe refuses every call for a moment (the key was rolled there and not yet here).
    f.stripe.rollSecretKey('sk_test_unreachable0123456789');
    try {
      const refused = await f.call(s.user, 'DELETE', `/api/accounts/${s.accountId}`);
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'payment_provider_error' });
    } finally {
      f.stripe.rollSecretKey(STRIPE_KEYS.secretKey);
    }
    expect(await f.count('vpn_accounts', { id: s.accountId })).toBe(1);
    expect(f.stripe.getSubscription(s.stripeSubscription)!.status).toBe('active');

    const deleted = await f.call(s.user, 'DELETE', `/api/accounts/${s.accountId}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(f.stripe.getSubscription(s.stripeSubscription)!.status).toBe('canceled');
    expect(await f.env.database.db('subscriptions').where({ id: s.subscriptionId }).first()).toMatchObject({ status: 'canceled' });
  });

  it('plans: billing is one_off unless recurring is asked for, and a recurring plan must be able to renew', async () => {
    const plain = await f.call(f.admin, 'POST', '/api/admin/plans', { name: 'Plain', days: 30, dataLimitBytes: 1024 ** 3, price: 100 });
    expect(plain.json()).toMatchObject({ billing: 'one_off' });
    const hours = await f.call(f.admin, 'POST', '/api/admin/plans', { name: 'Hours', days: 0.5, dataLimitBytes: 1024 ** 3, price: 100, billing: 'recurring' });
    expect(hours.statusCode).toBe(400);
    expect(hours.json()).toMatchObject({ code: 'validation_failed' });
    const free = await f.call(f.admin, 'POST', '/api/admin/plans', { name: 'Free', days: 30, dataLimitBytes: 1024 ** 3, price: 0, billing: 'recurring' });
    expect(free.statusCode).toBe(400);
    const toRecurring = await f.call(f.admin, 'PATCH', `/api/admin/plans/${plain.json().id}`, { billing: 'recurring' });
    expect(toRecurring.json()).toMatchObject({ billing: 'recurring' });
    expect((await f.call(f.admin, 'PATCH', `/api/admin/plans/${plain.json().id}`, { days: 0.25 })).statusCode).toBe(400);
    expect((await f.call(f.admin, 'PATCH', `/api/admin/plans/${plain.json().id}`, { billing: 'weekly' })).statusCode).toBe(400);
    const listed = (await f.call(null, 'GET', '/api/plans')).json();
    expect(listed.find((p: { id: string }) => p.id === plain.json().id)).toMatchObject({ billing: 'recurring' });
    await f.call(f.admin, 'PATCH', `/api/admin/plans/${plain.json().id}`, { status: 'disabled' });
  });
});
