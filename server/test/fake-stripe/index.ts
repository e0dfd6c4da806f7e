/**
 * A local stand-in for the parts of Stripe's API this project uses, for tests and local demos.
 * Point the real SDK at it: `new Stripe(secretKey, { host: '127.0.0.1', port: fake.port, protocol: 'http' })`.
 */
export { startFakeStripe } from './fake-stripe.js';
export type { FakeStripe, FakeStripeDelivery, FakeStripeOptions, FakeStripeRequest } from './fake-stripe.js';
export type { CheckoutSessionObject } from './session-object.js';
export type { CheckoutEventType, StripeEventObject } from './webhooks.js';
export { formatAmount } from './checkout-page.js';
