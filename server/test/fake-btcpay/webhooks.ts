/**
 * Webhook deliveries as BTCPay's WebhookSender makes them: the event serialized indented (Newtonsoft,
 * two spaces), `BTCPay-Sig: sha256=<hex HMAC-SHA256 of the body keyed with the webhook's secret>`,
 * `Content-Type: application/json`, BTCPay's User-Agent, one POST per attempt.
 */
import { postOnce } from '../webhook-delivery.js';
import { createHmac } from 'node:crypto';
import { base58Id } from './ids.js';
import type { InvoiceEvent, InvoiceEventType } from './invoices.js';

/** The body of a delivery (WebhookInvoiceEvent and its subtypes), field for field. */
export interface WebhookPayload {
  deliveryId: string;
  webhookId: string;
  /** Null on a first delivery; a redelivery carries the first delivery's id. */
  originalDeliveryId: string | null;
  isRedelivery: boolean;
  type: InvoiceEventType;
  timestamp: number;
  storeId: string;
  invoiceId: string;
  metadata: Record<string, unknown>;
  /** The type's own fields (afterExpiration, paymentMethodId, payment, overPaid, manuallyMarked, partiallyPaid, pullPaymentId). */
  [field: string]: unknown;
}

/** The headers of a real delivery, apart from BTCPay-Sig (BTCPay 2.4.1's User-Agent). */
export const WEBHOOK_HEADERS = {
  'content-type': 'application/json',
  'user-agent': 'BTCPayServer/2.4.1',
} as const;

export { DELIVERY_TIMEOUT_MS } from '../webhook-delivery.js';

/** The first delivery of an event to a webhook. */
export function payloadOf(event: InvoiceEvent, webhookId: string, timestamp: number): WebhookPayload {
  return {
    deliveryId: base58Id(16),
    webhookId,
    originalDeliveryId: null,
    isRedelivery: false,
    type: event.type,
    timestamp,
    storeId: event.storeId,
    invoiceId: event.invoiceId,
    metadata: event.metadata,
    ...event.fields,
  };
}

/**
 * A redelivery (WebhookSender.CreateRedeliveryRequest): the same body with a new deliveryId, the first
 * delivery's id in originalDeliveryId (kept when redelivering a redelivery), isRedelivery true.
 */
export function redeliveryOf(payload: WebhookPayload): WebhookPayload {
  return { ...structuredClone(payload), deliveryId: base58Id(16), originalDeliveryId: payload.originalDeliveryId ?? payload.deliveryId, isRedelivery: true };
}

export const webhookBody = (payload: WebhookPayload): string => JSON.stringify(payload, null, 2);

/** The BTCPay-Sig header value for a body. */
export const signBody = (body: string, secret: string): string => `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;

/**
 * POSTs a signed body once: no redirects followed, 10 s limit, the answer read and discarded. Resolves to
 * the HTTP status, or 'error' (refused, reset, timed out, aborted through `signal`); never rejects.
 */
export function postWebhook(url: string, body: string, signature: string, signal?: AbortSignal): Promise<number | 'error'> {
  return postOnce(url, body, { ...WEBHOOK_HEADERS, 'btcpay-sig': signature }, signal);
}
