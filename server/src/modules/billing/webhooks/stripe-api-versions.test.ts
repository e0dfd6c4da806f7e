import { afterEach, describe, expect, it } from 'vitest';
import type { SystemStatus } from '../../../../../shared/accounts.js';
import { useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import type { StripeEventObject } from '../../../../test/fake-stripe/index.js';
import type { DesktopSession } from '../../../../test/test-app.js';

const DAY = 24 * 3600;
const GRACE_MS = 3 * DAY * 1000;

interface Subscribed {
  user: DesktopSession;
  subscriptionId: string;
  accountId: string;
  stripeSubscription: string;
  customer: string;
  clock: string;
}

const panelExpiry = (f: BillingFixture, accountId: string) => {
  const found = [...f.panel.users.values()].map(asMarzneshinUser).filter((u) => u.note === accountId);
  expect(found).toHaveLength(1);
  return new Date(`${found[0]!.expire_date}Z`).getTime();
};

/** The end of the Stripe subscription's current period, in seconds (the fake keeps it in the SDK's shape). */
const periodEnd = (f: BillingFixture, s: Subscribed) => f.stripe.getSubscription(s.stripeSubscription)!.items.data[0]!.current_period_end;

async function subscribe(f: BillingFixture): Promise<Subscribed> {
  const user = await f.newUser();
  const { sessionId, subscriptionId } = await f.checkout(user, { planId: f.recurringPlanId });
  await f.stripe.pay(sessionId);
  await f.runJobs();
  const session = f.stripe.getSession(sessionId)!;
  const customer = session.customer as string;
  return {
    user,
    subscriptionId,
    accountId: session.metadata!.vpn_account_id!,
    stripeSubscription: session.subscription as string,
    customer,
    clock: f.stripe.getCustomer(customer)!.test_clock as string,
  };
}

/** Moves the customer's Stripe clock past the period end (the renewal is charged an hour after it); returns the events it made. */
async function renew(f: BillingFixture, s: Subscribed): Promise<StripeEventObject[]> {
  const from = f.stripe.events.length;
  await f.stripe.advanceClock(s.clock, periodEnd(f, s) + 2 * 3600);
  await f.runJobs();
  return f.stripe.events.slice(from);
}

const ourSubscription = async (f: BillingFixture, s: Subscribed) =>
  ((await f.call(s.user, 'GET', '/api/subscriptions')).json() as Array<Record<string, unknown>>).find((entry) => entry.id === s.subscriptionId)!;

/** What the renewal left in our records: the transactions (status, amount, paid with) and the account's paid end. */
async function renewalRecords(f: BillingFixture, s: Subscribed) {
  const rows = await f.env.database
    .db('transactions')
    .where({ subscription_id: s.subscriptionId })
    .orderBy('created_at')
    .select('status', 'amount', 'provider_invoice_id', 'provider_payment_id');
  return rows.map((row) => ({
    status: row.status,
    amount: Number(row.amount),
    paidWith:
      row.provider_payment_id === f.stripe.invoicePaymentIntents(row.provider_invoice_id).at(-1) ? 'the invoice PaymentIntent' : row.provider_payment_id,
  }));
}

const systemAlerts = async (f: BillingFixture) => {
  const res = await f.call(f.admin, 'GET', '/api/admin/system');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SystemStatus).payments.unreadableWebhooks;
};

const deliveryOf = (f: BillingFixture, event: StripeEventObject) => f.stripe.deliveries.filter((d) => d.eventId === event.id).map((d) => d.status);

describe.each(TEST_DATABASES)('Stripe webhook endpoints in another API version (%s)', (kind) => {
  const f = useBillingFixture(kind);
  afterEach(() => f.stripe.setWebhookApiVersion(null));

  it('a subscription whose events come in the 2024-06-20 shape is bought and renewed exactly as one in the current shape', async () => {
    const current = await subscribe(f);
    await renew(f, current);
    f.stripe.setWebhookApiVersion('2024-06-20');
    const old = await subscribe(f);
    const events = await renew(f, old);
    const paid = events.find((e) => e.type === 'invoice.paid')!;
    expect(deliveryOf(f, paid)).toEqual([200]);
    expect(JSON.parse(f.stripe.signedDelivery(paid).body)).toMatchObject({
      api_version: '2024-06-20',
      data: { object: { subscription: old.stripeSubscription, paid: true } },
    });

    for (const s of [current, old]) {
      expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000 + GRACE_MS);
      expect(await renewalRecords(f, s)).toEqual(Array(2).fill({ status: 'succeeded', amount: 499, paidWith: 'the invoice PaymentIntent' }));
      expect(await ourSubscription(f, s)).toMatchObject({ status: 'active', renewsAt: new Date(periodEnd(f, s) * 1000).toISOString() });
    }
    expect(await f.count('webhook_events', { id: paid.id })).toBe(1);
    expect(await systemAlerts(f)).toEqual([]);
  });

  it('a declined renewal in the 2024-06-20 shape: past_due, the failed transaction and its mail', async () => {
    f.stripe.setWebhookApiVersion('2024-06-20');
    const s = await subscribe(f);
    f.stripe.setCardDeclines(s.customer, true);
    const paidEnd = panelExpiry(f, s.accountId);
    const events = await renew(f, s);
    const failed = events.find((e) => e.type === 'invoice.payment_failed')!;
    expect(deliveryOf(f, failed)).toEqual([200]);
    expect(await ourSubscription(f, s)).toMatchObject({ status: 'past_due', graceEndsAt: expect.any(String) });
    expect((await renewalRecords(f, s)).map((t) => t.status)).toEqual(['succeeded', 'failed']);
    expect(panelExpiry(f, s.accountId)).toBe(paidEnd);
    const { email } = await f.env.database.db('user_profiles').where({ id: s.user.userId }).select('email').first();
    expect(f.env.smtp.messages.filter((m) => m.to.includes(email) && /did not go through/i.test(m.subject))).toHaveLength(1);
  });

  it('events in a version too old to read are refused (422), not recorded and shown on the System tab; redelivered once readable, applied once', async () => {
    const s = await subscribe(f);
    const paidEnd = panelExpiry(f, s.accountId);
    f.stripe.setWebhookApiVersion('2023-10-16');
    const events = await renew(f, s);
    const paid = events.find((e) => e.type === 'invoice.paid')!;
    const updated = events.find((e) => e.type === 'customer.subscription.updated')!;
    const created = events.find((e) => e.type === 'invoice.created')!;

    expect(deliveryOf(f, paid)).toEqual([422]);
    expect(deliveryOf(f, updated)).toEqual([422]);
    // An event we do not act on says nothing in any version: acknowledged as before.
    expect(deliveryOf(f, created)).toEqual([200]);
    const refused = events.flatMap((e) => deliveryOf(f, e)).filter((status) => status === 422);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    const { body, signature } = f.stripe.signedDelivery(paid);
    const answer = await f.postWebhook(body, signature);
    expect(answer).toEqual({ status: 422, body: { code: 'unreadable_event', message: expect.stringContaining('2023-10-16') } });
    expect(await f.count('webhook_events', { id: paid.id })).toBe(0);
    expect(await f.count('webhook_events', { id: updated.id })).toBe(0);
    expect(panelExpiry(f, s.accountId)).toBe(paidEnd);
    expect(await f.count('transactions', { subscription_id: s.subscriptionId })).toBe(1);

    const [alert, ...others] = await systemAlerts(f);
    expect(others).toEqual([]);
    expect(alert).toEqual({
      provider: 'stripe',
      apiVersion: '2023-10-16',
      lastEventType: 'invoice.paid',
      lastEventId: paid.id,
      timesSeen: refused.length + 1,
      reason: expect.stringContaining('2024-06-20 or later'),
      firstSeenAt: expect.any(String),
      lastSeenAt: f.t.clock.now().toISOString(),
    });

    // The operator picks a version we read: Stripe delivers the same events again, in it.
    f.stripe.setWebhookApiVersion('2024-06-20');
    for (let i = 0; i < 3; i += 1) {
      expect(await f.stripe.deliver(updated)).toBe(200);
      expect(await f.stripe.deliver(paid)).toBe(200);
    }
    await f.runJobs();
    expect(panelExpiry(f, s.accountId)).toBe(periodEnd(f, s) * 1000 + GRACE_MS);
    expect(panelExpiry(f, s.accountId)).toBeGreaterThan(paidEnd);
    expect(await renewalRecords(f, s)).toEqual(Array(2).fill({ status: 'succeeded', amount: 499, paidWith: 'the invoice PaymentIntent' }));
    expect(await f.count('webhook_events', { id: paid.id })).toBe(1);
    expect(await systemAlerts(f)).toEqual([]);
  });

  it('the same unreadable event racing itself: every copy refused and counted, nothing recorded', async () => {
    const s = await subscribe(f);
    const from = f.stripe.events.length;
    await f.payQuietly(() => f.stripe.advanceClock(s.clock, periodEnd(f, s) + 2 * 3600));
    const paid = f.stripe.events.slice(from).find((e) => e.type === 'invoice.paid')!;
    const { body, signature } = f.stripe.signedDelivery(paid, { apiVersion: '2024-04-10' });
    const answers = await Promise.all(Array.from({ length: 4 }, () => f.postWebhook(body, signature)));
    expect(answers.map((a) => a.status)).toEqual([422, 422, 422, 422]);
    expect(await f.count('webhook_events', { id: paid.id })).toBe(0);
    expect(await systemAlerts(f)).toEqual([expect.objectContaining({ apiVersion: '2024-04-10', timesSeen: 4, lastEventId: paid.id })]);

    // Read in the SDK's version, the alert ends.
    expect(await f.stripe.deliver(paid, { apiVersion: '2025-03-31.basil' })).toBe(200);
    expect(await f.count('webhook_events', { id: paid.id })).toBe(1);
    expect(await systemAlerts(f)).toEqual([]);
  });
});
