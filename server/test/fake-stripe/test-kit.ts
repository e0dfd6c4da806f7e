/** What the fake's own tests share: a webhook receiver, the server's checkout parameters, a fresh fake per test. */
import Stripe from 'stripe';
import { afterEach, beforeEach } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.js';
import { startFakeStripe, type FakeStripe } from './index.js';

export const SECRET_KEY = 'sk_test_fake_0123456789abcdefWXYZ';
export const WEBHOOK_SECRET = 'whsec_fake_webhook_secret_0123456789';
export const SUCCESS_URL = 'https://shop.example/checkout/success?session_id={CHECKOUT_SESSION_ID}';
export const CANCEL_URL = 'https://shop.example/checkout/cancel';

export type Receiver = WebhookReceiver<Stripe.Event>;

/** A webhook endpoint that keeps the raw bodies it receives. */
export const startReceiver = (): Promise<Receiver> => startWebhookReceiver<Stripe.Event>('/api/webhooks/stripe');

/** Every delivery the receiver got, verified with the SDK's own `constructEvent` (throws on a bad signature). */
export function verifiedEvents(receiver: Receiver): Stripe.Event[] {
  return receiver.received.map((r) => Stripe.webhooks.constructEvent(r.body, r.headers['stripe-signature']!, WEBHOOK_SECRET));
}

/** The parameters our server sends (one plan, paid once). */
export function checkoutParams(overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    line_items: [
      {
        price_data: {
          currency: 'usd',
          unit_amount: 1299,
          product_data: { name: 'VPN Pro — 1 month', description: '5 devices, all locations' },
        },
        quantity: 1,
      },
    ],
    customer_email: 'buyer@example.com',
    client_reference_id: 'order_42',
    success_url: SUCCESS_URL,
    cancel_url: CANCEL_URL,
    metadata: { orderId: '42', planId: 'pro-monthly' },
    ...overrides,
  };
}

/** The error a promise rejects with (fails when it resolves). */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** The types of the events, in order. */
export const typesOf = (events: Array<{ type: string }>): string[] => events.map((e) => e.type);

export interface FakeStripeContext {
  fake: FakeStripe;
  /** The real SDK, pointed at the fake. */
  stripe: Stripe;
  client(key?: string, config?: Stripe.StripeConfig): Stripe;
  /** A webhook receiver the fake delivers to (closed after the test). */
  receiver(): Promise<Receiver>;
}

/** A fresh fake (and SDK client) for each test of the calling `describe`, closed after it. */
export function useFakeStripe(): FakeStripeContext {
  const cleanups: Array<() => Promise<void>> = [];
  const context = {
    client: (key = SECRET_KEY, config: Stripe.StripeConfig = {}) =>
      new Stripe(key, { host: '127.0.0.1', port: context.fake.port, protocol: 'http', ...config }),
    async receiver() {
      const r = await startReceiver();
      cleanups.push(() => r.close());
      context.fake.setWebhookUrl(r.url);
      return r;
    },
  } as FakeStripeContext;
  beforeEach(async () => {
    context.fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    cleanups.push(() => context.fake.close());
    context.stripe = context.client();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return context;
}
