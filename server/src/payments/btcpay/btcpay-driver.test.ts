import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { providerError } from '../../../test/provider-errors.js';
import { startFakeBtcpay, type FakeBtcpay } from '../../../test/fake-btcpay/index.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../../test/fake-btcpay/webhook-receiver.js';
import { WebhookSignatureError, type CheckoutOrder, type PaymentDriver } from '../payment-driver.js';
import { createBtcpayDriver, testBtcpayConnection } from './btcpay-driver.js';

const API_KEY = 'btcpay_key_0123456789abcdef';
const STORE_ID = 'Store8xQz';
const WEBHOOK_SECRET = 'whsecret_btcpay_test';
const MINUTE = 60_000;

let seq = 0;
function order(overrides: Partial<CheckoutOrder> = {}): CheckoutOrder {
  seq += 1;
  return {
    orderId: `txn_${seq}`,
    amount: 999,
    currency: 'usd',
    productName: 'VPN Pro, 1 month',
    description: 'One month of VPN Pro',
    customerEmail: `buyer${seq}@example.com`,
    customerRef: `user_${seq}`,
    successUrl: 'https://shop.example/checkout/done?session={CHECKOUT_ID}',
    cancelUrl: 'https://shop.example/checkout/cancel',
    expiresAt: new Date(Date.now() + 30 * MINUTE),
    metadata: { purpose: 'purchase', planId: 'plan_pro' },
    ...overrides,
  };
}

const headersOf = (delivery: ReceivedWebhook) => delivery.headers as Record<string, string | string[] | undefined>;

describe('the BTCPay driver against a fake BTCPay Server over HTTP', () => {
  let fake: FakeBtcpay;
  let receiver: WebhookReceiver;
  let driver: PaymentDriver;
  const make = (overrides: { apiKey?: string; storeId?: string; webhookSecret?: string | null } = {}) =>
    createBtcpayDriver(
      {
        serverUrl: `${fake.url}/`,
        storeId: overrides.storeId ?? STORE_ID,
        apiKey: overrides.apiKey ?? API_KEY,
        webhookSecret: overrides.webhookSecret === undefined ? WEBHOOK_SECRET : overrides.webhookSecret,
      },
      { timeoutMs: 2000 },
    );

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    fake = await startFakeBtcpay({ apiKey: API_KEY, storeId: STORE_ID, webhookSecret: WEBHOOK_SECRET, webhookUrl: receiver.url, storeName: 'VPN Shop' });
    driver = make();
  });
  afterEach(async () => {
    await fake.close();
    await receiver.close();
  });

  describe('startCheckout', () => {
    it('creates an invoice for the decimal amount, with our order in its metadata and the redirect back to us', async () => {
      const o = order();
      const started = await driver.startCheckout(o);

      const invoice = fake.getInvoice(started.checkoutId)!;
      expect(started.url).toBe(invoice.checkoutLink);
      expect(started.url).toBe(`${fake.url}/i/${started.checkoutId}`);
      expect(invoice).toMatchObject({ amount: '9.99', currency: 'USD', status: 'New', additionalStatus: 'None', storeId: STORE_ID });
      expect(invoice.metadata).toEqual({
        purpose: 'purchase',
        planId: 'plan_pro',
        orderId: o.orderId,
        buyerEmail: o.customerEmail,
        itemDesc: 'VPN Pro, 1 month',
      });
      expect(invoice.checkout.redirectURL).toBe('https://shop.example/checkout/done?session={InvoiceId}');
      expect(invoice.checkout.redirectAutomatically).toBe(true);
      expect(invoice.checkout.expirationMinutes).toBeGreaterThanOrEqual(29);
      expect(invoice.checkout.expirationMinutes).toBeLessThanOrEqual(30);

      const create = fake.requests.find((r) => r.method === 'POST')!;
      expect(create.path).toBe(`/api/v1/stores/${STORE_ID}/invoices`);
      expect(JSON.parse(create.body)).toMatchObject({ amount: '9.99', currency: 'USD' });
    });

    it('asks for at least one minute when the order is about to expire, and keeps zero-decimal currencies whole', async () => {
      const started = await driver.startCheckout(order({ amount: 1500, currency: 'jpy', expiresAt: new Date(Date.now() + 5_000) }));
      expect(fake.getInvoice(started.checkoutId)).toMatchObject({ amount: '1500', currency: 'JPY', checkout: { expirationMinutes: 1 } });
    });

    it('refuses a recurring order without calling BTCPay', async () => {
      const err = await providerError(driver.startCheckout(order({ recurring: { customerRef: 'c', priceRef: 'p' } })));
      expect(err).toMatchObject({ message: 'BTCPay invoices are one-off', rejected: true });
      expect(fake.requests).toHaveLength(0);
    });

    it('the customer who pays on the checkout page is sent back to the success URL with the invoice id', async () => {
      const { checkoutId, url } = await driver.startCheckout(order());
      const page = await fetch(url);
      const html = await page.text();
      expect(html).toContain('9.99 USD');
      for (const label of ['Pay', 'Pay partially', 'Let it expire']) expect(html).toContain(`>${label}</button>`);

      const paid = await fetch(url, { method: 'POST', body: new URLSearchParams({ action: 'pay' }), redirect: 'manual' });
      expect(paid.status).toBe(303);
      const back = await fetch(new URL(paid.headers.get('location')!, url), { redirect: 'manual' });
      expect(back.headers.get('location')).toBe(`https://shop.example/checkout/done?session=${checkoutId}`);
      expect((await driver.readCheckout(checkoutId)).outcome).toBe('paid');
    });
  });

  describe('readCheckout', () => {
    it('a new invoice is open, with nothing paid and all due', async () => {
      const o = order();
      const { checkoutId } = await driver.startCheckout(o);
      expect(await driver.readCheckout(checkoutId)).toEqual({
        checkoutId,
        orderId: o.orderId,
        outcome: 'open',
        amountPaid: null,
        currency: 'usd',
        paymentRef: null,
        crypto: { status: 'New', additionalStatus: 'None', amountDue: 999, amountPaid: 0 },
      });
    });

    it('a processing invoice (paid, unconfirmed) is still open, showing the payment seen', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      await fake.pay(checkoutId, { confirmed: false });
      expect(await driver.readCheckout(checkoutId)).toMatchObject({
        outcome: 'open',
        amountPaid: null,
        paymentRef: null,
        crypto: { status: 'Processing', additionalStatus: 'None', amountPaid: 999, amountDue: 0 },
      });
    });

    it('a settled invoice is paid its amount, and names itself as the payment', async () => {
      const o = order();
      const { checkoutId } = await driver.startCheckout(o);
      await fake.pay(checkoutId);
      expect(await driver.readCheckout(checkoutId)).toMatchObject({
        orderId: o.orderId,
        outcome: 'paid',
        amountPaid: 999,
        currency: 'usd',
        paymentRef: checkoutId,
        crypto: { status: 'Settled', additionalStatus: 'None', amountPaid: 999, amountDue: 0 },
      });
    });

    it('a partly paid invoice is open, with what was paid and what is due', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      await fake.payPartially(checkoutId);
      expect(await driver.readCheckout(checkoutId)).toMatchObject({
        outcome: 'open',
        amountPaid: null,
        crypto: { status: 'New', additionalStatus: 'PaidPartial', amountPaid: 500, amountDue: 499 },
      });
    });

    it('an expired invoice is expired; paid in full after expiry (PaidLate) it is open until its payment confirms, then paid', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      await fake.expire(checkoutId);
      expect(await driver.readCheckout(checkoutId)).toMatchObject({
        outcome: 'expired',
        amountPaid: null,
        crypto: { status: 'Expired', additionalStatus: 'None', amountPaid: 0 },
      });

      await fake.payLate(checkoutId, { confirmed: false });
      expect(await driver.readCheckout(checkoutId)).toMatchObject({
        outcome: 'open',
        amountPaid: null,
        paymentRef: null,
        crypto: { status: 'Expired', additionalStatus: 'PaidLate', amountPaid: 999, amountDue: 0 },
      });

      await fake.confirm(checkoutId);
      expect(fake.getInvoice(checkoutId)).toMatchObject({ status: 'Expired', additionalStatus: 'PaidLate' });
      expect(await driver.readCheckout(checkoutId)).toMatchObject({
        outcome: 'paid',
        amountPaid: 999,
        paymentRef: checkoutId,
        crypto: { status: 'Expired', additionalStatus: 'PaidLate', amountPaid: 999, amountDue: 0 },
      });
    });

    it('an expired invoice with part of it paid is expired, with what was paid', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      await fake.payPartially(checkoutId);
      await fake.expire(checkoutId);
      expect(await driver.readCheckout(checkoutId)).toMatchObject({
        outcome: 'expired',
        amountPaid: null,
        paymentRef: checkoutId,
        crypto: { status: 'Expired', additionalStatus: 'PaidPartial', amountPaid: 500, amountDue: 499 },
      });
    });

    it('an overpaid invoice is paid its price, with what was really sent', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      await fake.pay(checkoutId, { overpaySats: 1000 }); // 1000 sats at 60 000 per BTC: 0.60
      expect(await driver.readCheckout(checkoutId)).toMatchObject({
        outcome: 'paid',
        amountPaid: 999,
        crypto: { status: 'Settled', additionalStatus: 'PaidOver', amountPaid: 1059, amountDue: 0 },
      });
    });

    it('under HighSpeed a late payment counts as confirmed as soon as it is seen', async () => {
      const fast = await startFakeBtcpay({ apiKey: API_KEY, storeId: STORE_ID, webhookSecret: WEBHOOK_SECRET, speedPolicy: 'HighSpeed' });
      try {
        const fastDriver = createBtcpayDriver({ serverUrl: fast.url, storeId: STORE_ID, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
        const { checkoutId } = await fastDriver.startCheckout(order());
        await fast.expire(checkoutId);
        await fast.payLate(checkoutId, { confirmed: false });
        expect(await fastDriver.readCheckout(checkoutId)).toMatchObject({ outcome: 'paid', amountPaid: 999 });
      } finally {
        await fast.close();
      }
    });

    it('an invoice marked invalid has failed; one marked settled is paid', async () => {
      const invalid = await driver.startCheckout(order());
      await fake.markStatus(invalid.checkoutId, 'Invalid');
      expect(await driver.readCheckout(invalid.checkoutId)).toMatchObject({
        outcome: 'failed',
        amountPaid: null,
        crypto: { status: 'Invalid', additionalStatus: 'Marked' },
      });

      const marked = await driver.startCheckout(order());
      await fake.markStatus(marked.checkoutId, 'Settled');
      expect(await driver.readCheckout(marked.checkoutId)).toMatchObject({
        outcome: 'paid',
        amountPaid: 999,
        crypto: { status: 'Settled', additionalStatus: 'Marked' },
      });
    });

    it("an unknown invoice is a rejected request with BTCPay's code", async () => {
      const err = await providerError(driver.readCheckout('NoSuchInvoice'));
      expect(err).toMatchObject({ code: 'invoice-not-found', rejected: true });
    });
  });

  describe('expireCheckout', () => {
    it('marks a new invoice invalid, so it can no longer be paid, and reports it expired', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      const state = await driver.expireCheckout(checkoutId);
      expect(state).toMatchObject({ checkoutId, outcome: 'expired', amountPaid: null, crypto: { status: 'Invalid', additionalStatus: 'Marked' } });
      expect(fake.getInvoice(checkoutId)).toMatchObject({ status: 'Invalid', additionalStatus: 'Marked' });
      const mark = fake.requests.find((r) => r.path.endsWith('/status'))!;
      expect(mark.path).toBe(`/api/v1/stores/${STORE_ID}/invoices/${checkoutId}/status`);
      expect(JSON.parse(mark.body)).toEqual({ status: 'Invalid' });
      await expect(fake.pay(checkoutId)).rejects.toThrow(/is Invalid/);
    });

    it('leaves a paid invoice, and one being paid, as they are', async () => {
      const paid = await driver.startCheckout(order());
      await fake.pay(paid.checkoutId);
      expect(await driver.expireCheckout(paid.checkoutId)).toMatchObject({ outcome: 'paid', amountPaid: 999 });

      const processing = await driver.startCheckout(order());
      await fake.pay(processing.checkoutId, { confirmed: false });
      expect(await driver.expireCheckout(processing.checkoutId)).toMatchObject({ outcome: 'open', crypto: { status: 'Processing' } });

      expect(fake.requests.filter((r) => r.path.endsWith('/status'))).toHaveLength(0);
      expect(fake.getInvoice(paid.checkoutId)?.status).toBe('Settled');
      expect(fake.getInvoice(processing.checkoutId)?.status).toBe('Processing');
    });
  });

  describe('verifyWebhook', () => {
    it('accepts real deliveries and reports each as the invoice now stands', async () => {
      const o = order();
      const { checkoutId } = await driver.startCheckout(o);
      await fake.pay(checkoutId, { confirmed: false });
      await fake.waitForDeliveries();

      const processing = receiver.ofType('InvoiceProcessing')[0]!;
      const verified = await driver.verifyWebhook(processing.body, headersOf(processing));
      expect(verified).toMatchObject({ id: processing.payload.deliveryId, type: 'InvoiceProcessing' });
      expect(verified.event).toMatchObject({
        kind: 'checkout',
        checkout: { checkoutId, orderId: o.orderId, outcome: 'open', crypto: { status: 'Processing', amountPaid: 999, amountDue: 0 } },
      });

      await fake.confirm(checkoutId);
      const settled = receiver.ofType('InvoiceSettled')[0]!;
      expect(await driver.verifyWebhook(settled.body, headersOf(settled))).toMatchObject({
        id: settled.payload.deliveryId,
        type: 'InvoiceSettled',
        event: { kind: 'checkout', checkout: { checkoutId, outcome: 'paid', amountPaid: 999, currency: 'usd', paymentRef: checkoutId } },
      });
    });

    it('reports a partial payment as open with what was paid, and a late payment as open until it confirms, then paid', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      await fake.payPartially(checkoutId);
      const partial = receiver.ofType('InvoiceReceivedPayment')[0]!;
      expect(partial.payload).toMatchObject({ afterExpiration: false, paymentMethodId: 'BTC-CHAIN' });
      expect((await driver.verifyWebhook(partial.body, headersOf(partial))).event).toMatchObject({
        checkout: { outcome: 'open', crypto: { additionalStatus: 'PaidPartial', amountPaid: 500, amountDue: 499 } },
      });

      await fake.expire(checkoutId);
      const expired = receiver.ofType('InvoiceExpired')[0]!;
      expect(expired.payload).toMatchObject({ partiallyPaid: true });
      expect((await driver.verifyWebhook(expired.body, headersOf(expired))).event).toMatchObject({ checkout: { outcome: 'expired' } });

      await fake.payLate(checkoutId, { confirmed: false });
      const late = receiver.ofType('InvoicePaidAfterExpiration')[0]!;
      expect((await driver.verifyWebhook(late.body, headersOf(late))).event).toMatchObject({
        checkout: { outcome: 'open', amountPaid: null, crypto: { additionalStatus: 'PaidLate' } },
      });

      await fake.confirm(checkoutId);
      const confirmed = receiver.ofType('InvoicePaymentSettled').find((r) => r.payload.afterExpiration === true)!;
      expect((await driver.verifyWebhook(confirmed.body, headersOf(confirmed))).event).toMatchObject({ checkout: { outcome: 'paid', amountPaid: 999 } });
    });

    it('acknowledges events we do not act on without reading anything', async () => {
      await driver.startCheckout(order());
      await fake.waitForDeliveries();
      const created = receiver.ofType('InvoiceCreated')[0]!;
      const before = fake.requests.length;
      expect(await driver.verifyWebhook(created.body, headersOf(created))).toEqual({ id: created.payload.deliveryId, type: 'InvoiceCreated', event: null });
      expect(fake.requests).toHaveLength(before);
    });

    it('gives a redelivery the id of the first delivery, so it is applied once', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      await fake.pay(checkoutId);
      const first = receiver.ofType('InvoiceSettled')[0]!;
      const again = await fake.redeliver(first.payload.deliveryId);
      const twice = await fake.redeliver(again.deliveryId);
      const redeliveries = receiver.ofType('InvoiceSettled').slice(1);
      expect(redeliveries.map((r) => r.payload)).toMatchObject([
        { isRedelivery: true, originalDeliveryId: first.payload.deliveryId, deliveryId: again.deliveryId },
        { isRedelivery: true, originalDeliveryId: first.payload.deliveryId, deliveryId: twice.deliveryId },
      ]);
      for (const delivery of redeliveries) {
        expect((await driver.verifyWebhook(delivery.body, headersOf(delivery))).id).toBe(first.payload.deliveryId);
      }
    });

    it('refuses a missing, wrong, shorter or unprefixed signature, a changed body, and any delivery without a secret', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      await fake.pay(checkoutId);
      const delivery = receiver.ofType('InvoiceSettled')[0]!;
      const body = delivery.body;
      const good = String(delivery.headers['btcpay-sig']);
      const wrong = fake.signedDelivery(JSON.parse(body.toString('utf8')), { secret: 'another secret' }).signature;
      expect(wrong).toHaveLength(good.length);
      const changed = Buffer.from(body.toString('utf8').replace('"InvoiceSettled"', '"InvoiceInvalid"'));

      const attempts: [Buffer, Record<string, string>][] = [
        [body, {}],
        [body, { 'btcpay-sig': wrong }],
        [body, { 'btcpay-sig': good.slice(0, -2) }],
        [body, { 'btcpay-sig': `${good}00` }],
        [body, { 'btcpay-sig': good.slice('sha256='.length) }],
        [changed, { 'btcpay-sig': good }],
      ];
      for (const [raw, headers] of attempts) {
        await expect(driver.verifyWebhook(raw, headers)).rejects.toBeInstanceOf(WebhookSignatureError);
      }
      await expect(make({ webhookSecret: null }).verifyWebhook(body, { 'btcpay-sig': good })).rejects.toBeInstanceOf(WebhookSignatureError);
      // The header's case does not matter.
      expect((await driver.verifyWebhook(body, { 'BTCPay-Sig': good })).type).toBe('InvoiceSettled');
    });
  });

  describe('refund', () => {
    it('refunds the whole invoice as a pull payment the customer claims, without sending our idempotency key', async () => {
      const o = order();
      const { checkoutId } = await driver.startCheckout(o);
      await fake.pay(checkoutId);

      const result = await driver.refund({
        paymentRef: checkoutId,
        refundRef: 'r1',
        reason: 'requested_by_customer',
        idempotencyKey: 'refund-key-1',
        retry: false,
        metadata: { refundId: 'r1' },
      });
      const [pullPayment] = fake.listRefunds();
      expect(result).toEqual({ refundId: pullPayment!.id, amount: 999, status: 'pending', claimUrl: `${fake.url}/pull-payments/${pullPayment!.id}` });
      expect(pullPayment).toMatchObject({
        invoiceId: checkoutId,
        currency: 'USD',
        amount: '9.99',
        name: `Refund r1 of order ${o.orderId}`,
        description: 'Refund requested by the customer',
      });

      const request = fake.requests.find((r) => r.path.endsWith('/refund'))!;
      expect(request.path).toBe(`/api/v1/stores/${STORE_ID}/invoices/${checkoutId}/refund`);
      expect(JSON.parse(request.body)).toEqual({
        name: `Refund r1 of order ${o.orderId}`,
        description: 'Refund requested by the customer',
        refundVariant: 'Fiat',
      });
      expect(request.body).not.toContain('refund-key-1');
      expect((await fetch(result.claimUrl!)).status).toBe(200);
    });

    it('refunds part of the invoice in its currency', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      await fake.pay(checkoutId);
      const result = await driver.refund({ paymentRef: checkoutId, refundRef: 'r2', amount: 300, idempotencyKey: 'k', retry: false, metadata: {} });
      expect(result).toMatchObject({ amount: 300, status: 'pending' });
      expect(fake.listRefunds()[0]).toMatchObject({ currency: 'USD', amount: '3.00' });
      expect(JSON.parse(fake.requests.find((r) => r.path.endsWith('/refund'))!.body)).toMatchObject({
        refundVariant: 'Custom',
        customAmount: '3.00',
        customCurrency: 'USD',
      });
    });

    it('is refused for an invoice that was not paid, and nothing is recorded', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      const err = await providerError(driver.refund({ paymentRef: checkoutId, refundRef: 'r3', idempotencyKey: 'k', retry: false, metadata: {} }));
      expect(err).toMatchObject({ code: 'non-refundable', rejected: true });
      expect(fake.listRefunds()).toEqual([]);
    });

    it('a retry after a lost answer finds the pull payment the first attempt made instead of making another', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      await fake.pay(checkoutId);
      fake.loseNextAnswer('POST', /\/refund$/);
      const first = await providerError(driver.refund({ paymentRef: checkoutId, refundRef: 'r4', idempotencyKey: 'k4', retry: false, metadata: {} }));
      expect(first.rejected).toBe(false);
      expect(fake.listRefunds()).toHaveLength(1);

      const again = await driver.refund({ paymentRef: checkoutId, refundRef: 'r4', idempotencyKey: 'k4', retry: true, metadata: {} });
      const [made] = fake.listRefunds();
      expect(fake.listRefunds()).toHaveLength(1);
      expect(again).toMatchObject({ refundId: made!.id, amount: 999, status: 'pending', claimUrl: made!.viewLink });
      expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/api/v1/stores/${STORE_ID}/pull-payments`)).toBe(true);

      // Another refund of the same invoice (another ref) is a refund of its own.
      await driver.refund({ paymentRef: checkoutId, refundRef: 'r5', amount: 100, idempotencyKey: 'k5', retry: true, metadata: {} });
      expect(fake.listRefunds()).toHaveLength(2);
    });
  });

  describe('credentials and reachability', () => {
    it('a wrong API key is a rejected request whose message does not contain either key', async () => {
      const { checkoutId } = await driver.startCheckout(order());
      const wrongKey = 'wrong_key_4242424242';
      const err = await providerError(make({ apiKey: wrongKey }).readCheckout(checkoutId));
      expect(err).toMatchObject({ code: 'unauthenticated', rejected: true });
      expect(err.message).not.toContain(wrongKey);
      expect(err.message).not.toContain(API_KEY);
    });

    it('an unreachable server is an error worth retrying', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const offline = createBtcpayDriver(
        { serverUrl: `http://127.0.0.1:${port}`, storeId: STORE_ID, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET },
        { timeoutMs: 2000 },
      );
      const err = await providerError(offline.readCheckout('any'));
      expect(err.rejected).toBe(false);
      expect(err.message).toMatch(/^Reading the invoice: BTCPay Server could not be reached/);
    });

    it('the recurring methods are refused: crypto payments are one-off', async () => {
      for (const call of [
        driver.createCustomer({ userId: 'u', email: 'e@example.com' }),
        driver.ensureRecurringPrice({ planId: 'p', productName: 'P', description: '', amount: 100, currency: 'usd', interval: { unit: 'month', count: 1 } }),
        driver.readSubscription('s'),
        driver.setCancelAtPeriodEnd('s', true),
        driver.cancelNow('s'),
        driver.openBillingPortal('c', 'https://shop.example', 'en'),
      ]) {
        const err = await providerError(call);
        expect(err).toMatchObject({ message: 'Not supported by BTCPay: crypto payments are one-off', rejected: true });
      }
      expect(fake.requests).toHaveLength(0);
    });

    it('names itself and the store account', async () => {
      expect(driver.name).toBe('btcpay');
      await expect(driver.identifyAccount()).resolves.toBe(`${fake.url}|${STORE_ID}`);
    });
  });

  describe('testBtcpayConnection', () => {
    it('reads the store name with good keys', async () => {
      await expect(testBtcpayConnection({ serverUrl: fake.url, storeId: STORE_ID, apiKey: API_KEY })).resolves.toEqual({ name: 'VPN Shop' });
    });

    it('says the key was refused for a wrong key, and for a store the key cannot see', async () => {
      const wrongKey = await providerError(testBtcpayConnection({ serverUrl: fake.url, storeId: STORE_ID, apiKey: 'nope_nope_nope' }));
      expect(wrongKey).toMatchObject({ message: 'The API key was refused', rejected: true });
      expect(wrongKey.message).not.toContain('nope_nope_nope');

      const wrongStore = await providerError(testBtcpayConnection({ serverUrl: fake.url, storeId: 'OtherStore', apiKey: API_KEY }));
      expect(wrongStore.message).toMatch(/^The API key was refused for this store: check the store id/);
      expect(wrongStore).toMatchObject({ code: 'missing-permission', rejected: true });
    });

    it('says what is wrong when the address is not a BTCPay Server', async () => {
      const err = await providerError(testBtcpayConnection({ serverUrl: `${fake.url}/not-btcpay`, storeId: STORE_ID, apiKey: API_KEY }));
      expect(err.rejected).toBe(true);
    });
  });
});
