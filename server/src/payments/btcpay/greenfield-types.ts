/**
 * The parts of BTCPay Server's Greenfield API objects the driver reads (field names as in the API's
 * swagger: camelCase, amounts as decimal strings, times as unix seconds). Only what is used is typed.
 */

/** InvoiceStatus. */
export type InvoiceStatus = 'New' | 'Processing' | 'Expired' | 'Invalid' | 'Settled';

/** InvoiceAdditionalStatus: why the invoice is in its status. */
export type InvoiceAdditionalStatus = 'None' | 'PaidLate' | 'PaidPartial' | 'Marked' | 'Invalid' | 'PaidOver';

/** InvoiceData (`GET /api/v1/stores/{storeId}/invoices/{invoiceId}`). */
export interface GreenfieldInvoice {
  id: string;
  storeId: string;
  /** The price, in `currency`: "9.99". */
  amount: string;
  currency: string;
  checkoutLink: string | null;
  status: InvoiceStatus;
  additionalStatus: InvoiceAdditionalStatus;
  createdTime: number;
  expirationTime: number;
  /** What the buyer paid in `currency` (BTCPay 2.1.2 and later; not read: older servers lack it). */
  paidAmount?: string;
  metadata: Record<string, unknown> | null;
  checkout?: { redirectURL?: string | null; redirectAutomatically?: boolean | null; expirationMinutes?: number | null } | null;
}

/** InvoicePaymentMethodDataModel (`GET …/invoices/{invoiceId}/payment-methods`): crypto amounts as decimal strings. */
export interface GreenfieldPaymentMethod {
  paymentMethodId: string;
  currency: string;
  /** Invoice-currency units per one unit of `currency`. */
  rate: string;
  /** The invoice amount in this method's currency (with its fee). */
  amount: string;
  /** Paid by all methods, in this method's currency. */
  totalPaid: string;
  paymentMethodPaid: string;
  /** Left to pay, in this method's currency (negative when overpaid). */
  due: string;
  /** The payments seen on this method (absent on servers that leave it out: then nothing counts as confirmed). */
  payments?: GreenfieldPayment[];
}

/**
 * PaymentStatus: `Settled` once the payment has the confirmations the store's speed policy asks for,
 * `Processing` until then, `Invalid` when it no longer counts (replaced or double-spent).
 */
export type GreenfieldPaymentStatus = 'Invalid' | 'Processing' | 'Settled';

/** Payment (in a payment method's `payments`). */
export interface GreenfieldPayment {
  id: string;
  /** In the method's currency. */
  value: string;
  status: GreenfieldPaymentStatus;
}

/** PullPaymentData: what `POST …/invoices/{invoiceId}/refund` answers. */
export interface GreenfieldPullPayment {
  id: string;
  name: string | null;
  currency: string;
  amount: string;
  /** The page where the customer claims the refund. */
  viewLink: string;
}

/** StoreData (`GET /api/v1/stores/{storeId}`), the fields read. */
export interface GreenfieldStore {
  id: string;
  name: string;
}

/** A webhook delivery's body (WebhookInvoiceEvent and its subtypes). */
export interface GreenfieldWebhookEvent {
  deliveryId: string;
  webhookId: string;
  /** Set on a redelivery: the id of the first delivery of this event. */
  originalDeliveryId: string | null;
  isRedelivery: boolean;
  type: string;
  timestamp: number;
  storeId?: string;
  invoiceId?: string;
  metadata?: Record<string, unknown> | null;
  /** InvoiceReceivedPayment / InvoicePaymentSettled. */
  afterExpiration?: boolean;
  /** InvoiceSettled, InvoiceProcessing. */
  overPaid?: boolean;
  /** InvoiceSettled, InvoiceInvalid. */
  manuallyMarked?: boolean;
  /** InvoiceExpired. */
  partiallyPaid?: boolean;
}
