/** The types of the fake's options and of the handle tests drive it with (see `startFakeBtcpay`). */
import type { InvoiceObject, PaymentMethodObject, PullPaymentObject, StoreObject } from './greenfield-objects.js';
import type { WebhookPayload } from './webhooks.js';

export interface FakeBtcpayOptions {
  /** Requests must carry `Authorization: token <apiKey>`, else 401 in Greenfield's error shape. */
  apiKey: string;
  /** The one store the key can see; any other store id answers 403 missing-permission, as BTCPay does. */
  storeId: string;
  /** The secret of the store's one webhook: deliveries are signed with it. */
  webhookSecret: string;
  /** Where the webhook POSTs; null (the default) = no webhook configured (events are still recorded). */
  webhookUrl?: string | null;
  /** Default 0 (a free port). */
  port?: number;
  /** The store's name (`GET /api/v1/stores/{storeId}`); default 'Fake BTCPay Store'. */
  storeName?: string;
  /**
   * The store's speed policy, copied onto each invoice; default MediumSpeed (a payment is settled when
   * `confirm` says it has its confirmation). HighSpeed asks for none: every payment is settled as soon as seen.
   */
  speedPolicy?: 'HighSpeed' | 'MediumSpeed' | 'LowSpeed' | 'LowMediumSpeed';
}

/** One webhook delivery attempt: the receiver's HTTP status, or 'error' (refused, reset, timed out). */
export interface FakeBtcpayDelivery {
  deliveryId: string;
  /** Set on a redelivery: the first delivery's id. */
  originalDeliveryId: string | null;
  type: string;
  invoiceId: string;
  status: number | 'error';
}

/** One API request (`/api/…`; the checkout pages are not listed). */
export interface FakeBtcpayRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  /** The request body as sent ('' for none). */
  body: string;
}

export interface FakeBtcpay {
  /** `http://127.0.0.1:PORT` — the BTCPay Server address to configure. */
  readonly url: string;
  readonly port: number;
  readonly storeId: string;
  /** The id of the store's webhook (in every delivery's `webhookId`). */
  readonly webhookId: string;
  /** Where later deliveries go; null = no webhook. */
  setWebhookUrl(url: string | null): void;
  /**
   * The next API request with this method whose path matches is carried out, and its answer is lost (the
   * connection is closed without one), as when BTCPay did the work but the caller timed out.
   */
  loseNextAnswer(method: string, pathPattern: RegExp): void;
  /** A copy of the store as `GET /api/v1/stores/{storeId}` answers it. */
  getStore(): StoreObject;
  /** A copy of the invoice as `GET …/invoices/{id}` answers it. */
  getInvoice(id: string): InvoiceObject | undefined;
  /** Copies of every invoice, oldest first. */
  listInvoices(): InvoiceObject[];
  /** The invoice's payment methods as `GET …/invoices/{id}/payment-methods` answers them. */
  getPaymentMethods(id: string): PaymentMethodObject[] | undefined;
  /**
   * What "Pay" on the checkout page does: the customer sends all that is due (and `overpaySats` more:
   * additionalStatus PaidOver). InvoiceReceivedPayment, then InvoiceProcessing (status Processing); unless
   * `confirmed: false`, the payment confirms: InvoicePaymentSettled, InvoiceSettled (status Settled).
   * Resolves with the events once delivered. Throws unless the invoice is New.
   */
  pay(invoiceId: string, options?: { confirmed?: boolean; overpaySats?: number }): Promise<WebhookPayload[]>;
  /**
   * The unconfirmed payments of an invoice get the confirmations its speed policy asks for (after `pay` or
   * `payLate` with `confirmed: false`): InvoicePaymentSettled each, then InvoiceSettled for a Processing
   * invoice (an Expired one stays Expired).
   */
  confirm(invoiceId: string): Promise<WebhookPayload[]>;
  /**
   * What "Pay partially" does: half of what is due arrives, unconfirmed: InvoiceReceivedPayment with
   * afterExpiration false; the invoice stays New with additionalStatus PaidPartial.
   */
  payPartially(invoiceId: string): Promise<WebhookPayload[]>;
  /** What "Let it expire" does: a New invoice's time runs out: InvoiceExpired (partiallyPaid), plus InvoiceExpiredPaidPartial when partly paid. */
  expire(invoiceId: string): Promise<WebhookPayload[]>;
  /**
   * An Expired invoice is paid in full after all, as BTCPay handles it: InvoiceReceivedPayment with
   * afterExpiration true, then InvoicePaidAfterExpiration; the invoice stays Expired with additionalStatus
   * PaidLate (BTCPay never settles it: no InvoiceSettled). Unless `confirmed: false`, InvoicePaymentSettled follows.
   */
  payLate(invoiceId: string, options?: { confirmed?: boolean }): Promise<WebhookPayload[]>;
  /** The operator marks the invoice in BTCPay's UI (as `POST …/status`): InvoiceSettled / InvoiceInvalid with manuallyMarked. Throws when BTCPay would refuse. */
  markStatus(invoiceId: string, status: 'Settled' | 'Invalid'): Promise<WebhookPayload[]>;
  /** Copies of every refund pull payment, oldest first, each with the `invoiceId` it refunds. */
  listRefunds(): PullPaymentObject[];
  /** Every event's first delivery payload, in order (recorded whether or not a webhook URL is set). */
  readonly events: WebhookPayload[];
  /** Every delivery attempt, in the order they finished. */
  readonly deliveries: FakeBtcpayDelivery[];
  /**
   * BTCPay's "Redeliver" button: the same payload with a new deliveryId, originalDeliveryId = the first
   * delivery's id, isRedelivery true; sent to the webhook URL (when set). Resolves with the new payload.
   */
  redeliver(deliveryId: string): Promise<WebhookPayload>;
  /** The body and BTCPay-Sig header a delivery of `payload` carries (tests post these themselves). */
  signedDelivery(payload: WebhookPayload, options?: { secret?: string }): { body: string; signature: string };
  /** Resolves once every delivery in flight has finished (API-triggered events are delivered in the background). */
  waitForDeliveries(): Promise<void>;
  /** Every API request, in order. */
  readonly requests: FakeBtcpayRequest[];
  close(): Promise<void>;
}
