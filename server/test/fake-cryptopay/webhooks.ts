/**
 * Webhook deliveries as Crypto Pay makes them: only `invoice_paid`, the Update object as compact JSON,
 * POSTed once per attempt with `crypto-pay-api-signature` = hex HMAC-SHA-256 of the exact body bytes, keyed
 * with the binary SHA-256 digest of the app's token.
 */
import { createHash, createHmac } from 'node:crypto';
import { postOnce } from '../webhook-delivery.js';
import type { CryptopayInvoice } from './invoice-object.js';

export { DELIVERY_TIMEOUT_MS } from '../webhook-delivery.js';

/** The body of a delivery. */
export interface CryptopayUpdate {
  /** Documented as non-unique: a receiver must not deduplicate on it (use payload.invoice_id). */
  update_id: number;
  update_type: 'invoice_paid';
  /** When this attempt was sent (ISO 8601): a redelivery has a new one. */
  request_date: string;
  payload: CryptopayInvoice;
}

export const SIGNATURE_HEADER = 'crypto-pay-api-signature';

/** The headers of a delivery, apart from the signature. */
export const WEBHOOK_HEADERS = { 'content-type': 'application/json' } as const;

/** The body of a delivery, its bytes exactly as signed and sent. */
export function updateBody(updateId: number, payload: CryptopayInvoice, requestDate: Date): string {
  const update: CryptopayUpdate = { update_id: updateId, update_type: 'invoice_paid', request_date: requestDate.toISOString(), payload };
  return JSON.stringify(update);
}

/**
 * The `crypto-pay-api-signature` value for a body: the key is the 32-byte SHA-256 digest of the token (not
 * its hex), the message the raw body bytes (never a re-serialised parse of them).
 */
export function signBody(body: string | Uint8Array, token: string): string {
  const key = createHash('sha256').update(token, 'utf8').digest();
  return createHmac('sha256', key).update(body).digest('hex');
}

/**
 * POSTs a signed body once: no redirects followed, 10 s limit, the answer read and discarded. Resolves to
 * the HTTP status, or 'error' (refused, reset, timed out, aborted through `signal`); never rejects.
 */
export function postUpdate(url: string, body: string, signature: string, signal?: AbortSignal): Promise<number | 'error'> {
  return postOnce(url, body, { ...WEBHOOK_HEADERS, [SIGNATURE_HEADER]: signature }, signal);
}
