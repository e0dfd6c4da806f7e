import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerError } from '../../../test/provider-errors.js';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fake-telegram/index.js';
import { PaymentProviderError, PROVIDER_CANNOT, WebhookSignatureError, type CheckoutOrder, type PaymentDriver } from '../payment-driver.js';
import { createStarsDriver, parseStarsCheckoutId } from './stars-driver.js';
import { RENEWAL_WAIT_SECONDS, STARS_MONTHLY_PRICE, STARS_SUBSCRIPTION_SECONDS } from './stars-subscriptions.js';

const TOKEN = '7000031:AAStarsDriverTestToken0123456789abcde';
const HOUR = 3600_000;
const DAY = 24 * HOUR;

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

  it('has no webhooks; its recurring plans are Telegram’s own subscriptions, and what Telegram cannot do is refused as such', async () => {
    await expect(driver.verifyWebhook(Buffer.from('{}'), {})).rejects.toBeInstanceOf(WebhookSignatureError);
    expect(driver.capabilities).toEqual({ refunds: true, recurring: 'provider_subscriptions' });
    const ref = '42:stxSomeFirstCharge';
    for (const refused of [
      driver.createCustomer({ userId: 'u', email: 'a@b.c' }),
      driver.creditCustomer('42', { amount: 1, currency: 'xtr', idempotencyKey: 'k', description: 'd', metadata: {} }),
      driver.deferNextCharge(ref, new Date(Date.now() + 40 * DAY)),
      driver.openBillingPortal('42', 'https://shop.example/dashboard', 'en'),
    ])
      expect(await providerError(refused)).toMatchObject({ rejected: true, code: PROVIDER_CANNOT });
    expect(telegram.callsTo('editUserStarSubscription', TOKEN)).toEqual([]);
  });

  it('sells a monthly plan as a subscription invoice (subscription_period 2592000), and nothing else as one', async () => {
    const monthly = { planId: 'p', productName: 'Month', description: '', amount: 250, currency: 'xtr', interval: { unit: 'month', count: 1 } } as const;
    expect(await driver.ensureRecurringPrice(monthly)).toBe(STARS_MONTHLY_PRICE);
    for (const other of [
      { ...monthly, interval: { unit: 'year', count: 1 } as const },
      { ...monthly, currency: 'usd' },
    ])
      expect(await providerError(driver.ensureRecurringPrice(other))).toMatchObject({ rejected: true, code: PROVIDER_CANNOT });

    const placed = order({ recurring: { customerRef: 'user_1', priceRef: STARS_MONTHLY_PRICE } });
    const started = await driver.startCheckout(placed);
    expect(telegram.invoices.find((made) => made.link === started.url)).toMatchObject({
      payload: placed.orderId,
      subscriptionPeriod: STARS_SUBSCRIPTION_SECONDS,
    });
    const before = telegram.invoices.length;
    expect((await providerError(driver.startCheckout(order({ recurring: { customerRef: 'u', priceRef: 'price_yearly' } })))).rejected).toBe(true);
    expect(telegram.invoices).toHaveLength(before);
  });

  it('reads a subscription from its payments: the first paid at checkout, each renewal from where the last period ends; ended once none comes', async () => {
    const placed = order({ recurring: { customerRef: 'user_1', priceRef: STARS_MONTHLY_PRICE } });
    const { checkoutId } = await driver.startCheckout(placed);
    const first = 1_780_000_000;
    telegram.recordStarPayment(TOKEN, {
      userId: 55,
      chargeId: 'stxSubFirst',
      amount: 250,
      payload: placed.orderId,
      date: first,
      subscriptionPeriod: 2_592_000,
    });
    const ref = '55:stxSubFirst';
    const read = await driver.readCheckout(checkoutId);
    expect(read).toMatchObject({ outcome: 'paid', paymentRef: 'stxSubFirst', subscriptionRef: ref, customerRef: '55' });
    expect(read.invoice).toMatchObject({
      invoiceId: 'stxSubFirst',
      first: true,
      outcome: 'paid',
      amountPaid: 250,
      currency: 'xtr',
      periodStart: new Date(first * 1000),
      periodEnd: new Date((first + STARS_SUBSCRIPTION_SECONDS) * 1000),
    });

    // Charged a minute early: the renewal still runs from the end of the first period. Someone else's payment is not it.
    const renewal = await telegram.renewStarSubscription(TOKEN, 'stxSubFirst', { date: first + STARS_SUBSCRIPTION_SECONDS - 60, deliver: false });
    telegram.recordStarPayment(TOKEN, {
      userId: 56,
      chargeId: 'stxNotHis',
      amount: 250,
      payload: placed.orderId,
      date: first + 10,
      subscriptionPeriod: 2_592_000,
    });
    now = new Date((first + STARS_SUBSCRIPTION_SECONDS + 3600) * 1000);
    const { subscription, invoices } = await driver.readSubscription(ref);
    expect(invoices.map((invoice) => [invoice.invoiceId, invoice.first, invoice.periodStart.getTime() / 1000, invoice.periodEnd.getTime() / 1000])).toEqual([
      [renewal.chargeId, false, first + STARS_SUBSCRIPTION_SECONDS, first + 2 * STARS_SUBSCRIPTION_SECONDS],
      ['stxSubFirst', true, first, first + STARS_SUBSCRIPTION_SECONDS],
    ]);
    expect(subscription).toMatchObject({ subscriptionRef: ref, customerRef: '55', status: 'active', cancelAtPeriodEnd: null, canceledAt: null });

    // No renewal a while after the second period: it has ended.
    const end = first + 2 * STARS_SUBSCRIPTION_SECONDS;
    now = new Date((end + RENEWAL_WAIT_SECONDS - 1) * 1000);
    expect((await driver.readSubscription(ref)).subscription.status).toBe('active');
    now = new Date((end + RENEWAL_WAIT_SECONDS) * 1000);
    expect((await driver.readSubscription(ref)).subscription).toMatchObject({ status: 'canceled', canceledAt: new Date(end * 1000) });
    expect((await providerError(driver.readSubscription('55:stxNoSuchCharge'))).code).toBe('CHARGE_NOT_FOUND');
    expect((await providerError(driver.readSubscription('not-a-ref'))).rejected).toBe(true);
    now = new Date();
  });

  it('turns auto-renew off and back on with editUserStarSubscription, and ends a subscription by turning it off', async () => {
    telegram.recordStarPayment(TOKEN, { userId: 57, chargeId: 'stxSubEdit', amount: 250, payload: 'order-edit', subscriptionPeriod: 2_592_000 });
    const ref = '57:stxSubEdit';
    expect(await driver.setCancelAtPeriodEnd(ref, true)).toMatchObject({ subscriptionRef: ref, status: 'active', cancelAtPeriodEnd: true });
    expect(telegram.starSubscription(TOKEN, 'stxSubEdit')).toMatchObject({ canceledByBot: true });
    expect(await driver.setCancelAtPeriodEnd(ref, false)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(telegram.starSubscription(TOKEN, 'stxSubEdit')).toMatchObject({ canceledByBot: false });
    expect(await driver.cancelNow(ref)).toMatchObject({ status: 'canceled', canceledAt: expect.any(Date) });
    expect(telegram.callsTo('editUserStarSubscription', TOKEN).map((call) => call.params)).toEqual([
      { user_id: 57, telegram_payment_charge_id: 'stxSubEdit', is_canceled: true },
      { user_id: 57, telegram_payment_charge_id: 'stxSubEdit', is_canceled: false },
      { user_id: 57, telegram_payment_charge_id: 'stxSubEdit', is_canceled: true },
    ]);
    // Turned off, Telegram does not charge it again.
    expect(await telegram.renewStarSubscription(TOKEN, 'stxSubEdit')).toMatchObject({ renewed: false, chargeId: null });
    // A charge that started no subscription of that user: Telegram's 400, which retrying will not change.
    expect(await providerError(driver.setCancelAtPeriodEnd('58:stxSubEdit', true))).toMatchObject({ rejected: true, code: 'Bad Request: CHARGE_ID_INVALID' });
  });
});
