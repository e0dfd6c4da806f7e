import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeBtcpay, type FakeBtcpay, type InvoiceObject } from './index.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const API_KEY = 'fake_key_123';
const STORE_ID = 'StoreA';
const SECRET = 'hook_secret';

describe('the fake BTCPay Server', () => {
  let fake: FakeBtcpay;
  let receiver: WebhookReceiver;

  const api = (method: string, path: string, body?: unknown, key: string | null = API_KEY) =>
    fetch(`${fake.url}${path}`, {
      method,
      headers: { ...(key ? { authorization: `token ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const createInvoice = async (body: Record<string, unknown> = { amount: '9.99', currency: 'USD', metadata: { orderId: 'o1' } }): Promise<InvoiceObject> => {
    const response = await api('POST', `/api/v1/stores/${STORE_ID}/invoices`, body);
    expect(response.status).toBe(200);
    return (await response.json()) as InvoiceObject;
  };
  const typesFor = (invoiceId: string) => fake.events.filter((e) => e.invoiceId === invoiceId).map((e) => e.type);

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    fake = await startFakeBtcpay({ apiKey: API_KEY, storeId: STORE_ID, webhookSecret: SECRET, webhookUrl: receiver.url });
  });
  afterEach(async () => {
    await fake.close();
    await receiver.close();
  });

  it("answers 401 without the right key, 403 for another store, 404 for an unknown invoice, in Greenfield's shapes", async () => {
    for (const key of [null, 'wrong']) {
      const response = await api('GET', `/api/v1/stores/${STORE_ID}`, undefined, key);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ code: 'unauthenticated', message: 'Authentication is required for accessing this endpoint' });
    }
    const other = await api('GET', '/api/v1/stores/OtherStore');
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ code: 'missing-permission', missingPermission: 'btcpay.store.canviewstoresettings' });
    const missing = await api('GET', `/api/v1/stores/${STORE_ID}/invoices/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: 'invoice-not-found', message: 'The invoice was not found' });
  });

  it('validates a new invoice as BTCPay does (422, a list of problems)', async () => {
    const response = await api('POST', `/api/v1/stores/${STORE_ID}/invoices`, { amount: '-1', currency: 'USD' });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual([{ path: 'amount', message: 'The amount should be 0 or more.' }]);
    const short = await api('POST', `/api/v1/stores/${STORE_ID}/invoices`, { amount: '1', checkout: { expirationMinutes: 0.25 } });
    expect(await short.json()).toEqual([{ path: 'checkout.expirationMinutes', message: 'Expiration time must be at least 30 seconds' }]);
    expect(fake.listInvoices()).toEqual([]);
  });

  it('creates an invoice in the real shape, with the store defaults, readable with or without the store in the path', async () => {
    const before = Math.floor(Date.now() / 1000);
    const invoice = await createInvoice();
    expect(invoice).toMatchObject({
      storeId: STORE_ID,
      amount: '9.99',
      paidAmount: '0.00',
      currency: 'USD',
      type: 'Standard',
      checkoutLink: `${fake.url}/i/${invoice.id}`,
      status: 'New',
      additionalStatus: 'None',
      availableStatusesForManualMarking: ['Settled', 'Invalid'],
      archived: false,
      metadata: { orderId: 'o1' },
      checkout: { expirationMinutes: 15, monitoringMinutes: 1440, redirectAutomatically: false, paymentMethods: ['BTC-CHAIN'] },
    });
    expect(invoice.createdTime).toBeGreaterThanOrEqual(before);
    expect(invoice.expirationTime).toBe(invoice.createdTime + 900);
    expect(invoice.monitoringExpiration).toBe(invoice.expirationTime + 86_400);
    expect(await (await api('GET', `/api/v1/invoices/${invoice.id}`)).json()).toEqual(invoice);
    expect(typesFor(invoice.id)).toEqual(['InvoiceCreated']);
  });

  it('a full payment: received, processing, confirmed, settled — each delivered signed like BTCPay', async () => {
    const invoice = await createInvoice();
    const events = await fake.pay(invoice.id);
    expect(events.map((e) => e.type)).toEqual(['InvoiceReceivedPayment', 'InvoiceProcessing', 'InvoicePaymentSettled', 'InvoiceSettled']);
    expect(events[0]).toMatchObject({
      storeId: STORE_ID,
      invoiceId: invoice.id,
      metadata: { orderId: 'o1' },
      afterExpiration: false,
      paymentMethodId: 'BTC-CHAIN',
      payment: { value: '0.00016650', status: 'Processing' },
    });
    expect(events[3]).toMatchObject({ manuallyMarked: false, overPaid: false, isRedelivery: false, originalDeliveryId: null, webhookId: fake.webhookId });
    expect(fake.getInvoice(invoice.id)).toMatchObject({ status: 'Settled', additionalStatus: 'None', paidAmount: '9.99' });

    await fake.waitForDeliveries();
    const settled = receiver.ofType('InvoiceSettled')[0]!;
    expect(settled.headers['content-type']).toBe('application/json');
    expect(settled.headers['user-agent']).toMatch(/^BTCPayServer\//);
    expect(settled.headers['btcpay-sig']).toBe(`sha256=${createHmac('sha256', SECRET).update(settled.body).digest('hex')}`);
    expect(settled.body.toString('utf8')).toContain('\n  "deliveryId": ');
    expect(fake.deliveries.filter((d) => d.invoiceId === invoice.id).map((d) => d.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('a partial payment leaves the invoice New with PaidPartial; expiring it says partiallyPaid', async () => {
    const invoice = await createInvoice();
    expect((await fake.payPartially(invoice.id)).map((e) => e.type)).toEqual(['InvoiceReceivedPayment']);
    expect(fake.getInvoice(invoice.id)).toMatchObject({ status: 'New', additionalStatus: 'PaidPartial', paidAmount: '5.00' });
    expect(fake.getPaymentMethods(invoice.id)).toMatchObject([
      {
        paymentMethodId: 'BTC-CHAIN',
        currency: 'BTC',
        rate: '60000',
        amount: '0.00016650',
        totalPaid: '0.00008325',
        due: '0.00008325',
        payments: [{ status: 'Processing' }],
      },
    ]);
    const expired = await fake.expire(invoice.id);
    expect(expired.map((e) => [e.type, e.partiallyPaid])).toEqual([
      ['InvoiceExpired', true],
      ['InvoiceExpiredPaidPartial', undefined],
    ]);
  });

  it('a late payment leaves the invoice Expired with PaidLate, and is never settled', async () => {
    const invoice = await createInvoice();
    await fake.expire(invoice.id);
    const events = await fake.payLate(invoice.id);
    expect(events.map((e) => [e.type, e.afterExpiration])).toEqual([
      ['InvoiceReceivedPayment', true],
      ['InvoicePaidAfterExpiration', undefined],
      ['InvoicePaymentSettled', true],
    ]);
    expect(fake.getInvoice(invoice.id)).toMatchObject({ status: 'Expired', additionalStatus: 'PaidLate' });
  });

  it('a late unconfirmed payment stays Processing until it confirms; the invoice stays Expired with PaidLate throughout', async () => {
    const invoice = await createInvoice();
    await fake.expire(invoice.id);
    expect((await fake.payLate(invoice.id, { confirmed: false })).map((e) => e.type)).toEqual(['InvoiceReceivedPayment', 'InvoicePaidAfterExpiration']);
    expect(fake.getPaymentMethods(invoice.id)).toMatchObject([{ payments: [{ status: 'Processing' }] }]);
    const confirmed = await fake.confirm(invoice.id);
    expect(confirmed.map((e) => [e.type, e.afterExpiration])).toEqual([['InvoicePaymentSettled', true]]);
    expect(fake.getPaymentMethods(invoice.id)).toMatchObject([{ payments: [{ status: 'Settled' }] }]);
    expect(fake.getInvoice(invoice.id)).toMatchObject({ status: 'Expired', additionalStatus: 'PaidLate' });
  });

  it('an overpayment settles the invoice with PaidOver and a negative due', async () => {
    const invoice = await createInvoice();
    const events = await fake.pay(invoice.id, { overpaySats: 1000 });
    expect(events.filter((e) => e.type === 'InvoiceProcessing' || e.type === 'InvoiceSettled').map((e) => [e.type, e.overPaid])).toEqual([
      ['InvoiceProcessing', true],
      ['InvoiceSettled', true],
    ]);
    expect(fake.getInvoice(invoice.id)).toMatchObject({ status: 'Settled', additionalStatus: 'PaidOver' });
    expect(fake.getPaymentMethods(invoice.id)).toMatchObject([{ due: '-0.00001000' }]);
  });

  it('marks status only where BTCPay allows it', async () => {
    const invoice = await createInvoice();
    await fake.pay(invoice.id);
    const refused = await api('POST', `/api/v1/stores/${STORE_ID}/invoices/${invoice.id}/status`, { status: 'Invalid' });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual([{ path: 'status', message: 'Status can only be marked to invalid or settled within certain conditions.' }]);
    const open = await createInvoice();
    const marked = await api('POST', `/api/v1/stores/${STORE_ID}/invoices/${open.id}/status`, { status: 'Invalid' });
    expect(await marked.json()).toMatchObject({ status: 'Invalid', additionalStatus: 'Marked' });
    await fake.waitForDeliveries();
    expect(receiver.ofType('InvoiceInvalid').map((r) => r.payload)).toMatchObject([{ invoiceId: open.id, manuallyMarked: true }]);
  });

  it('the checkout page: Let it expire shows the expired invoice, and a paid one without a redirect says so', async () => {
    const invoice = await createInvoice();
    const expire = await fetch(invoice.checkoutLink, { method: 'POST', body: new URLSearchParams({ action: 'expire' }), redirect: 'manual' });
    expect(expire.status).toBe(303);
    const page = await fetch(invoice.checkoutLink);
    expect(await page.text()).toContain('This invoice has expired.');
    expect(fake.getInvoice(invoice.id)?.status).toBe('Expired');

    const other = await createInvoice();
    await fetch(other.checkoutLink, { method: 'POST', body: new URLSearchParams({ action: 'pay' }) });
    expect(await (await fetch(other.checkoutLink)).text()).toContain('This invoice has been paid.');
    expect((await fetch(`${fake.url}/i/unknown`)).status).toBe(404);
  });

  it("records events without a webhook URL, and redelivers one with the first delivery's id", async () => {
    fake.setWebhookUrl(null);
    const invoice = await createInvoice();
    await fake.waitForDeliveries();
    expect(fake.deliveries).toEqual([]);
    fake.setWebhookUrl(receiver.url);
    const [created] = fake.events;
    const again = await fake.redeliver(created!.deliveryId);
    expect(again).toMatchObject({ type: 'InvoiceCreated', invoiceId: invoice.id, isRedelivery: true, originalDeliveryId: created!.deliveryId });
    expect(again.deliveryId).not.toBe(created!.deliveryId);
    expect(fake.deliveries).toMatchObject([{ deliveryId: again.deliveryId, originalDeliveryId: created!.deliveryId, status: 200 }]);
  });
});
