import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { useBillingFixture } from '../../../../test/billing-fixture.js';
import { BTCPAY, useFakeBtcpay } from '../../../../test/btcpay-fixture.js';
import type { FakeBtcpay, WebhookPayload } from '../../../../test/fake-btcpay/index.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import type { DesktopSession } from '../../../../test/test-app.js';

/** "2.49" in USD → 249. */
const cents = (decimal: string) => Math.round(Number(decimal) * 100);

/**
 * The edges of crypto payments, with the fake BTCPay over real HTTP: a late payment is delivered only once
 * confirmed, an expired part-paid invoice goes to review (the customer told, the admin shown, refundable),
 * overpaid invoices are delivered with a note, and invoices the operator marks in BTCPay are applied.
 */
describe.each(TEST_DATABASES)('crypto payment edges (%s)', (kind) => {
  const f = useBillingFixture(kind);
  const shop = useFakeBtcpay(f);
  let btcpay: FakeBtcpay;
  const webhookUrl = shop.webhookUrl;
  const postSigned = async (payload: WebhookPayload) => {
    const { body, signature } = btcpay.signedDelivery(payload);
    const res = await fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json', 'btcpay-sig': signature }, body });
    return res.status;
  };
  /** Runs a payment action with the webhook switched off: the test delivers (or loses) the events itself. */
  const quietly = async <T>(action: () => Promise<T>): Promise<T> => {
    btcpay.setWebhookUrl(null);
    try {
      return await action();
    } finally {
      btcpay.setWebhookUrl(webhookUrl());
    }
  };
  const buy = async (user: DesktopSession) => {
    const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'crypto' });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { sessionId: string }).sessionId;
  };
  const status = async (user: DesktopSession, sessionId: string) => (await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json();
  const transactionOf = async (invoiceId: string) => {
    const row = await f.env.database.db('transactions').where({ provider_transaction_id: invoiceId }).first();
    return { ...row, metadata: typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata };
  };
  const panelUserOf = (accountId: string) => [...f.panel.users.values()].map(asMarzneshinUser).find((u) => u.note === accountId);
  const adminPayment = async (transactionId: string) => {
    const list = (await f.call(f.admin, 'GET', '/api/admin/transactions')).json() as Array<Record<string, unknown>>;
    return list.find((item) => item.id === transactionId);
  };
  const mailsAfter = (count: number, subject: RegExp) => f.env.smtp.messages.slice(count).filter((m) => subject.test(m.subject));
  const mailText = (raw: string) => raw.replace(/=\r?\n/g, ''); // quoted-printable soft line breaks

  beforeAll(async () => {
    btcpay = shop.fake;
    const saved = await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', { ...BTCPAY, enabled: true, serverUrl: btcpay.url });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  describe('a payment after the invoice expired', () => {
    it('is not provisioned while unconfirmed, then once when it confirms, however the news arrives', async () => {
      const user = await f.newUser();
      const sessionId = await buy(user);
      await quietly(() => btcpay.expire(sessionId)); // the expiry is not heard: the late payment comes first
      await btcpay.payLate(sessionId, { confirmed: false });
      await f.runJobs();
      expect(await status(user, sessionId)).toMatchObject({ status: 'pending', crypto: { status: 'Expired', additionalStatus: 'PaidLate', amountDue: 0 } });
      const { id: transactionId } = await transactionOf(sessionId);
      const provisionJobs = () => f.count('jobs', { dedupe_key: `provision_paid_account:${transactionId}` });
      expect(await provisionJobs()).toBe(0);

      // The confirmation's webhook, delivered three times at once and redelivered, while the return page checks.
      const events = await quietly(() => btcpay.confirm(sessionId));
      const settled = events.find((e) => e.type === 'InvoicePaymentSettled')!;
      expect(settled.afterExpiration).toBe(true);
      const [a, b, c, page] = await Promise.all([postSigned(settled), postSigned(settled), postSigned(settled), status(user, sessionId)]);
      expect([a, b, c]).toEqual([200, 200, 200]);
      expect(['pending', 'succeeded']).toContain(page.status);
      await btcpay.redeliver(settled.deliveryId);
      await f.runJobs();

      const done = await status(user, sessionId);
      expect(done.status).toBe('succeeded');
      expect(done.account.status).toBe('active');
      expect(await provisionJobs()).toBe(1);
      expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(1);
      expect(panelUserOf(done.account.id)?.enabled).toBe(true);
      expect((await transactionOf(sessionId)).status).toBe('succeeded');
    });

    it('reopens a checkout already closed as expired while the late payment confirms', async () => {
      const user = await f.newUser();
      const sessionId = await buy(user);
      await btcpay.expire(sessionId);
      expect((await status(user, sessionId)).status).toBe('failed');
      await btcpay.payLate(sessionId, { confirmed: false });
      expect(await status(user, sessionId)).toMatchObject({ status: 'pending', crypto: { additionalStatus: 'PaidLate' } });
      await btcpay.confirm(sessionId);
      await f.runJobs();
      expect(await status(user, sessionId)).toMatchObject({ status: 'succeeded', account: { status: 'active' } });
    });
  });

  describe('an invoice that expired part-paid', () => {
    it('needs review with what was paid; the customer is e-mailed once, the admin sees it and can refund it', async () => {
      const user = await f.newUser();
      const sessionId = await buy(user);
      await btcpay.payPartially(sessionId);
      const mailsBefore = f.env.smtp.messages.length;
      const expired = await btcpay.expire(sessionId);
      await btcpay.redeliver(expired[0]!.deliveryId);
      await f.runJobs();

      const paid = cents(btcpay.getInvoice(sessionId)!.paidAmount);
      expect(paid).toBeGreaterThan(0);
      expect(paid).toBeLessThan(499);
      const transaction = await transactionOf(sessionId);
      expect(transaction.status).toBe('needs_review');
      expect(transaction.metadata.review).toEqual({ reason: 'partial_payment', amount_paid: paid, currency_paid: 'usd' });
      expect(await status(user, sessionId)).toMatchObject({ status: 'needs_review', error: BILLING_MESSAGES.partialPaymentExpired });
      expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(0);

      const mails = mailsAfter(mailsBefore, /crypto payment was not completed/);
      expect(mails).toHaveLength(1);
      const text = mailText(mails[0]!.raw);
      expect(text).toContain(`we received $${(paid / 100).toFixed(2)} of $4.99`);
      expect(text).toContain('We will refund');

      const listed = await adminPayment(transaction.id);
      expect(listed).toMatchObject({ status: 'needs_review', refundable: true, method: 'crypto' });
      expect(listed!.note).toMatch(new RegExp(`Paid \\$${(paid / 100).toFixed(2)}.*\\$4\\.99`));
      const review = (await f.call(f.admin, 'GET', '/api/admin/system')).json();
      expect(JSON.stringify(review)).toContain(transaction.id);

      const refund = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {});
      expect(refund.statusCode, refund.body).toBe(200);
      expect(btcpay.listRefunds().filter((pull) => pull.invoiceId === sessionId)).toHaveLength(1);
      expect((await transactionOf(sessionId)).status).toBe('refunded');
    });

    it('an invoice we close part-paid (our own expiry marks it invalid) needs review too', async () => {
      const user = await f.newUser();
      const sessionId = await buy(user);
      await btcpay.payPartially(sessionId);
      await quietly(() => btcpay.markStatus(sessionId, 'Invalid')); // what expireCheckout does to a New invoice
      // No webhook: the return page's check reads the invoice.
      expect(await status(user, sessionId)).toMatchObject({ status: 'needs_review' });
      expect((await transactionOf(sessionId)).metadata.review).toMatchObject({ reason: 'partial_payment' });
    });

    it('is delivered after all when the rest is paid late and confirms', async () => {
      const user = await f.newUser();
      const sessionId = await buy(user);
      await btcpay.payPartially(sessionId);
      await btcpay.expire(sessionId);
      expect((await transactionOf(sessionId)).status).toBe('needs_review');
      await btcpay.payLate(sessionId, { confirmed: false });
      await f.runJobs();
      expect((await transactionOf(sessionId)).status).toBe('needs_review');
      await btcpay.confirm(sessionId);
      await f.runJobs();
      expect(await status(user, sessionId)).toMatchObject({ status: 'succeeded', account: { status: 'active' } });
    });
  });

  it('an overpaid invoice is delivered, and the admin sees the overpayment', async () => {
    const user = await f.newUser();
    const sessionId = await buy(user);
    await btcpay.pay(sessionId, { overpaySats: 1000 }); // 0.60 at the fake's rate
    await f.runJobs();
    expect(await status(user, sessionId)).toMatchObject({ status: 'succeeded', account: { status: 'active' } });
    const transaction = await transactionOf(sessionId);
    expect(transaction.metadata.overpaid).toEqual({
      amount_paid: cents(btcpay.getInvoice(sessionId)!.paidAmount),
      amount_over: cents(btcpay.getInvoice(sessionId)!.paidAmount) - 499,
    });
    expect(transaction.metadata.overpaid.amount_over).toBeGreaterThan(0);
  });

  describe('invoices the operator marks in BTCPay', () => {
    it('marked settled: delivered once', async () => {
      const user = await f.newUser();
      const sessionId = await buy(user);
      const [settled] = await btcpay.markStatus(sessionId, 'Settled');
      expect(settled).toMatchObject({ type: 'InvoiceSettled', manuallyMarked: true });
      await btcpay.redeliver(settled!.deliveryId);
      await f.runJobs();
      expect(await status(user, sessionId)).toMatchObject({ status: 'succeeded', account: { status: 'active' } });
      expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(1);
    });

    it('marked invalid after delivery: the account is taken back, once', async () => {
      const user = await f.newUser();
      const sessionId = await buy(user);
      await btcpay.markStatus(sessionId, 'Settled');
      await f.runJobs();
      const accountId = (await status(user, sessionId)).account.id as string;
      expect(panelUserOf(accountId)?.enabled).toBe(true);

      const [invalid] = await btcpay.markStatus(sessionId, 'Invalid');
      expect(invalid).toMatchObject({ type: 'InvoiceInvalid', manuallyMarked: true });
      await btcpay.redeliver(invalid!.deliveryId);
      await f.runJobs();
      const transaction = await transactionOf(sessionId);
      expect(transaction.status).toBe('refunded');
      expect(transaction.metadata.dispute).toEqual({ id: `marked_invalid:${sessionId}`, status: 'lost' });
      expect(panelUserOf(accountId)?.enabled).toBe(false);
      expect(await f.count('jobs', { type: 'sync_paid_period', dedupe_key: `sync_paid_period:${accountId}:dispute-lost:marked_invalid:${sessionId}` })).toBe(1);
      expect(btcpay.listRefunds().filter((pull) => pull.invoiceId === sessionId)).toHaveLength(0);
    });
  });
});
