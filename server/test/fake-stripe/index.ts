/**
 * A local stand-in for the parts of Stripe's API this project uses, for tests and local demos.
 * Point the real SDK at it: `new Stripe(secretKey, { host: '127.0.0.1', port: fake.port, protocol: 'http' })`.
 */
export { startFakeStripe } from './fake-stripe.js';
export type { FakeStripe, FakeStripeBilling, FakeStripeDelivery, FakeStripeOptions, FakeStripeRequest } from './handle-types.js';
export type { CheckoutSessionObject } from './session-object.js';
export type { ChargeObject, PaymentIntentObject } from './payment-objects.js';
export type { RefundObject, RefundReason } from './refunds.js';
export type { DisputeObject, DisputeOutcome, DisputeReason } from './disputes.js';
export type { CustomerObject } from './customers.js';
export type { Interval, PriceObject, ProductObject } from './products-prices.js';
export type { SubscriptionItemObject, SubscriptionObject } from './subscription-objects.js';
export type { InvoiceBillingReason, InvoiceObject } from './invoices.js';
export type { InvoicePaymentObject } from './invoice-payments.js';
export type { TestClockObject } from './test-clocks.js';
export type { PortalSessionObject } from './billing-portal.js';
export type {
  BillingEventObject,
  CheckoutEventObject,
  CheckoutEventType,
  EventOfType,
  PaymentEventObject,
  StripeEventObject,
  StripeEventType,
} from './webhooks.js';
export { StripeApiError } from './stripe-errors.js';
export { formatAmount } from './checkout-page.js';
