import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { useBillingFixture } from '../../../../test/billing-fixture.js';
import { CRYPTOPAY, useFakeCryptopay } from '../../../../test/cryptopay-fixture.js';
import { signBody } from '../../../../test/fake-cryptopay/index.js';
import type { DesktopSession } from '../../../../test/test-app.js';
import { POLL, POLL_OPEN_CHECKOUTS } from './poll-open-checkouts.js';
import { schedulePeriodicJob } from '../../../jobs/periodic-jobs.js';

/**
 * Crypto Pay (the Telegram wallet's merchant API; the fake over real HTTP, its webhooks signed with the token and
 * delivered to the listening app): settings, a fiat invoice in the store's currency, the signed webhook, the
 * poll that finds a payment whose webhook was lost and closes an invoice that ran out.
 */
describe.each(TEST_DATABASES)('payments through Crypto Pay (%s)', (kind) => {
  const shop = useFakeCryptopay(() => f);
  const f = useBillingFixture(kind, { env: () => shop.env() });
  const settings = (body: Record<string, unknown>) => f.call(f.admin, 'PUT', '/api/admin/payments/cryptopay', body);
  const pay = async (user: DesktopSession, body: { planId: string } | { accountId: string }) => {
    const res = await f.call(user, 'POST', '/api/checkout', { ...body, method: 'cryptopay' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { url: string; sessionId: string; subscriptionId: string };
  };
  const invoiceIdOf = (sessionId: string) => Number(sessionId.replace('testnet-', ''));
  const transactionOf = (sessionId: string) => f.env.database.db('transactions').where({ provider_transaction_id: sessionId }).first();
  /** The poll as the worker runs it, after `seconds` more have passed. */
  const pollAfter = async (seconds: number) => {
    f.t.clock.advance(seconds);
    await schedulePeriodicJob(f.t.app.services.jobs, POLL_OPEN_CHECKOUTS, f.t.clock.now());
    await f.runJobs();
  };

  beforeAll(() => {
    shop.fake.setWebhookUrl(shop.webhookUrl());
  });

  describe('settings', () => {
    it('answers 401 signed out and 403 to a customer, and changes nothing', async () => {
      const customer = await f.newUser();
      expect((await f.call(null, 'GET', '/api/admin/payments/cryptopay')).statusCode).toBe(401);
      expect((await f.call(customer, 'GET', '/api/admin/payments/cryptopay')).statusCode).toBe(403);
      expect((await f.call(customer, 'PUT', '/api/admin/payments/cryptopay', { enabled: true, apiToken: CRYPTOPAY.apiToken })).statusCode).toBe(403);
      expect(await f.count('payment_providers', { name: 'cryptopay' })).toBe(0);
    });

    it('refuses bad input and a token Crypto Pay refuses, saving nothing and never echoing the token', async () => {
      const malformed = await settings({ apiToken: 'not a token' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ code: 'validation_failed', fields: { apiToken: expect.any(String) } });
      expect((await settings({ assets: ['DOGECOIN'] })).json().fields).toHaveProperty('assets.0');
      expect((await settings({ network: 'moon' })).json().fields).toHaveProperty('network');
      expect((await settings({ enabled: true })).json()).toMatchObject({
        code: 'validation_failed',
        fields: { apiToken: 'Add the API token before enabling Crypto Pay' },
      });
      const refused = await settings({ apiToken: '999:AAsomeoneElsesTokenXXXXXXXXXX', network: 'testnet' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'connection_failed' });
      expect(refused.body).not.toContain('someoneElses');
      expect((await f.call(f.admin, 'GET', '/api/admin/payments/cryptopay')).json()).toMatchObject({ enabled: false, apiTokenSet: false, appName: null });
    });

    it('saves the app with the token sealed and write-only, and offers Crypto Pay to customers', async () => {
      const saved = await settings({ enabled: true, apiToken: CRYPTOPAY.apiToken, network: 'testnet', assets: ['USDT', 'TON'] });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({
        enabled: true,
        network: 'testnet',
        apiTokenSet: true,
        assets: ['USDT', 'TON'],
        priority: 60,
        webhookUrl: 'http://localhost:3000/api/webhooks/cryptopay',
        currencySupported: true,
        appName: CRYPTOPAY.appName,
      });
      expect(saved.body).not.toContain(CRYPTOPAY.apiToken);
      const row = await f.env.database.db('payment_providers').where({ name: 'cryptopay' }).first();
      expect(row.secret_key_encrypted).not.toContain(CRYPTOPAY.apiToken);
      expect((await f.call(null, 'GET', '/api/config')).json().paymentMethods).toEqual(['card', 'cryptopay']);
    });
  });

  describe('paying', () => {
    it('buys a plan: a fiat invoice in the store currency, paid, confirmed by the signed webhook, delivered once', async () => {
      const user = await f.newUser();
      const { url, sessionId } = await pay(user, { planId: f.paidPlanId });
      const invoice = shop.fake.getInvoice(invoiceIdOf(sessionId))!;
      expect(invoice).toMatchObject({ currency_type: 'fiat', fiat: 'USD', amount: '4.99', accepted_assets: ['USDT', 'TON'], status: 'active' });
      expect(url).toBe(invoice.web_app_invoice_url);
      const transaction = await transactionOf(sessionId);
      expect(JSON.parse(invoice.payload!)).toEqual({ order_id: transaction.id });
      // The invoice page's button brings the customer back with our order id (the invoice's is not known before it exists).
      expect(invoice.paid_btn_url).toBe(`http://localhost:3000/thank-you?session_id=${transaction.id}`);

      const { status } = await shop.fake.pay(invoiceIdOf(sessionId), { asset: 'TON' });
      expect(status).toBe(200);
      await f.runJobs();
      const done = (await f.call(user, 'GET', `/api/checkout/${transaction.id}`)).json();
      expect(done.status).toBe('succeeded');
      expect(done.account.status).toBe('active');
      expect((await f.call(user, 'GET', '/api/transactions')).json()).toEqual([
        expect.objectContaining({ status: 'succeeded', method: 'cryptopay', amount: 499, currency: 'usd' }),
      ]);

      // Crypto Pay delivers again (at least once): recorded once, applied once.
      expect((await shop.fake.redeliver(invoiceIdOf(sessionId))).status).toBe(200);
      expect(await f.count('webhook_events', { provider: 'cryptopay' })).toBe(1);
      expect(await f.count('paid_periods', { transaction_id: transaction.id })).toBe(1);
    });

    it('refuses an update with a wrong signature, or none, before reading it (400): nothing changes', async () => {
      const user = await f.newUser();
      const { sessionId } = await pay(user, { planId: f.paidPlanId });
      const forged = shop.fake.signedUpdate(invoiceIdOf(sessionId));
      const paid = forged.body.replace('"status":"active"', '"status":"paid"');
      const wrong = await shop.post(paid, signBody(paid, '999:AAanotherAppTokenXXXXXXXXXX'));
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ code: 'invalid_signature' });
      expect((await shop.post(paid)).status).toBe(400);
      expect((await shop.post(paid, forged.signature)).status).toBe(400);
      expect((await transactionOf(sessionId)).status).toBe('pending');
      expect(await f.count('webhook_events', { provider: 'cryptopay' })).toBe(1);
    });

    it('finds a payment whose webhook was lost by asking, within a minute', async () => {
      const user = await f.newUser();
      const { sessionId } = await pay(user, { planId: f.paidPlanId });
      await shop.fake.pay(invoiceIdOf(sessionId), { deliver: false });
      expect((await transactionOf(sessionId)).status).toBe('pending');
      await pollAfter(POLL.intervalSeconds);
      expect((await transactionOf(sessionId)).status).toBe('succeeded');
      const status = (await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json();
      expect(status.account.status).toBe('active');
    });

    it('closes an invoice that ran out as cancelled (Crypto Pay sends no webhook for it): its waiting account goes', async () => {
      const user = await f.newUser();
      const { sessionId, subscriptionId } = await pay(user, { planId: f.paidPlanId });
      shop.fake.expire(invoiceIdOf(sessionId));
      await pollAfter(POLL.intervalSeconds);
      expect(await transactionOf(sessionId)).toMatchObject({ status: 'cancelled' });
      const status = (await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json();
      expect(status).toMatchObject({ status: 'cancelled', error: BILLING_MESSAGES.paymentCancelled });
      const subscription = await f.env.database.db('subscriptions').where({ id: subscriptionId }).first();
      expect(subscription.vpn_account_id).toBeNull();
    });

    it('renews an account with Crypto Pay, one-off', async () => {
      const user = await f.newUser();
      const accountId = await f.buyAccount(user);
      const before = (await f.env.database.db('vpn_accounts').where({ id: accountId }).first()).expire_date;
      const { sessionId } = await pay(user, { accountId });
      await shop.fake.pay(invoiceIdOf(sessionId));
      await f.runJobs();
      const after = (await f.env.database.db('vpn_accounts').where({ id: accountId }).first()).expire_date;
      expect(new Date(after).getTime() - new Date(before).getTime()).toBe(30 * 24 * 3600 * 1000);
    });

    it('is not offered, and refuses a checkout clearly, while the store sells in a currency Crypto Pay cannot price in', async () => {
      expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { currency: 'jpy' })).statusCode).toBe(200);
      try {
        expect((await f.call(null, 'GET', '/api/config')).json().paymentMethods).not.toContain('cryptopay');
        expect((await f.call(f.admin, 'GET', '/api/admin/payments/cryptopay')).json().currencySupported).toBe(false);
        const user = await f.newUser();
        const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'cryptopay' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ code: 'payment_not_configured', message: BILLING_MESSAGES.currencyNotTaken });
      } finally {
        await f.call(f.admin, 'PUT', '/api/admin/settings', { currency: 'usd' });
      }
    });

    it('cannot refund through Crypto Pay itself: the admin is told so, and nothing is written (the wallet takes it: wallet.test.ts)', async () => {
      const user = await f.newUser();
      const { sessionId } = await pay(user, { planId: f.paidPlanId });
      await shop.fake.pay(invoiceIdOf(sessionId));
      const transaction = await transactionOf(sessionId);
      const res = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, { destination: 'provider' });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('refund_destination');
      expect(await f.count('refunds', { transaction_id: transaction.id })).toBe(0);
      expect(shop.fake.requests.some((request) => request.method === 'transfer')).toBe(false);
    });
  });
});
