import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { useBillingFixture } from '../../../../test/billing-fixture.js';
import type { DesktopSession } from '../../../../test/test-app.js';
import { YOOKASSA, useFakeYookassa } from '../../../../test/yookassa-fixture.js';

/**
 * YooKassa (the fake API v3 over real HTTP; its notifications unsigned, as YooKassa's are, and delivered to the
 * listening app): settings, a rouble payment with a redirect confirmation, notifications that are never believed
 * (each payment is read back), receipts, and refunds.
 */
describe.each(TEST_DATABASES)('payments through YooKassa (%s)', (kind) => {
  const shop = useFakeYookassa(() => f);
  const f = useBillingFixture(kind, { env: () => shop.env() });
  const settings = (body: Record<string, unknown>) => f.call(f.admin, 'PUT', '/api/admin/payments/yookassa', body);
  const pay = async (user: DesktopSession, body: { planId: string } | { accountId: string }) => {
    const res = await f.call(user, 'POST', '/api/checkout', { ...body, method: 'yookassa' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { url: string; sessionId: string; subscriptionId: string };
  };
  const transactionOf = (paymentId: string) => f.env.database.db('transactions').where({ provider_transaction_id: paymentId }).first();
  const notify = (event: string, id: string) => shop.post({ type: 'notification', event, object: { id, status: event.split('.')[1] } });

  beforeAll(() => {
    shop.fake.setWebhookUrl(shop.webhookUrl());
  });

  describe('settings', () => {
    it('answers 401 signed out and 403 to a customer, and changes nothing', async () => {
      const customer = await f.newUser();
      expect((await f.call(null, 'GET', '/api/admin/payments/yookassa')).statusCode).toBe(401);
      expect((await f.call(customer, 'GET', '/api/admin/payments/yookassa')).statusCode).toBe(403);
      expect((await f.call(customer, 'PUT', '/api/admin/payments/yookassa', { enabled: true, ...YOOKASSA })).statusCode).toBe(403);
      expect(await f.count('payment_providers', { name: 'yookassa' })).toBe(0);
    });

    it('refuses bad input and keys YooKassa refuses, saving nothing and never echoing the key', async () => {
      const fields = async (body: Record<string, unknown>) => {
        const res = await settings(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        return res.json().fields as Record<string, string>;
      };
      expect(await fields({ shopId: 'shop-one' })).toHaveProperty('shopId');
      expect(await fields({ secretKey: 'sk_live_stripe' })).toEqual({ secretKey: 'The secret key starts with live_ or test_' });
      expect(await fields({ receipts: { enabled: true, vatCode: 13 } })).toHaveProperty(['receipts.vatCode']);
      expect(await fields({ enabled: true })).toMatchObject({ shopId: expect.any(String), secretKey: expect.any(String) });
      const refused = await settings({ shopId: YOOKASSA.shopId, secretKey: 'test_notTheShopsKey' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'connection_failed', message: expect.stringContaining('refused') });
      expect(refused.body).not.toContain('test_notTheShopsKey');
      expect((await f.call(f.admin, 'GET', '/api/admin/payments/yookassa')).json()).toMatchObject({ enabled: false, shopId: null, secretKeySet: false });
    });

    it('saves the shop with the key sealed and write-only; offered only while the store sells in roubles, then first', async () => {
      const saved = await settings({ enabled: true, ...YOOKASSA });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({
        enabled: true,
        shopId: YOOKASSA.shopId,
        secretKeySet: true,
        receipts: { enabled: false, vatCode: 1, taxSystemCode: null },
        priority: 150,
        webhookUrl: 'http://localhost:3000/api/webhooks/yookassa',
        currencySupported: false,
        shop: { test: true, fiscalization: false },
      });
      expect(saved.body).not.toContain(YOOKASSA.secretKey);
      const row = await f.env.database.db('payment_providers').where({ name: 'yookassa' }).first();
      expect(row.secret_key_encrypted).not.toContain(YOOKASSA.secretKey);
      expect((await f.call(null, 'GET', '/api/config')).json().paymentMethods).toEqual(['card']);
      const user = await f.newUser();
      const dollars = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'yookassa' });
      expect(dollars.statusCode).toBe(503);
      expect(dollars.json()).toEqual({ code: 'payment_not_configured', message: BILLING_MESSAGES.currencyNotTaken });
      expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { currency: 'rub' })).statusCode).toBe(200);
      expect((await f.call(null, 'GET', '/api/config')).json().paymentMethods).toEqual(['yookassa', 'card']);
      expect((await f.call(f.admin, 'GET', '/api/admin/payments/yookassa')).json().currencySupported).toBe(true);
    });
  });

  describe('paying', () => {
    it('buys a plan: a rouble payment with a redirect and an idempotence key, paid on YooKassa, read back, delivered once', async () => {
      const user = await f.newUser();
      const { url, sessionId } = await pay(user, { planId: f.paidPlanId });
      const payment = shop.fake.getPayment(sessionId)!;
      const transaction = await transactionOf(sessionId);
      expect(payment).toMatchObject({ status: 'pending', amount: { value: '4.99', currency: 'RUB' }, metadata: { order_id: transaction.id } });
      expect(url).toBe(payment.confirmation!.confirmation_url);
      const created = shop.fake.requests.find((request) => request.method === 'POST' && request.path === '/v3/payments')!;
      expect(created.idempotenceKey).toBe(`checkout:${transaction.id}`);
      expect(JSON.parse(created.body)).toMatchObject({
        capture: true,
        confirmation: { type: 'redirect', return_url: `http://localhost:3000/thank-you?session_id=${transaction.id}` },
      });

      await shop.fake.pay(sessionId);
      await f.runJobs();
      const done = (await f.call(user, 'GET', `/api/checkout/${transaction.id}`)).json();
      expect(done.status).toBe('succeeded');
      expect(done.account.status).toBe('active');
      expect((await f.call(user, 'GET', '/api/transactions')).json()).toEqual([
        expect.objectContaining({ status: 'succeeded', method: 'yookassa', amount: 499, currency: 'rub' }),
      ]);
      // The same notification again (YooKassa retries): one event, one period.
      expect(await shop.fake.redeliver(shop.fake.sent.length - 1)).toBe(200);
      expect(await f.count('webhook_events', { provider: 'yookassa' })).toBe(1);
      expect(await f.count('paid_periods', { transaction_id: transaction.id })).toBe(1);
    });

    it('believes nothing in a notification: one for a payment YooKassa does not know is refused, a forged "succeeded" for an unpaid one changes nothing', async () => {
      const user = await f.newUser();
      const { sessionId } = await pay(user, { planId: f.paidPlanId });
      const unknown = await notify('payment.succeeded', '2d5b6a4e-000f-5000-9000-1a2b3c4d5e6f');
      expect(unknown.status).toBe(400);
      expect((await shop.post('not json')).status).toBe(400);
      expect((await shop.post({ type: 'notification', event: 'payment.succeeded' })).status).toBe(400);
      const forged = await notify('payment.succeeded', sessionId);
      expect(forged.status).toBe(200);
      expect((await transactionOf(sessionId)).status).toBe('pending');
      expect(await f.count('paid_periods', { transaction_id: (await transactionOf(sessionId)).id })).toBe(0);
      // Recorded as what the API said (pending): the real notification, when it is paid, still applies.
      await shop.fake.pay(sessionId);
      expect((await transactionOf(sessionId)).status).toBe('succeeded');
    });

    it('a declined payment fails its order; a forged "succeeded" for it afterwards changes nothing', async () => {
      const user = await f.newUser();
      const { sessionId, subscriptionId } = await pay(user, { planId: f.paidPlanId });
      await shop.fake.decline(sessionId, 'insufficient_funds');
      expect(await transactionOf(sessionId)).toMatchObject({ status: 'failed' });
      expect((await notify('payment.succeeded', sessionId)).status).toBe(200);
      expect(await transactionOf(sessionId)).toMatchObject({ status: 'failed' });
      expect((await f.env.database.db('subscriptions').where({ id: subscriptionId }).first()).vpn_account_id).toBeNull();
      const status = (await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json();
      expect(status).toMatchObject({ status: 'failed', error: BILLING_MESSAGES.paymentFailed });
    });

    it('a confirmation that ran out closes the order as expired', async () => {
      const user = await f.newUser();
      const { sessionId } = await pay(user, { planId: f.paidPlanId });
      await shop.fake.expire(sessionId);
      expect(await transactionOf(sessionId)).toMatchObject({ status: 'failed' });
      expect((await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json()).toMatchObject({ error: BILLING_MESSAGES.paymentExpired });
    });

    it('with the notification lost, the return page reads the payment from YooKassa', async () => {
      const user = await f.newUser();
      const { sessionId } = await pay(user, { planId: f.paidPlanId });
      await shop.fake.pay(sessionId, { deliver: false });
      const transaction = await transactionOf(sessionId);
      expect(transaction.status).toBe('pending');
      expect((await f.call(user, 'GET', `/api/checkout/${transaction.id}`)).json().status).toBe('succeeded');
    });

    it("someone else's order is a 404 on the return page", async () => {
      const [buyer, other] = [await f.newUser(), await f.newUser()];
      const { sessionId } = await pay(buyer, { planId: f.paidPlanId });
      const transaction = await transactionOf(sessionId);
      expect((await f.call(other, 'GET', `/api/checkout/${transaction.id}`)).statusCode).toBe(404);
      expect((await f.call(other, 'GET', `/api/checkout/${sessionId}`)).statusCode).toBe(404);
    });

    it('renews an account through YooKassa', async () => {
      const user = await f.newUser();
      const accountId = await f.buyAccount(user);
      const before = (await f.env.database.db('vpn_accounts').where({ id: accountId }).first()).expire_date;
      const { sessionId } = await pay(user, { accountId });
      await shop.fake.pay(sessionId);
      await f.runJobs();
      const after = (await f.env.database.db('vpn_accounts').where({ id: accountId }).first()).expire_date;
      expect(new Date(after).getTime() - new Date(before).getTime()).toBe(30 * 24 * 3600 * 1000);
    });
  });

  describe('receipts', () => {
    it('sends a 54-FZ receipt with the customer e-mail when receipts are on', async () => {
      expect((await settings({ receipts: { enabled: true, vatCode: 4, taxSystemCode: 2 } })).statusCode).toBe(200);
      try {
        const user = await f.newUser();
        const { sessionId } = await pay(user, { planId: f.paidPlanId });
        const created = shop.fake.requests.filter((request) => request.method === 'POST' && request.path === '/v3/payments').at(-1)!;
        const email = (await f.env.database.db('user_profiles').where({ id: user.userId }).first()).email;
        expect(JSON.parse(created.body).receipt).toEqual({
          customer: { email },
          items: [
            {
              description: 'Plus Monthly',
              quantity: 1,
              amount: { value: '4.99', currency: 'RUB' },
              vat_code: 4,
              payment_mode: 'full_payment',
              payment_subject: 'service',
            },
          ],
          tax_system_code: 2,
        });
        expect(shop.fake.getPayment(sessionId)).toBeDefined();
      } finally {
        await settings({ receipts: { enabled: false, vatCode: 1, taxSystemCode: null } });
      }
    });

    it('asks a customer without an e-mail address (from the Telegram bot) to add one first, before any order', async () => {
      const user = await f.newUser();
      // As a customer who signed up in the bot has it; the cached session is a few seconds old at most.
      await f.env.database.db('user_profiles').where({ id: user.userId }).update({ email: null });
      f.t.clock.advance(10_000);
      const orders = await f.count('transactions', { user_id: user.userId });
      const calls = shop.fake.requests.length;
      expect((await settings({ receipts: { enabled: true, vatCode: 4, taxSystemCode: 2 } })).statusCode).toBe(200);
      try {
        const refused = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'yookassa' });
        expect(refused.statusCode, refused.body).toBe(409);
        expect(refused.json()).toMatchObject({ code: 'email_required', message: expect.stringContaining('e-mail address') });
        expect(await f.count('transactions', { user_id: user.userId })).toBe(orders);
      } finally {
        await settings({ receipts: { enabled: false, vatCode: 1, taxSystemCode: null } });
      }
      // Without receipts YooKassa needs no address: the payment is made.
      const { sessionId } = await pay(user, { planId: f.paidPlanId });
      expect(JSON.parse(shop.fake.requests.filter((request) => request.path === '/v3/payments').at(-1)!.body).receipt).toBeUndefined();
      expect(shop.fake.requests.length).toBeGreaterThan(calls);
      expect(shop.fake.getPayment(sessionId)).toBeDefined();
    });
  });

  describe('refunds', () => {
    const paidTransaction = async () => {
      const user = await f.newUser();
      const { sessionId } = await pay(user, { planId: f.paidPlanId });
      await shop.fake.pay(sessionId);
      await f.runJobs();
      return { user, sessionId, transaction: await transactionOf(sessionId) };
    };

    it('refunds in part, then the rest, through POST /v3/refunds: each recorded before it is sent, the account taken back at the end', async () => {
      const { sessionId, transaction } = await paidTransaction();
      const part = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, { amount: 200 });
      expect(part.statusCode, part.body).toBe(200);
      expect(part.json()).toMatchObject({ status: 'succeeded', amountRefunded: 200 });
      expect(shop.fake.getPayment(sessionId)!.refunded_amount).toEqual({ value: '2.00', currency: 'RUB' });
      const rest = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {});
      expect(rest.json()).toMatchObject({ status: 'refunded', amountRefunded: 499 });
      const refunds = shop.fake.listRefunds().filter((refund) => refund.payment_id === sessionId);
      expect(refunds.map((refund) => refund.amount.value)).toEqual(['2.00', '2.99']);
      const posts = shop.fake.requests.filter((request) => request.method === 'POST' && request.path === '/v3/refunds');
      expect(posts.every((request) => request.idempotenceKey && request.idempotenceKey.length <= 64)).toBe(true);
      expect(await f.count('refunds', { transaction_id: transaction.id, status: 'succeeded' })).toBe(2);
      // The refund notifications that follow change nothing more.
      await shop.fake.waitForDeliveries();
      expect(await f.count('refunds', { transaction_id: transaction.id })).toBe(2);
      expect((await f.env.database.db('paid_periods').where({ transaction_id: transaction.id }).first()).void_reason).toBe('refunded');
    });

    it('a refund whose answer was lost is found on the retry, never made twice', async () => {
      const { sessionId, transaction } = await paidTransaction();
      shop.fake.loseNextAnswer('POST', /^\/v3\/refunds$/);
      const first = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {});
      expect(first.statusCode).toBe(502);
      expect(first.json().code).toBe('refund_unconfirmed');
      f.t.clock.advance(180);
      await f.runJobs();
      expect(shop.fake.listRefunds().filter((refund) => refund.payment_id === sessionId)).toHaveLength(1);
      expect((await f.env.database.db('transactions').where({ id: transaction.id }).first()).status).toBe('refunded');
    });

    it('a refund YooKassa makes from its own dashboard is applied from its notification (read back)', async () => {
      const { sessionId, transaction } = await paidTransaction();
      const res = await fetch(`${shop.fake.url}/v3/refunds`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${YOOKASSA.shopId}:${YOOKASSA.secretKey}`).toString('base64')}`,
          'content-type': 'application/json',
          'idempotence-key': `dash-${sessionId}`,
        },
        body: JSON.stringify({ payment_id: sessionId, amount: { value: '4.99', currency: 'RUB' } }),
      });
      expect(res.status).toBe(200);
      await shop.fake.waitForDeliveries();
      expect((await f.env.database.db('transactions').where({ id: transaction.id }).first()).status).toBe('refunded');
    });
  });
});
