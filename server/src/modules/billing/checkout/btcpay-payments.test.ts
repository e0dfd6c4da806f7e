import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { useBillingFixture } from '../../../../test/billing-fixture.js';
import { BTCPAY, useFakeBtcpay } from '../../../../test/btcpay-fixture.js';
import type { FakeBtcpay, WebhookPayload } from '../../../../test/fake-btcpay/index.js';
import { setProgramme, signUp } from '../../../../test/referral-kit.js';
import type { DesktopSession } from '../../../../test/test-app.js';

/**
 * Crypto payments through the operator's BTCPay Server (the fake over real HTTP, its webhooks signed
 * and delivered to the listening app): settings, checkout, confirmation exactly once, expiry, partial
 * and late payments, refunds.
 */
describe.each(TEST_DATABASES)('crypto payments with BTCPay Server (%s)', (kind) => {
  const f = useBillingFixture(kind);
  const shop = useFakeBtcpay(f);
  let btcpay: FakeBtcpay;
  const postSigned = shop.post;
  const webhookUrl = shop.webhookUrl;
  const cryptoCheckout = async (user: DesktopSession, body: { planId: string } | { accountId: string }) => {
    const res = await f.call(user, 'POST', '/api/checkout', { ...body, method: 'crypto' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { url: string; sessionId: string; subscriptionId: string };
  };
  const status = async (user: DesktopSession, sessionId: string) => (await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json();
  const transactionOf = (invoiceId: string) => f.env.database.db('transactions').where({ provider_transaction_id: invoiceId }).first();

  beforeAll(() => {
    btcpay = shop.fake;
  });

  describe('settings', () => {
    it('answers 401 signed out and 403 to a customer', async () => {
      const customer = await f.newUser();
      expect((await f.call(null, 'GET', '/api/admin/payments/crypto')).statusCode).toBe(401);
      expect((await f.call(customer, 'GET', '/api/admin/payments/crypto')).statusCode).toBe(403);
      expect((await f.call(customer, 'PUT', '/api/admin/payments/crypto', { enabled: false })).statusCode).toBe(403);
    });

    it('says crypto payments are not implemented while they are not set up, and card checkout is unaffected', async () => {
      const user = await f.newUser();
      const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'crypto' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'payment_not_configured', message: BILLING_MESSAGES.cryptoNotImplemented });
      expect((await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'gold' })).statusCode).toBe(400);
      expect((await f.call(null, 'GET', '/api/config')).json().paymentMethods).toEqual(['card']);
    });

    it('refuses a wrong API key or store by reading the store, and saves nothing', async () => {
      const wrongKey = await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', { serverUrl: btcpay.url, storeId: BTCPAY.storeId, apiKey: 'not-the-key' });
      expect(wrongKey.statusCode).toBe(400);
      expect(wrongKey.json()).toMatchObject({ code: 'connection_failed' });
      expect(wrongKey.body).not.toContain('not-the-key');
      const wrongStore = await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', { serverUrl: btcpay.url, storeId: 'OtherStore', apiKey: BTCPAY.apiKey });
      expect(wrongStore.statusCode).toBe(400);
      expect((await f.call(f.admin, 'GET', '/api/admin/payments/crypto')).json()).toMatchObject({ enabled: false, serverUrl: null, apiKeySet: false });
      const incomplete = await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', {
        enabled: true,
        serverUrl: btcpay.url,
        storeId: BTCPAY.storeId,
        apiKey: BTCPAY.apiKey,
      });
      expect(incomplete.statusCode).toBe(400);
      expect(incomplete.json().fields).toHaveProperty('webhookSecret');
    });

    it('refuses a server address it must not call, or one with ? or #, before asking anything, and saves nothing', async () => {
      const asked = btcpay.requests.length;
      const metadata = await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', {
        serverUrl: 'http://169.254.169.254',
        storeId: BTCPAY.storeId,
        apiKey: BTCPAY.apiKey,
      });
      expect(metadata.statusCode).toBe(400);
      expect(metadata.json()).toMatchObject({
        code: 'validation_failed',
        fields: { serverUrl: expect.stringMatching(/link-local or a cloud metadata address/) },
      });
      for (const serverUrl of [`${btcpay.url}/?x=1`, `${btcpay.url}#frag`]) {
        const res = await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', { serverUrl, storeId: BTCPAY.storeId, apiKey: BTCPAY.apiKey });
        expect(res.statusCode, serverUrl).toBe(400);
        expect(res.json().fields).toEqual({ serverUrl: 'Enter the address without ? or #, e.g. https://btcpay.example.com' });
      }
      expect(btcpay.requests.length).toBe(asked);
      expect((await f.call(f.admin, 'GET', '/api/admin/payments/crypto')).json()).toMatchObject({ serverUrl: null, apiKeySet: false });
    });

    it('saves the store with the secrets sealed and never sent back, and offers crypto after card', async () => {
      const saved = await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', { ...BTCPAY, enabled: true, serverUrl: `${btcpay.url}/` });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({
        enabled: true,
        serverUrl: btcpay.url,
        storeId: BTCPAY.storeId,
        apiKeySet: true,
        webhookSecretSet: true,
        priority: 50,
        webhookUrl: 'http://localhost:3000/api/webhooks/btcpay',
      });
      expect(saved.body).not.toContain(BTCPAY.apiKey);
      const row = await f.env.database.db('payment_providers').where({ type: 'crypto' }).first();
      expect(row.secret_key_encrypted).not.toContain(BTCPAY.apiKey);
      expect(row.webhook_secret_encrypted).not.toContain(BTCPAY.webhookSecret);
      expect((await f.call(null, 'GET', '/api/config')).json().paymentMethods).toEqual(['card', 'crypto']);
      expect((await f.call(f.admin, 'GET', '/api/admin/system')).json().payments).toMatchObject({ cardEnabled: true, cryptoEnabled: true });
      await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', { priority: 200 });
      expect((await f.call(null, 'GET', '/api/config')).json().paymentMethods).toEqual(['crypto', 'card']);
      await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', { priority: 50 });
    });
  });

  describe('paying', () => {
    it('buys a plan in crypto: an invoice for the plan price, paid, confirmed, provisioned once; the history says crypto', async () => {
      const user = await f.newUser();
      const { url, sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      const invoice = btcpay.getInvoice(sessionId)!;
      expect(url).toBe(invoice.checkoutLink);
      expect(invoice).toMatchObject({ amount: '4.99', currency: 'USD', status: 'New' });
      expect(invoice.metadata.orderId).toBe((await transactionOf(sessionId)).id);
      // BTCPay fills in {InvoiceId} when it sends the customer back.
      expect(invoice.checkout.redirectURL).toBe('http://localhost:3000/thank-you?session_id={InvoiceId}');

      await btcpay.pay(sessionId, { confirmed: false });
      expect(await status(user, sessionId)).toMatchObject({ status: 'pending', crypto: { status: 'Processing' } });
      await btcpay.confirm(sessionId);
      await f.runJobs();
      const done = await status(user, sessionId);
      expect(done.status).toBe('succeeded');
      expect(done.account.status).toBe('active');
      expect(f.panel.users.size).toBeGreaterThan(0);
      const history = (await f.call(user, 'GET', '/api/transactions')).json();
      expect(history).toEqual([expect.objectContaining({ status: 'succeeded', method: 'crypto', amount: 499 })]);
    });

    it('a promo code in crypto: the invoice is for the discounted price, and the payment keeps the code', async () => {
      const code = `CRYPTO${kind.toUpperCase()}`;
      expect((await f.call(f.admin, 'POST', '/api/admin/promo-codes', { code, amountOff: 100, duration: 'forever' })).statusCode).toBe(201);
      const user = await f.newUser();
      const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'crypto', promoCode: code });
      expect(res.statusCode, res.body).toBe(200);
      const { sessionId } = res.json();
      expect(btcpay.getInvoice(sessionId)).toMatchObject({ amount: '3.99', currency: 'USD', metadata: { promoCode: code } });
      await btcpay.pay(sessionId);
      await f.runJobs();
      expect((await status(user, sessionId)).status).toBe('succeeded');
      expect((await f.call(user, 'GET', '/api/transactions')).json()).toEqual([
        expect.objectContaining({ status: 'succeeded', method: 'crypto', amount: 399, promo: { code, amountBefore: 499, discount: 100 } }),
      ]);
    });

    it('referral credit in crypto: the invoice is for the price less the credit (a recurring plan too, paid once); an expired one gives it back', async () => {
      const user = await f.newUser();
      const longAgo = new Date(f.t.clock.now().getTime() - 30 * 86_400_000);
      await f.env.database
        .db('wallet_movements')
        .insert({ user_id: user.userId, kind: 'earned', amount: 300, currency: 'usd', available_at: longAgo, created_at: longAgo });
      const balance = async () =>
        Number((await f.env.database.db('wallet_movements').where({ user_id: user.userId }).sum({ total: 'amount' }).first())?.total ?? 0);

      const expiring = await cryptoCheckout(user, { planId: f.recurringPlanId });
      expect(btcpay.getInvoice(expiring.sessionId)).toMatchObject({ amount: '1.99', currency: 'USD' });
      expect(await balance()).toBe(0);
      await btcpay.expire(expiring.sessionId);
      await f.runJobs();
      expect((await transactionOf(expiring.sessionId)).status).toBe('failed');
      expect(await balance()).toBe(300);

      const { sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      expect(btcpay.getInvoice(sessionId)).toMatchObject({ amount: '1.99', currency: 'USD' });
      await btcpay.pay(sessionId);
      await f.runJobs();
      expect((await status(user, sessionId)).status).toBe('succeeded');
      expect((await f.call(user, 'GET', '/api/transactions')).json()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ status: 'failed', amount: 199, credit: 300 }),
          expect.objectContaining({ status: 'succeeded', method: 'crypto', amount: 199, credit: 300 }),
        ]),
      );
      expect(await balance()).toBe(0);
    });

    it("referral extra days in crypto: a friend's first order, a recurring plan paid once, buys the plan's days and 7 at the list price", async () => {
      await setProgramme(f, { referredBenefit: { kind: 'days', days: 7 } });
      const referrer = await signUp(f);
      const friend = await signUp(f, { code: (await f.call(referrer, 'GET', '/api/referrals/me')).json().code });
      const { sessionId } = await cryptoCheckout(friend, { planId: f.recurringPlanId });
      expect(btcpay.getInvoice(sessionId)).toMatchObject({ amount: '4.99', currency: 'USD' });
      await btcpay.pay(sessionId);
      await f.runJobs();
      const [account] = (await f.call(friend, 'GET', '/api/accounts')).json();
      expect(account.status).toBe('active');
      expect(Math.round((new Date(account.expireDate).getTime() - f.t.clock.now().getTime()) / 86_400_000)).toBe(37);
      // The next order is the friend's second: the plan's days alone.
      expect((await f.call(friend, 'POST', '/api/checkout/quote', { planId: f.recurringPlanId })).json().bonusDays).toBe(0);
      await setProgramme(f, { enabled: false });
    });

    it('refuses a webhook with a missing or wrong BTCPay-Sig with 400, and changes nothing', async () => {
      const user = await f.newUser();
      const { sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      btcpay.setWebhookUrl(null);
      try {
        const events = await btcpay.pay(sessionId);
        const settled = events.find((event) => event.type === 'InvoiceSettled')!;
        const forged = btcpay.signedDelivery(settled, { secret: 'not-the-secret' });
        expect((await postSigned(forged.body, forged.signature)).status).toBe(400);
        expect((await postSigned(forged.body)).status).toBe(400);
        const genuine = btcpay.signedDelivery(settled);
        expect((await postSigned(`${genuine.body} `, genuine.signature)).status).toBe(400);
        expect((await transactionOf(sessionId)).status).toBe('pending');
      } finally {
        btcpay.setWebhookUrl(webhookUrl());
      }
    });

    it('acknowledges a signed event for an invoice BTCPay does not know (200, ignored, logged); a body with a NUL in it is a 400', async () => {
      const user = await f.newUser();
      const { sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      btcpay.setWebhookUrl(null);
      let settled: WebhookPayload;
      try {
        settled = (await btcpay.pay(sessionId)).find((event) => event.type === 'InvoiceSettled')!;
      } finally {
        btcpay.setWebhookUrl(webhookUrl());
      }
      // An invoice deleted on BTCPay, or one of a store's test: BTCPay says it does not know it; answering 503 would be retried for ever.
      const unknown = btcpay.signedDelivery({ ...settled, deliveryId: `${settled.deliveryId}-unknown`, invoiceId: 'NoSuchInvoice1' });
      const ignored = await postSigned(unknown.body, unknown.signature);
      expect(ignored.status, JSON.stringify(ignored.body)).toBe(200);
      expect(ignored.body.received).toBe(true);
      // Recorded: a redelivery of it is a duplicate, read nowhere again.
      expect((await postSigned(unknown.body, unknown.signature)).body).toEqual({ received: true, duplicate: true });

      // A NUL inside (a field BTCPay would never send), signed all the same: the body is malformed.
      for (const field of ['deliveryId', 'invoiceId', 'type']) {
        const payload = { ...settled, deliveryId: `${settled.deliveryId}-nul-${field}`, [field]: `${String(settled[field])}\u0000x` };
        const nul = btcpay.signedDelivery(payload);
        const refused = await postSigned(nul.body, nul.signature);
        expect(refused.status, field).toBe(400);
        expect(refused.body.code, field).toBe('invalid_body');
      }
      const nulInMetadata = btcpay.signedDelivery({ ...settled, deliveryId: `${settled.deliveryId}-nul-metadata`, metadata: { ['note\u0000']: 'x' } });
      expect((await postSigned(nulInMetadata.body, nulInMetadata.signature)).status).toBe(400);
      expect((await transactionOf(sessionId)).status).toBe('pending');

      // The genuine event still applies.
      const genuine = btcpay.signedDelivery(settled);
      expect((await postSigned(genuine.body, genuine.signature)).status).toBe(200);
      expect((await transactionOf(sessionId)).status).toBe('succeeded');
    });

    it('applies InvoiceSettled delivered three times at once, and redelivered, exactly once', async () => {
      const user = await f.newUser();
      const { sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      btcpay.setWebhookUrl(null);
      let settled: WebhookPayload;
      try {
        settled = (await btcpay.pay(sessionId)).find((event) => event.type === 'InvoiceSettled')!;
      } finally {
        btcpay.setWebhookUrl(webhookUrl());
      }
      const { body, signature } = btcpay.signedDelivery(settled);
      const answers = await Promise.all([postSigned(body, signature), postSigned(body, signature), postSigned(body, signature)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(answers.filter((answer) => answer.body.duplicate).length).toBe(2);
      await btcpay.redeliver(settled.deliveryId);
      await f.runJobs();
      const transaction = await transactionOf(sessionId);
      expect(transaction.status).toBe('succeeded');
      const subscription = await f.env.database.db('subscriptions').where({ id: transaction.subscription_id }).first();
      expect(await f.count('transactions', { subscription_id: subscription.id, status: 'succeeded' })).toBe(1);
      expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(1);
    });

    it('closes an expired invoice like an expired card checkout: failed, and the waiting account removed', async () => {
      const user = await f.newUser();
      const { sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      await btcpay.expire(sessionId);
      const answer = await status(user, sessionId);
      expect(answer).toMatchObject({ status: 'failed', error: BILLING_MESSAGES.paymentExpired });
      expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(0);
    });

    it('tells the customer what is missing after a partial payment', async () => {
      const user = await f.newUser();
      const { sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      await btcpay.payPartially(sessionId);
      const answer = await status(user, sessionId);
      expect(answer.status).toBe('pending');
      expect(answer.crypto).toMatchObject({ additionalStatus: 'PaidPartial' });
      expect(answer.crypto.amountDue).toBeGreaterThan(0);
      expect(answer.crypto.amountDue).toBeLessThan(499);
      const history = (await f.call(user, 'GET', '/api/transactions')).json();
      expect(history[0]).toMatchObject({ status: 'pending', method: 'crypto', crypto: { additionalStatus: 'PaidPartial' } });
    });

    it('provisions a payment that arrives after the invoice expired', async () => {
      const user = await f.newUser();
      const { sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      btcpay.setWebhookUrl(null);
      try {
        await btcpay.expire(sessionId); // nobody hears of the expiry: the late payment arrives first
      } finally {
        btcpay.setWebhookUrl(webhookUrl());
      }
      await btcpay.payLate(sessionId);
      await f.runJobs();
      const answer = await status(user, sessionId);
      expect(answer.status).toBe('succeeded');
      expect(answer.account.status).toBe('active');
    });

    it('renews an account in crypto, one-off', async () => {
      const user = await f.newUser();
      const { sessionId: first } = await cryptoCheckout(user, { planId: f.paidPlanId });
      await btcpay.pay(first);
      await f.runJobs();
      const accountId = (await status(user, first)).account.id as string;
      const before = await f.env.database.db('vpn_accounts').where({ id: accountId }).first();
      const { sessionId } = await cryptoCheckout(user, { accountId });
      await btcpay.pay(sessionId);
      await f.runJobs();
      const answer = await status(user, sessionId);
      expect(answer).toMatchObject({ status: 'succeeded', renewal: true });
      const after = await f.env.database.db('vpn_accounts').where({ id: accountId }).first();
      expect(new Date(after.expire_date).getTime()).toBeGreaterThan(new Date(before.expire_date).getTime());
    });

    it('refunds from the admin through BTCPay: a pull payment the customer claims, and the transaction marked refunded', async () => {
      const user = await f.newUser();
      const { sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      await btcpay.pay(sessionId);
      await f.runJobs();
      const transaction = await transactionOf(sessionId);
      const refund = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {});
      expect(refund.statusCode, refund.body).toBe(200);
      const pulls = btcpay.listRefunds().filter((pull) => (pull as { invoiceId?: string }).invoiceId === sessionId);
      expect(pulls).toHaveLength(1);
      expect(refund.json()).toMatchObject({ status: 'refunded', amountRefunded: 499, method: 'crypto', refundClaimUrl: pulls[0]!.viewLink });
      expect((await transactionOf(sessionId)).status).toBe('refunded');
      // The customer is told where to claim it.
      const sentBefore = f.env.smtp.messages.length;
      await f.runJobs();
      const mail = f.env.smtp.messages.slice(sentBefore).find((message) => /refunded/.test(message.subject));
      const text = mail?.raw.replace(/=\r?\n/g, '') ?? ''; // quoted-printable soft line breaks
      expect(text).toContain(pulls[0]!.viewLink);
      expect(text).toContain('Claim your refund');
      const again = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {});
      expect(again.statusCode).toBe(409);
      expect(btcpay.listRefunds().filter((pull) => (pull as { invoiceId?: string }).invoiceId === sessionId)).toHaveLength(1);
    });

    const pullsOf = (invoiceId: string) => btcpay.listRefunds().filter((pull) => pull.invoiceId === invoiceId);
    const refundRows = (transactionId: string) => f.env.database.db('refunds').where({ transaction_id: transactionId }).orderBy('amount');

    it('two refunds of one payment sent at once make one pull payment and one refund row; both answer with it', async () => {
      const user = await f.newUser();
      const { sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      await btcpay.pay(sessionId);
      await f.runJobs();
      const transaction = await transactionOf(sessionId);
      const [one, two] = await Promise.all([
        f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {}),
        f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {}),
      ]);
      expect([one.statusCode, two.statusCode], `${one.body} ${two.body}`).toEqual([200, 200]);
      expect(pullsOf(sessionId)).toHaveLength(1);
      expect(await refundRows(transaction.id)).toEqual([
        expect.objectContaining({ status: 'pending', amount: 499, source: 'admin', provider_refund_id: pullsOf(sessionId)[0]!.id }),
      ]);
      expect(one.json()).toMatchObject({ status: 'refunded', amountRefunded: 499, refundable: false });
      expect(await f.count('audit_log', { action: 'payments.refund', target_id: transaction.id })).toBe(1);
    });

    it("a retry after BTCPay's answer was lost finds the pull payment the first attempt made: none more, for a click or the retry job", async () => {
      const user = await f.newUser();
      const { sessionId } = await cryptoCheckout(user, { planId: f.paidPlanId });
      await btcpay.pay(sessionId);
      await f.runJobs();
      const transaction = await transactionOf(sessionId);

      btcpay.loseNextAnswer('POST', /\/refund$/);
      const lost = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, { amount: 200 });
      expect(lost.statusCode).toBe(502);
      expect(lost.json()).toMatchObject({ code: 'refund_unconfirmed' });
      expect(pullsOf(sessionId)).toHaveLength(1);
      expect(await refundRows(transaction.id)).toEqual([expect.objectContaining({ status: 'requested', amount: 200 })]);
      // Payments says so, and offers no second refund meanwhile.
      const listed = (await f.call(f.admin, 'GET', `/api/admin/transactions?status=succeeded`)).json().find((t: { id: string }) => t.id === transaction.id);
      expect(listed).toMatchObject({ refundable: false, note: expect.stringContaining('not confirmed by the provider yet') });
      const other = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, { amount: 100 });
      expect(other.statusCode).toBe(409);
      expect(other.json()).toMatchObject({ code: 'refund_in_progress' });

      const again = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, { amount: 200 });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({ status: 'succeeded', amountRefunded: 200 });
      expect(pullsOf(sessionId)).toHaveLength(1);
      expect(await refundRows(transaction.id)).toEqual([expect.objectContaining({ status: 'pending', amount: 200, attempts: 2 })]);

      // Lost again, and nobody clicks: the job that was recorded with the refund sends it, once.
      btcpay.loseNextAnswer('POST', /\/refund$/);
      expect((await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {})).statusCode).toBe(502);
      expect(pullsOf(sessionId)).toHaveLength(2);
      await f.env.database
        .db('jobs')
        .where({ type: 'send_refund' })
        .update({ run_at: new Date(Date.now() - 1000) });
      await f.runJobs();
      expect(pullsOf(sessionId)).toHaveLength(2);
      expect((await refundRows(transaction.id)).map((row: { status: string; amount: number }) => [row.status, row.amount])).toEqual([
        ['pending', 200],
        ['pending', 299],
      ]);
      expect(await transactionOf(sessionId)).toMatchObject({ status: 'refunded', amount_refunded: 499 });
    });
  });
});
