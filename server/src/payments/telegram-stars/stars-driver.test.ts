import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerError } from '../../../test/provider-errors.js';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fake-telegram/index.js';
import { PaymentProviderError, WebhookSignatureError, type CheckoutOrder, type PaymentDriver } from '../payment-driver.js';
import { createStarsDriver, parseStarsCheckoutId } from './stars-driver.js';

const TOKEN = '7000031:AAStarsDriverTestToken0123456789abcde';
const HOUR = 3600_000;

let seq = 0;
const order = (overrides: Partial<CheckoutOrder> = {}): CheckoutOrder => ({
  orderId: `00000000-0000-4000-8000-${String((seq += 1)).padStart(12, '0')}`,
  amount: 250,
  currency: 'xtr',
  productName: 'Family plan for the whole household, 12 months',
  description: '',
  customerEmail: 'ann@example.com',
  customerRef: 'user_1',
  successUrl: 'https://shop.example/thank-you',
  cancelUrl: 'https://shop.example/dashboard',
  expiresAt: new Date(Date.now() + HOUR),
  metadata: {},
  ...overrides,
});

describe('the Telegram Stars driver, against the fake Bot API', () => {
  let telegram: FakeTelegram;
  let driver: PaymentDriver;
  let now = new Date();

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    telegram.addBot(TOKEN, { id: 7000031, username: 'stars_driver_bot', first_name: 'Stars' });
    driver = createStarsDriver({ token: TOKEN, apiRoot: telegram.url, now: () => now });
  });
  afterAll(async () => telegram.close());

  it('is the bot it belongs to, read from the token, and pings with getMe', async () => {
    expect(await driver.identifyAccount()).toBe('bot:7000031');
    await driver.ping();
    await expect(createStarsDriver({ token: '7000032:AAUnknownTokenUnknownToken0123456789', apiRoot: telegram.url }).ping()).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
  });

  it('makes an XTR invoice link with the order as its payload, the title cut to Telegram’s 32 characters', async () => {
    const placed = order();
    const started = await driver.startCheckout(placed);
    expect(started.url).toMatch(/^https:\/\/t\.me\/\$/);
    expect(started.amountTotal).toBe(250);
    expect(parseStarsCheckoutId(started.checkoutId)).toEqual({ orderId: placed.orderId, closesAt: expect.any(Date) });
    const invoice = telegram.invoices.find((made) => made.link === started.url)!;
    expect(invoice).toMatchObject({ currency: 'XTR', payload: placed.orderId, prices: [{ amount: 250 }] });
    expect(invoice.title).toHaveLength(32);
    expect(invoice.title.endsWith('…')).toBe(true);
    // Not in Stars: refused before Telegram is asked.
    const before = telegram.invoices.length;
    expect((await providerError(driver.startCheckout(order({ currency: 'usd' })))).rejected).toBe(true);
    expect(telegram.invoices).toHaveLength(before);
  });

  it('reads an order as open, paid once Telegram lists its payment, and closed a quarter of an hour after its time', async () => {
    const placed = order();
    const { checkoutId } = await driver.startCheckout(placed);
    expect(await driver.readCheckout(checkoutId)).toMatchObject({ outcome: 'open', orderId: placed.orderId, paymentRef: null });
    now = new Date(now.getTime() + HOUR + 16 * 60_000);
    expect(await driver.readCheckout(checkoutId)).toMatchObject({ outcome: 'expired', expiredUnpaid: true });
    // Many other payments first: the search reads every page.
    for (let i = 0; i < 120; i += 1) telegram.recordStarPayment(TOKEN, { userId: 900 + i, chargeId: `stxOther${i}`, amount: 5, payload: `other-${i}` });
    telegram.recordStarPayment(TOKEN, { userId: 42, chargeId: 'stxMine', amount: 250, payload: placed.orderId });
    expect(await driver.readCheckout(checkoutId)).toMatchObject({ outcome: 'paid', amountPaid: 250, currency: 'xtr', paymentRef: 'stxMine' });
    // Paid stays paid: closing it now changes nothing.
    expect(await driver.expireCheckout(checkoutId)).toMatchObject({ outcome: 'paid' });
    now = new Date();
  });

  it('refunds a payment whole to whoever paid it, once however often asked, and never in part', async () => {
    telegram.recordStarPayment(TOKEN, { userId: 77, chargeId: 'stxRefundMe', amount: 300, payload: 'order-r' });
    expect(
      (await providerError(driver.refund({ paymentRef: 'stxRefundMe', amount: 100, refundRef: 'r1', idempotencyKey: 'k1', retry: false, metadata: {} })))
        .rejected,
    ).toBe(true);
    const first = await driver.refund({ paymentRef: 'stxRefundMe', refundRef: 'r1', idempotencyKey: 'k1', retry: false, metadata: {} });
    expect(first).toEqual({ refundId: 'stars_refund_stxRefundMe', amount: 300, status: 'succeeded' });
    const again = await driver.refund({ paymentRef: 'stxRefundMe', refundRef: 'r1', idempotencyKey: 'k1', retry: true, metadata: {} });
    expect(again.status).toBe('succeeded');
    expect(telegram.refunds.filter((refund) => refund.chargeId === 'stxRefundMe')).toEqual([expect.objectContaining({ userId: 77, amount: 300 })]);
    expect((await providerError(driver.refund({ paymentRef: 'stxNobody', refundRef: 'r2', idempotencyKey: 'k2', retry: false, metadata: {} }))).code).toBe(
      'CHARGE_NOT_FOUND',
    );
  });

  it('has no webhooks and no provider subscriptions of its own', async () => {
    await expect(driver.verifyWebhook(Buffer.from('{}'), {})).rejects.toBeInstanceOf(WebhookSignatureError);
    expect(driver.capabilities).toEqual({ refunds: true, recurring: 'none' });
    expect((await providerError(driver.createCustomer({ userId: 'u', email: 'a@b.c' }))).rejected).toBe(true);
  });
});
