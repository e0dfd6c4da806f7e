/**
 * A local stand-in for the parts of Stripe's API this project uses, for tests and local demos.
 * Point the real SDK at it: `new Stripe(secretKey, { host: '127.0.0.1', port: fake.port, protocol: 'http' })`.
 */
export { startFakeStripe } from './fake-stripe.js';
export type { FakeStripe, FakeStripeDelivery, FakeStripeOptions, FakeStripeRequest } from './handle-types.js';
export type { CheckoutSessionObject } from './session-object.js';
export type { ChargeObject, PaymentIntentObject } from './payment-objects.js';
export type { RefundObject, RefundReason } from './refunds.js';
export type { DisputeObject, DisputeOutcome, DisputeReason } from './disputes.js';
export type {
  CheckoutEventObject,
  CheckoutEventType,
  EventOfType,
  PaymentEventObject,
  StripeEventObject,
  StripeEventType,
} from './webhooks.js';
export { StripeApiError } from './stripe-errors.js';
export { formatAmount } from './checkout-page.js';
