import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOverview } from '../../../../shared/overview.js';
import { GB, useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { startFakeBtcpay, type FakeBtcpay } from '../../../test/fake-btcpay/index.js';
import { mailParts } from '../../../test/smtp-catcher.js';
import type { DesktopSession } from '../../../test/test-app.js';

const BTCPAY = { apiKey: 'currency-btcpay-api-key-0123456789', storeId: 'CurrencyStore1', webhookSecret: 'currency-btcpay-webhook-secret' };

/**
 * The store's currency end to end: a plan priced 1500 in a yen store is ¥1,500 everywhere (Stripe is asked
 * for 1500 "jpy", the receipt says ¥1,500, the admin's revenue counts 1500 yen) and €15.00 in a euro store;
 * BTCPay invoices are made in it; payments made before a change keep their own currency and are never
 * added to the new one's revenue.
 */
describe.each(TEST_DATABASES)('the store currency (%s)', (kind) => {
  const f = useBillingFixture(kind);
  let btcpay: FakeBtcpay;

  const setCurrency = async (currency: string) => {
    const res = await f.call(f.admin, 'PUT', '/api/admin/settings', { currency });
    expect(res.statusCode, res.body).toBe(200);
  };
  const newPlan = async (body: Record<string, unknown>): Promise<string> => {
    const res = await f.call(f.admin, 'POST', '/api/admin/plans', { locations: 'all', days: 30, dataLimitBytes: 10 * GB, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const emailOf = async (user: DesktopSession): Promise<string> => (await f.env.database.db('user_profiles').where({ id: user.userId }).first()).email;
  const overview = async (): Promise<AdminOverview> => (await f.call(f.admin, 'GET', '/api/admin/overview?days=7')).json();

  beforeAll(async () => {
    btcpay = await startFakeBtcpay({ ...BTCPAY });
    const saved = await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', { ...BTCPAY, enabled: true, serverUrl: btcpay.url });
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(async () => {
    await btcpay?.close();
  });
  afterEach(async () => {
    await setCurrency('usd');
  });

  describe.each([
    { currency: 'jpy', shown: '¥1,500' },
    { currency: 'eur', shown: '€15.00' },
  ])('a $currency store', ({ currency, shown }) => {
    it(`charges a plan priced 1500 as 1500 ${currency} at Stripe, mails ${shown}, and counts it in the admin's revenue`, async () => {
      // A dollar payment from before the change: it stays in dollars.
      const earlier = await f.newUser();
      await f.buyAccount(earlier);
      const revenueBefore = await overview();

      await setCurrency(currency);
      expect((await f.call(null, 'GET', '/api/config')).json().currency).toBe(currency);
      const planId = await newPlan({ name: `Plan in ${currency}`, price: 1500 });
      const user = await f.newUser();
      const started = await f.checkout(user, { planId });

      expect(f.stripe.getSession(started.sessionId)).toMatchObject({ amount_total: 1500, currency });
      expect(await f.env.database.db('transactions').where({ subscription_id: started.subscriptionId }).first()).toMatchObject({ amount: 1500, currency });
      expect((await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json()).toMatchObject({ status: 'pending', currency });

      const mailsBefore = f.env.smtp.messages.length;
      await f.stripe.pay(started.sessionId);
      await f.runJobs();
      const receipt = mailParts(await f.env.smtp.waitFor(await emailOf(user), { after: mailsBefore }));
      expect(receipt.text).toContain(`we received your payment of ${shown} for Plan in ${currency}`);

      expect((await f.call(user, 'GET', '/api/subscriptions')).json()).toEqual([
        expect.objectContaining({ id: started.subscriptionId, price: 1500, currency }),
      ]);
      const payments = (await f.call(f.admin, 'GET', '/api/admin/transactions?limit=100')).json() as Array<{
        subscriptionId: string;
        amount: number;
        currency: string;
      }>;
      expect(payments.find((payment) => payment.subscriptionId === started.subscriptionId)).toMatchObject({ amount: 1500, currency });
      expect(payments.filter((payment) => payment.currency === 'usd').length).toBeGreaterThan(0);

      // Revenue is the store currency's alone; the dollars are listed beside it, not added in.
      const after = await overview();
      expect(after.currency).toBe(currency);
      const inCurrencyBefore = revenueBefore.otherCurrencies.find((other) => other.currency === currency)?.revenue ?? 0;
      expect(after.totals.revenue).toBe(inCurrencyBefore + 1500);
      expect(after.otherCurrencies).toContainEqual({ currency: 'usd', revenue: revenueBefore.totals.revenue });
      expect(after.otherCurrencies.map((other) => other.currency)).not.toContain(currency);
    });

    it(`sells a recurring plan at a Stripe price of 1500 ${currency}`, async () => {
      await setCurrency(currency);
      const planId = await newPlan({ name: `Auto in ${currency}`, price: 1500, billing: 'recurring' });
      const user = await f.newUser();
      const started = await f.checkout(user, { planId });
      await f.stripe.pay(started.sessionId);
      await f.runJobs();
      const subscription = await f.env.database.db('subscriptions').where({ id: started.subscriptionId }).first();
      const price = f.stripe.getSubscription(subscription.provider_subscription_id)!.items.data[0]!.price;
      expect(price).toMatchObject({ unit_amount: 1500, currency });

      const system = (await f.call(f.admin, 'GET', '/api/admin/system')).json();
      expect(system.payments.recurring).toMatchObject({ currency, monthlyRecurringRevenue: expect.any(Number) });
      expect(system.payments.recurring.monthlyRecurringRevenue).toBeGreaterThanOrEqual(1500);
      // The fixture's dollar subscriptions are not added to it.
      expect(system.payments.recurring.otherCurrencies.map((other: { currency: string }) => other.currency)).not.toContain(currency);
    });
  });

  it('makes BTCPay invoices in the store currency with its decimals: 1500 is "1500" JPY, "1.500" KWD, "15.00" EUR', async () => {
    for (const [currency, amount] of [
      ['jpy', '1500'],
      ['kwd', '1.500'],
      ['eur', '15.00'],
    ] as const) {
      await setCurrency(currency);
      const planId = await newPlan({ name: `Crypto in ${currency}`, price: 1500 });
      const user = await f.newUser();
      const res = await f.call(user, 'POST', '/api/checkout', { planId, method: 'crypto' });
      expect(res.statusCode, res.body).toBe(200);
      const { sessionId } = res.json() as { sessionId: string };
      expect(btcpay.getInvoice(sessionId)).toMatchObject({ amount, currency: currency.toUpperCase() });
      expect(await f.env.database.db('transactions').where({ provider_transaction_id: sessionId }).first()).toMatchObject({ amount: 1500, currency });
    }
  });
});
