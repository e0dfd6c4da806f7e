import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { startFakeBtcpay, type FakeBtcpay } from '../../../../test/fake-btcpay/index.js';
import { startFakeStripe, type FakeStripe } from '../../../../test/fake-stripe/index.js';
import { panelExpiryOf, stripePeriodEnd, subscribeToRecurring, type Subscriber } from '../../../../test/recurring-subscriber.js';
import { signInDesktop } from '../../../../test/test-app.js';
import { RECONCILE_SUBSCRIPTIONS } from '../recurring/reconcile-subscriptions.js';
import { createJobsRepo } from '../../../jobs/jobs.repo.js';
import { createStripeDrivers, legacyCustomerKeyOf, type StripeDriverFactory } from '../../../payments/stripe/stripe-driver.js';

/** A second Stripe account (its own fake): keys the admin switches to. */
const SECOND_KEYS = { publishableKey: 'pk_test_secondAccount', secretKey: 'sk_test_secondAccount0123456789', webhookSecret: 'whsec_secondAccount0123456789' };
/** The first account's key after it is rolled in its Dashboard (same account, new key). */
const ROLLED_FIRST_KEY = 'sk_test_fixtureRolled0123456789';

/**
 * The app's Stripe drivers reach the fake that holds the key's account: the fixture's fake for the first
 * account's keys, the second fake for the second's (as Stripe routes a key to its account).
 */
function twoAccountDrivers(first: () => FakeStripe, second: () => FakeStripe): StripeDriverFactory {
  const byUrl = new Map<string, StripeDriverFactory>();
  const at = (url: string) => byUrl.get(url) ?? byUrl.set(url, createStripeDrivers(url, { testClocks: true })).get(url)!;
  return (credentials) => at((credentials.secretKey.startsWith('sk_test_second') ? second() : first()).url)(credentials);
}

const webhookUrlOf = (f: BillingFixture) => {
  const address = f.t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('app is not listening');
  return `http://127.0.0.1:${address.port}/api/webhooks/stripe`;
};

async function providerAccountOf(f: BillingFixture, table: 'subscriptions' | 'transactions', where: Record<string, unknown>) {
  const row = await f.env.database
    .db(`${table} as x`)
    .leftJoin('provider_accounts as pa', 'pa.id', 'x.provider_account_id')
    .where(where)
    .select('pa.account_ref')
    .first();
  return row?.account_ref as string | null | undefined;
}

describe.each(TEST_DATABASES)('payments tied to the Stripe account that took them (%s)', (kind) => {
  let second: FakeStripe;
  const f = useBillingFixture(kind, {
    overrides: () => ({
      stripeDrivers: twoAccountDrivers(
        () => f.stripe,
        () => second,
      ),
    }),
  });
  let s: Subscriber;
  let admin: Awaited<ReturnType<typeof signInDesktop>>;

  beforeAll(async () => {
    second = await startFakeStripe({ secretKey: SECOND_KEYS.secretKey, webhookSecret: SECOND_KEYS.webhookSecret });
    second.setWebhookUrl(webhookUrlOf(f));
  });
  afterAll(async () => {
    await second?.close();
  });

  const accounts = async () => (await f.call(admin, 'GET', '/api/admin/payments/accounts')).json() as Array<Record<string, unknown>>;
  const portal = async () => f.call(s.user, 'POST', '/api/billing/portal');

  it('a subscription and its payment record the account that took them', async () => {
    expect(f.stripe.accountId).not.toBe(second.accountId);
    s = await subscribeToRecurring(f);
    admin = f.admin;
    expect(await providerAccountOf(f, 'subscriptions', { 'x.id': s.subscriptionId })).toBe(f.stripe.accountId);
    expect(await providerAccountOf(f, 'transactions', { 'x.subscription_id': s.subscriptionId })).toBe(f.stripe.accountId);
    expect(await f.env.database.db('payment_customers').where({ user_id: s.user.userId }).select('provider_key')).toEqual([
      { provider_key: `stripe:${f.stripe.accountId}` },
    ]);
  });

  it('rolling the key of the same account changes nothing for customers: no second account, the same customer, the portal opens', async () => {
    f.stripe.rollSecretKey(ROLLED_FIRST_KEY);
    expect((await f.call(admin, 'PUT', '/api/admin/payments/card', { secretKey: ROLLED_FIRST_KEY })).statusCode).toBe(200);
    expect(await accounts()).toEqual([
      expect.objectContaining({ method: 'card', account: f.stripe.accountId, inForce: true, liveSubscriptions: 1, renewingSubscriptions: 1 }),
    ]);
    const opened = await portal();
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().url).toContain(f.stripe.url);
    // A second recurring purchase by the same customer reuses the Stripe customer.
    const { sessionId } = await f.checkout(s.user, { planId: f.recurringPlanId });
    expect(f.stripe.getSession(sessionId)!.customer).toBe(s.customer);
    expect(await f.count('payment_customers', { user_id: s.user.userId })).toBe(1);
    await f.stripe.expire(sessionId);
    await f.runJobs();
  });

  it('keys of a second account: new checkouts go there, while the first account renews, refunds and opens the portal for its subscription', async () => {
    const saved = await f.call(admin, 'PUT', '/api/admin/payments/card', { enabled: true, ...SECOND_KEYS });
    expect(saved.statusCode, saved.body).toBe(200);

    // A new checkout is made at the second account and confirmed by its webhook.
    const buyer = await f.newUser();
    const { sessionId } = await f.checkout(buyer, { planId: f.paidPlanId });
    expect(f.stripe.getSession(sessionId)).toBeUndefined();
    await second.pay(sessionId);
    await f.runJobs();
    expect(second.deliveries.every((d) => d.status === 200)).toBe(true);
    expect((await f.call(buyer, 'GET', '/api/transactions')).json()).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    expect(await providerAccountOf(f, 'transactions', { 'x.provider_transaction_id': sessionId })).toBe(second.accountId);

    // The first account's renewal: invoice.paid signed with its own webhook secret extends the account.
    const before = panelExpiryOf(f, s.accountId);
    const delivered = f.stripe.deliveries.length;
    await f.stripe.advanceClock(s.clock, stripePeriodEnd(f, s) + 2 * 3600);
    await f.runJobs();
    expect(f.stripe.deliveries.slice(delivered).map((d) => d.status)).toEqual(expect.arrayContaining([200]));
    expect(f.stripe.deliveries.slice(delivered).filter((d) => d.status !== 200)).toEqual([]);
    expect(panelExpiryOf(f, s.accountId)).toBeGreaterThan(before);
    const payments = await f.env.database
      .db('transactions')
      .where({ subscription_id: s.subscriptionId })
      .select('id', 'status', 'provider_payment_id')
      .orderBy('created_at', 'asc');
    expect(payments).toHaveLength(2);
    const renewal = payments[1];
    expect(renewal).toMatchObject({ status: 'succeeded' });
    expect(await providerAccountOf(f, 'transactions', { 'x.id': renewal.id })).toBe(f.stripe.accountId);

    // A partial refund of the renewal reaches the first account (with its rolled key); the subscription runs on.
    const refunded = await f.call(admin, 'POST', `/api/admin/transactions/${renewal.id}/refund`, { amount: 100 });
    expect(refunded.statusCode, refunded.body).toBe(200);
    await f.runJobs();
    expect(f.stripe.listRefunds()).toEqual([expect.objectContaining({ payment_intent: renewal.provider_payment_id, amount: 100 })]);
    expect(second.listRefunds()).toEqual([]);

    // Its owner's billing portal opens at the first account.
    const opened = await portal();
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().url).toContain(f.stripe.url);

    // Reconcile reads it from the first account: the read works.
    await createJobsRepo(f.env.database.db).enqueue(
      { type: RECONCILE_SUBSCRIPTIONS, payload: {}, dedupeKey: `test-reconcile-${s.subscriptionId}` },
      f.t.clock.now(),
    );
    await f.runJobs();
    const listed = (await f.call(admin, 'GET', '/api/admin/subscriptions?limit=500')).json() as Array<{
      id: string;
      providerRead: { failures: number; lastReadAt: string | null } | null;
    }>;
    expect(listed.find((entry) => entry.id === s.subscriptionId)?.providerRead).toMatchObject({ failures: 0, lastReadAt: expect.any(String) });
  });

  it('the admin sees the first account still billing 1 subscription, and ends it at period end there', async () => {
    const listed = await accounts();
    const first = listed.find((a) => a.account === f.stripe.accountId)!;
    const current = listed.find((a) => a.account === second.accountId)!;
    expect(first).toMatchObject({ method: 'card', inForce: false, liveSubscriptions: 1, renewingSubscriptions: 1 });
    expect(current).toMatchObject({ method: 'card', inForce: true, liveSubscriptions: 0, renewingSubscriptions: 0 });

    // Not the account in force, not a stranger, not signed out, not an unknown account.
    const endAt = (id: unknown) => `/api/admin/payments/accounts/${String(id)}/end-subscriptions`;
    expect((await f.call(admin, 'POST', endAt(current.id), { when: 'period_end' })).statusCode).toBe(409);
    expect((await f.call(s.user, 'POST', endAt(first.id), { when: 'period_end' })).statusCode).toBe(403);
    expect((await f.call(null, 'POST', endAt(first.id), { when: 'period_end' })).statusCode).toBe(401);
    expect((await f.call(admin, 'POST', endAt('00000000-0000-4000-8000-000000000000'), { when: 'period_end' })).statusCode).toBe(404);
    expect((await f.call(admin, 'POST', endAt(first.id), { when: 'someday' })).statusCode).toBe(400);
    expect(f.stripe.getSubscription(s.stripeSubscription)!.cancel_at_period_end).toBe(false);

    const ended = await f.call(admin, 'POST', endAt(first.id), { when: 'period_end' });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ ended: 1, failed: 0, account: { id: first.id, liveSubscriptions: 1, renewingSubscriptions: 0 } });
    expect(f.stripe.getSubscription(s.stripeSubscription)!.cancel_at_period_end).toBe(true);
    expect(await f.env.database.db('subscriptions').where({ id: s.subscriptionId }).first()).toMatchObject({ status: 'active' });
    expect(await f.count('audit_log', { action: 'payments.account.end_subscriptions', target_id: first.id })).toBe(1);
  });

  it('a webhook signed with a secret of no known account is refused with 400, recording nothing', async () => {
    await f.stripe.waitForDeliveries();
    const event = f.stripe.events.at(-1)!;
    const events = await f.count('webhook_events');
    const forged = f.stripe.signedDelivery({ ...event, id: 'evt_forged' }, { secret: 'whsec_unknownAccount0123456789' });
    const res = await f.postWebhook(forged.body, forged.signature);
    expect(res).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
    expect(await f.count('webhook_events')).toBe(events);
    expect(await f.count('webhook_events', { id: 'evt_forged' })).toBe(0);
  });

  it('payments and customers from before accounts were recorded are named for the account in force, once it is read', async () => {
    // As left by an earlier version: no account on the rows, the customer under the key's fingerprint.
    const buyer = await f.newUser();
    const { sessionId, subscriptionId } = await f.checkout(buyer, { planId: f.recurringPlanId });
    await second.pay(sessionId);
    await f.runJobs();
    const db = f.env.database.db;
    await db('subscriptions').where({ id: subscriptionId }).update({ provider_account_id: null });
    await db('transactions').where({ subscription_id: subscriptionId }).update({ provider_account_id: null });
    await db('payment_customers')
      .where({ user_id: buyer.userId })
      .update({ provider_key: legacyCustomerKeyOf(SECOND_KEYS.secretKey) });
    await f.restart();
    second.setWebhookUrl(webhookUrlOf(f));

    const opened = await f.call(buyer, 'POST', '/api/billing/portal');
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().url).toContain(second.url);
    expect(await db('payment_customers').where({ user_id: buyer.userId }).select('provider_key')).toEqual([{ provider_key: `stripe:${second.accountId}` }]);
    expect(await providerAccountOf(f, 'subscriptions', { 'x.id': subscriptionId })).toBe(second.accountId);
    expect(await providerAccountOf(f, 'transactions', { 'x.subscription_id': subscriptionId })).toBe(second.accountId);
    // The first account's rows keep their own account.
    expect(await providerAccountOf(f, 'subscriptions', { 'x.id': s.subscriptionId })).toBe(f.stripe.accountId);
  });

  it('checkouts racing right after a restart record the account once and each names it', async () => {
    await f.restart();
    second.setWebhookUrl(webhookUrlOf(f));
    const buyers = await Promise.all([f.newUser(), f.newUser(), f.newUser()]);
    const started = await Promise.all(buyers.map((buyer) => f.call(buyer, 'POST', '/api/checkout', { planId: f.recurringPlanId })));
    expect(started.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    expect(await f.count('provider_accounts', { provider: 'stripe' })).toBe(2);
    for (const res of started) {
      expect(await providerAccountOf(f, 'subscriptions', { 'x.id': res.json().subscriptionId })).toBe(second.accountId);
    }
  });
});

const FIRST_STORE = { apiKey: 'first-store-api-key-0123456789', storeId: 'FirstStore', webhookSecret: 'first-store-webhook-secret' };
const SECOND_STORE = { apiKey: 'second-store-api-key-0123456789', storeId: 'SecondStore', webhookSecret: 'second-store-webhook-secret' };

describe.each(TEST_DATABASES)('crypto payments tied to the BTCPay store that took them (%s)', (kind) => {
  const f = useBillingFixture(kind);
  let first: FakeBtcpay;
  let second: FakeBtcpay;
  const btcpayWebhookUrl = () => webhookUrlOf(f).replace(/stripe$/, 'btcpay');
  const useStore = async (store: FakeBtcpay, keys: typeof FIRST_STORE) => {
    const saved = await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', { enabled: true, serverUrl: store.url, ...keys });
    expect(saved.statusCode, saved.body).toBe(200);
  };
  const cryptoCheckout = (user: Awaited<ReturnType<BillingFixture['newUser']>>) =>
    f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'crypto' });

  beforeAll(async () => {
    first = await startFakeBtcpay(FIRST_STORE);
    second = await startFakeBtcpay(SECOND_STORE);
    first.setWebhookUrl(btcpayWebhookUrl());
    second.setWebhookUrl(btcpayWebhookUrl());
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('another store in force: an invoice of the first store is still confirmed by its webhook and refunded there; new invoices go to the second', async () => {
    await useStore(first, FIRST_STORE);
    const user = await f.newUser();
    const started = await cryptoCheckout(user);
    expect(started.statusCode, started.body).toBe(200);
    const { sessionId } = started.json() as { sessionId: string };
    expect(first.getInvoice(sessionId)).toBeDefined();

    await useStore(second, SECOND_STORE);
    const other = await cryptoCheckout(await f.newUser());
    expect(second.getInvoice((other.json() as { sessionId: string }).sessionId)).toBeDefined();

    // Paid at the first store: its webhook (signed with its own secret) confirms it.
    await first.pay(sessionId);
    await f.runJobs();
    const transaction = await f.env.database.db('transactions').where({ provider_transaction_id: sessionId }).first();
    expect(transaction).toMatchObject({ status: 'succeeded' });
    expect(await providerAccountOf(f, 'transactions', { 'x.id': transaction.id })).toBe(`${first.url}|${FIRST_STORE.storeId}`);

    const refund = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(200);
    expect(first.listRefunds()).toHaveLength(1);
    expect(second.listRefunds()).toEqual([]);

    const listed = (await f.call(f.admin, 'GET', '/api/admin/payments/accounts')).json();
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'crypto', account: `${first.url}|${FIRST_STORE.storeId}`, inForce: false, liveSubscriptions: 0 }),
        expect.objectContaining({ method: 'crypto', account: `${second.url}|${SECOND_STORE.storeId}`, inForce: true }),
      ]),
    );
  });
});
