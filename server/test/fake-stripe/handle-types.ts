/** The types of the fake's options and of the handle tests drive it with (see `startFakeStripe`). */
import type Stripe from 'stripe';
import type { DisputeObject, DisputeOutcome, DisputeReason } from './disputes.js';
import type { ChargeObject, PaymentIntentObject } from './payment-objects.js';
import type { RefundObject, RefundReason } from './refunds.js';
import type { CustomerObject } from './customers.js';
import type { InvoiceObject } from './invoices.js';
import type { CheckoutSessionObject } from './session-object.js';
import type { SubscriptionObject } from './subscription-objects.js';
import type { TestClockObject } from './test-clocks.js';
import type { CheckoutEventObject, StripeEventObject } from './webhooks.js';

export interface FakeStripeOptions {
  /** Requests must carry `Authorization: Bearer <secretKey>`, else 401 in Stripe's error shape. */
  secretKey: string;
  /** The `whsec_…` secret webhook deliveries are signed with. */
  webhookSecret: string;
  /** Where events are POSTed; null (the default) = no webhook endpoint configured (events are still recorded). */
  webhookUrl?: string | null;
  /**
   * The webhook endpoint's API version (default the SDK's, Stripe.API_VERSION): events are delivered in it, with
   * invoices and subscriptions in the 2024-06-20 shape for a version before 2025-03-31 (see api-versions.ts).
   */
  webhookApiVersion?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** The account's id (`GET /v1/account`); default a new `acct_…` per fake, so two fakes are two accounts. */
  accountId?: string;
}

/** One webhook delivery attempt: the receiver's HTTP status, or 'error' (refused, reset, timed out). */
export interface FakeStripeDelivery {
  eventId: string;
  type: string;
  status: number | 'error';
}

/** One request to the API (`/v1/…`; the checkout pages are not listed). */
export interface FakeStripeRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  idempotencyKey: string | null;
}

/** Stripe Billing on the handle: copies of the objects, and what the customer or time does to them. */
export interface FakeStripeBilling {
  getCustomer(id: string): CustomerObject | undefined;
  getSubscription(id: string): SubscriptionObject | undefined;
  getInvoice(id: string): InvoiceObject | undefined;
  /** A subscription's invoices, oldest first. */
  listInvoices(subscriptionId: string): InvoiceObject[];
  /** The ids of the PaymentIntents that tried to pay an invoice, oldest first (refund or dispute them as usual). */
  invoicePaymentIntents(invoiceId: string): string[];
  getTestClock(id: string): TestClockObject | undefined;
  /**
   * What `POST /v1/test_helpers/test_clocks/:id/advance` does: every subscription of the clock's customers whose
   * period ends by `toUnixSeconds` renews (one invoice per period) or, with cancel_at_period_end, ends. Resolves
   * with the clock (ready) once every event has been delivered.
   */
  advanceClock(clockId: string, toUnixSeconds: number): Promise<TestClockObject>;
  /**
   * What the `/test-clocks` page's "Advance to the next renewal" does: advances the clock (as `advanceClock`) to
   * 2 hours after the earliest current period end of its subscriptions that are not canceled, so the renewal
   * invoice is created, finalized and charged; by 1 day when there is none. Resolves with the clock (ready) once
   * every event has been delivered.
   */
  advanceToNextRenewal(clockId: string): Promise<TestClockObject>;
  /** While true, the customer's card declines renewals (the first payment at checkout is made with a fresh card). */
  setCardDeclines(customerId: string, declines: boolean): void;
  /**
   * Tries every open invoice of the customer again (what fixing the card in the portal does): invoice.paid and
   * invoice.payment_succeeded, and a past_due subscription with nothing left open is active again
   * (customer.subscription.updated). Resolves with the invoices tried once the events have been delivered.
   */
  payOpenInvoices(customerId: string): Promise<InvoiceObject[]>;
}

export interface FakeStripe extends FakeStripeBilling {
  /** `http://127.0.0.1:PORT` — what STRIPE_API_URL is set to. */
  readonly url: string;
  readonly port: number;
  /** The account's id, as `GET /v1/account` answers it. */
  readonly accountId: string;
  /** What rolling the secret key in the Dashboard does: requests must carry `secretKey` from now on (the old key expires at once). */
  rollSecretKey(secretKey: string): void;
  /** Where later events are delivered; null = no endpoint. */
  setWebhookUrl(url: string | null): void;
  /** The endpoint's API version from now on (what an operator picks in the Dashboard); null = the SDK's. */
  setWebhookApiVersion(apiVersion: string | null): void;
  /** A copy of the session as it is now (as `GET /v1/checkout/sessions/:id` would answer). */
  getSession(id: string): CheckoutSessionObject | undefined;
  /** Copies of every session, oldest first. */
  listSessions(): CheckoutSessionObject[];
  /**
   * What clicking Pay does: session → complete with a PaymentIntent (`payment_intent`) and its Charge,
   * payment_status 'paid' (card), or 'unpaid' with `async` (the session's bank debit, PaymentIntent processing)
   * until `succeedAsync`/`failAsync`; event checkout.session.completed, delivered. Returns the event.
   * A subscription-mode session is paid by card and starts a Subscription (see Billing.startSubscription): its events
   * (customer.subscription.created … customer.subscription.updated) are delivered first.
   * `email` is what the customer typed when the session has no customer_email.
   * Throws when the session is not open, or offers no card (no bank debit, with `async`) in payment_method_types —
   * unless `evenIfNotOffered`, which pays that way anyway (to test events Stripe would not send for this session,
   * e.g. an async payment on a card-only session).
   */
  pay(sessionId: string, options?: { async?: boolean; email?: string; evenIfNotOffered?: boolean; card?: string }): Promise<CheckoutEventObject>;
  /** An async payment (pay with `async`) settles: payment_status 'paid', PaymentIntent and Charge succeeded, event checkout.session.async_payment_succeeded. */
  succeedAsync(sessionId: string): Promise<CheckoutEventObject>;
  /** An async payment (pay with `async`) fails: Charge failed, PaymentIntent requires_payment_method, event checkout.session.async_payment_failed. */
  failAsync(sessionId: string): Promise<CheckoutEventObject>;
  /** Session → expired, event checkout.session.expired, delivered. */
  expire(sessionId: string): Promise<CheckoutEventObject>;
  /** A copy of a PaymentIntent (as `GET /v1/payment_intents/:id` answers it). */
  getPaymentIntent(id: string): PaymentIntentObject | undefined;
  /** A copy of a Charge (as `GET /v1/charges/:id` answers it: without `refunds`; see listRefunds). */
  getCharge(id: string): ChargeObject | undefined;
  /** Copies of every refund, oldest first. */
  listRefunds(): RefundObject[];
  /** A copy of a Dispute (as `GET /v1/disputes/:id` answers it). */
  getDispute(id: string): DisputeObject | undefined;
  /**
   * The operator refunds from Stripe's Dashboard: the same effects, errors and events as `POST /v1/refunds`
   * (charge.refunded, then refund.created, both delivered). `amount` defaults to all that remains.
   * Rejects with Stripe's error (a StripeApiError: `code` charge_already_refunded, amount_too_large, …).
   * Returns the charge.refunded event.
   */
  refund(paymentIntentOrChargeId: string, options?: { amount?: number; reason?: RefundReason }): Promise<Stripe.ChargeRefundedEvent>;
  /**
   * A refund fails after it was made (default reason `expired_or_canceled_card`): the refund becomes failed, the
   * charge no longer counts it; charge.refund.updated and refund.failed are delivered. Returns both events.
   */
  failRefund(refundId: string, reason?: string): Promise<[Stripe.ChargeRefundUpdatedEvent, Stripe.RefundFailedEvent]>;
  /**
   * The cardholder's bank opens a chargeback on a succeeded payment: a Dispute (status needs_response,
   * reason default 'fraudulent', amount default what is not refunded), charge.disputed = true, event
   * charge.dispute.created, delivered. The charge can no longer be refunded (charge_disputed). Returns the event.
   */
  openDispute(paymentIntentOrChargeId: string, options?: { reason?: DisputeReason; amount?: number }): Promise<Stripe.ChargeDisputeCreatedEvent>;
  /**
   * The dispute ends: status 'won' or 'lost', event charge.dispute.closed (previous_attributes.status), delivered.
   * Lost does not mark the charge refunded (as at Stripe: the dispute withdrew the money). Returns the event.
   */
  closeDispute(disputeId: string, outcome: DisputeOutcome): Promise<Stripe.ChargeDisputeClosedEvent>;
  /** Every event created, in order. */
  readonly events: StripeEventObject[];
  /** Every delivery attempt, in the order they finished. */
  readonly deliveries: FakeStripeDelivery[];
  /**
   * Delivers an event (again) to the webhook URL with a fresh valid signature, in the endpoint's API version or
   * `apiVersion`; returns the HTTP status (or 'error').
   */
  deliver(event: StripeEventObject, options?: { apiVersion?: string }): Promise<number | 'error'>;
  /**
   * The body and Stripe-Signature header a delivery of `event` would carry (tests post these themselves, e.g. to race),
   * in the endpoint's API version or `apiVersion`.
   */
  signedDelivery(event: StripeEventObject, options?: { secret?: string; timestamp?: number; apiVersion?: string }): { body: string; signature: string };
  /** Resolves once every delivery in flight has finished (API-triggered events are delivered in the background). */
  waitForDeliveries(): Promise<void>;
  /** Fault injection: the next `n` session create requests answer HTTP 500 api_error (nothing is saved under their idempotency key). */
  failNextCreates(n: number): void;
  /**
   * Fault injection: refund creations wait (unanswered, nothing refunded yet) until the returned function is
   * called, as a slow Stripe would; for requests that race one another.
   */
  holdRefunds(): () => void;
  /** Every API request, in order. */
  readonly requests: FakeStripeRequest[];
  close(): Promise<void>;
}
