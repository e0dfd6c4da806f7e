import { postOnce } from '../webhook-delivery.js';
import Stripe from 'stripe';
import { stripeId } from './stripe-ids.js';

/** The four Checkout events the fake sends, typed as the SDK types them (each is a `Stripe.Event`). */
export type CheckoutEventObject =
  | Stripe.CheckoutSessionCompletedEvent
  | Stripe.CheckoutSessionAsyncPaymentSucceededEvent
  | Stripe.CheckoutSessionAsyncPaymentFailedEvent
  | Stripe.CheckoutSessionExpiredEvent;

/** `checkout.session.completed` and the other three event types. */
export type CheckoutEventType = CheckoutEventObject['type'];

/** The refund and dispute events the fake sends: data.object is a Charge, a Refund or a Dispute. */
export type PaymentEventObject =
  | Stripe.ChargeRefundedEvent
  | Stripe.RefundCreatedEvent
  | Stripe.ChargeDisputeCreatedEvent
  | Stripe.ChargeDisputeClosedEvent
  | Stripe.ChargeRefundUpdatedEvent
  | Stripe.RefundFailedEvent;

/** The Billing events the fake sends: data.object is a Subscription, an Invoice or a test clock. */
export type BillingEventObject =
  | Stripe.CustomerSubscriptionCreatedEvent
  | Stripe.CustomerSubscriptionUpdatedEvent
  | Stripe.CustomerSubscriptionDeletedEvent
  | Stripe.InvoiceCreatedEvent
  | Stripe.InvoiceFinalizedEvent
  | Stripe.InvoicePaidEvent
  | Stripe.InvoicePaymentSucceededEvent
  | Stripe.InvoicePaymentFailedEvent
  | Stripe.TestHelpersTestClockAdvancingEvent
  | Stripe.TestHelpersTestClockReadyEvent;

/** Every event the fake sends (a webhook endpoint of the fake is subscribed to exactly these types). */
export type StripeEventObject = CheckoutEventObject | PaymentEventObject | BillingEventObject;

export type StripeEventType = StripeEventObject['type'];

/** The event of one type, e.g. `EventOfType<'charge.refunded'>` is `Stripe.ChargeRefundedEvent`. */
export type EventOfType<T extends StripeEventType> = Extract<StripeEventObject, { type: T }>;

/** The API request that caused an event (null id for events a customer caused on the checkout page). */
export interface EventRequest {
  id: string | null;
  idempotency_key: string | null;
}

/** Headers of a real Stripe webhook delivery, apart from the signature. */
export const WEBHOOK_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
  accept: '*/*; q=0.5, application/xml',
  'cache-control': 'no-cache',
} as const;

export { DELIVERY_TIMEOUT_MS } from '../webhook-delivery.js';

/** What `newEvent` needs besides the type and the object. */
export interface NewEventOptions<T extends StripeEventType> {
  created: number;
  pendingWebhooks: number;
  request?: EventRequest;
  /** The changed fields' values before the change (`data.previous_attributes`), for `*.updated`-like events. */
  previousAttributes?: EventOfType<T>['data']['previous_attributes'];
}

/** A new event carrying a snapshot of `object` (a session, charge, refund or dispute) as it is now. */
export function newEvent<T extends StripeEventType>(type: T, object: EventOfType<T>['data']['object'], options: NewEventOptions<T>): EventOfType<T> {
  const data = {
    object: structuredClone(object),
    ...(options.previousAttributes ? { previous_attributes: structuredClone(options.previousAttributes) } : {}),
  };
  const event = {
    id: stripeId('evt_1', 23),
    object: 'event' as const,
    api_version: Stripe.API_VERSION,
    created: options.created,
    data,
    livemode: false,
    pending_webhooks: options.pendingWebhooks,
    request: options.request ?? { id: null, idempotency_key: null },
    type,
  };
  // TypeScript cannot narrow the union of event types by a generic `type`; the fields above are each event's.
  return event as unknown as EventOfType<T>;
}

/** Stripe serializes event payloads pretty-printed with two spaces. */
export function eventPayload(event: StripeEventObject): string {
  return JSON.stringify(event, null, 2);
}

/** The `Stripe-Signature` header for `payload` (`t=…,v1=…`), made by the SDK's own test helper. */
export function signPayload(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp === undefined ? {} : { timestamp }) });
}

/**
 * POSTs a signed payload once, like one Stripe delivery attempt: no redirects followed, 10 s limit,
 * the response body read and discarded. Resolves to the HTTP status, or 'error' (refused, reset, timed out,
 * aborted through `signal`); never rejects.
 */
export function postWebhook(url: string, body: string, signature: string, signal?: AbortSignal): Promise<number | 'error'> {
  return postOnce(url, body, { ...WEBHOOK_HEADERS, 'stripe-signature': signature }, signal);
}
