/** What the fake's Billing tests share: a start time for their test clocks, the event sequences, a paid subscription. */
import { CANCEL_URL, SUCCESS_URL, type FakeStripeContext } from './test-kit.js';

/** 2026-01-15T00:00:00Z, where the tests' test clocks start. */
export const START = Date.UTC(2026, 0, 15) / 1000;
export const HOUR = 60 * 60;
export const DAY = 24 * HOUR;

/** What paying a subscription-mode checkout sends, in order. */
export const SUBSCRIPTION_START_EVENTS = [
  'customer.subscription.created',
  'invoice.created',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_succeeded',
  'customer.subscription.updated',
  'checkout.session.completed',
];
/** What one successful renewal sends, in order (the invoice is finalized and paid an hour after the period ends). */
export const RENEWAL_EVENTS = ['invoice.created', 'customer.subscription.updated', 'invoice.finalized', 'invoice.paid', 'invoice.payment_succeeded'];

export interface SubscribeOptions {
  email?: string;
  interval?: 'day' | 'week' | 'month' | 'year';
  /** The clock's frozen time; default START. */
  start?: number;
}

/** A customer on a new test clock, a monthly price, and a paid subscription-mode checkout (through the handle). */
export async function subscribe(t: FakeStripeContext, options: SubscribeOptions = {}) {
  const { email = 'subscriber@example.com', interval = 'month', start = START } = options;
  const clock = await t.stripe.testHelpers.testClocks.create({ frozen_time: start, name: 'renewals' });
  const customer = await t.stripe.customers.create({ email, test_clock: clock.id, metadata: { accountId: 'acc_7' } });
  const product = await t.stripe.products.create({ name: 'VPN Pro' });
  const price = await t.stripe.prices.create({ product: product.id, unit_amount: 999, currency: 'usd', recurring: { interval } });
  const session = await t.stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price: price.id, quantity: 1 }],
    subscription_data: { metadata: { accountId: 'acc_7', planId: 'pro-monthly' } },
    success_url: SUCCESS_URL,
    cancel_url: CANCEL_URL,
    metadata: { orderId: '42' },
  });
  await t.fake.pay(session.id);
  const paid = await t.stripe.checkout.sessions.retrieve(session.id);
  const subscription = await t.stripe.subscriptions.retrieve(paid.subscription as string);
  return { clock, customer, product, price, session: paid, subscription };
}
