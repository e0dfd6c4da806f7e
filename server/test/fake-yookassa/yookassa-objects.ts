/**
 * The JSON objects the fake answers and sends, field for field as YooKassa API v3 names them. Optional
 * fields are left out rather than set to null, as the real API leaves them out.
 */

/** `{ value: "199.00", currency: "RUB" }`: always two decimals. */
export interface YookassaAmount {
  value: string;
  currency: string;
}

export type PaymentStatus = 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
export type RefundStatus = 'pending' | 'succeeded' | 'canceled';

/** Who canceled (`merchant`, `yoo_money`, `payment_network`) and why (`insufficient_funds`, `permission_revoked`, …). */
export interface CancellationDetails {
  party: string;
  reason: string;
}

export interface YookassaCard {
  first6: string;
  last4: string;
  expiry_month: string;
  expiry_year: string;
  card_type: string;
  issuer_country: string;
}

/** The payment method a payment was (or is to be) paid with; `id` is what a later charge names in `payment_method_id`. */
export interface YookassaPaymentMethod {
  type: string;
  id: string;
  saved: boolean;
  /** The current API's: pending (the customer has not paid yet), active (saved), inactive (not saved). */
  status: 'pending' | 'active' | 'inactive';
  title?: string;
  card?: YookassaCard;
  /** yoo_money */
  account_number?: string;
  /** sbp */
  sbp_operation_id?: string;
  payer_bank_details?: { bank_id: string; bic: string };
}

export interface YookassaConfirmation {
  type: 'redirect';
  confirmation_url: string;
  return_url: string;
  enforce?: boolean;
  locale?: string;
}

export interface YookassaPayment {
  id: string;
  status: PaymentStatus;
  amount: YookassaAmount;
  /** The amount less YooKassa's fee, once the payment has succeeded. */
  income_amount?: YookassaAmount;
  description?: string;
  recipient: { account_id: string; gateway_id: string };
  payment_method?: YookassaPaymentMethod;
  captured_at?: string;
  created_at: string;
  /** waiting_for_capture: the deadline to capture or cancel. */
  expires_at?: string;
  /** Only while the customer has still to confirm (pending). */
  confirmation?: YookassaConfirmation;
  test: boolean;
  /** Succeeded payments: the sum of succeeded refunds. */
  refunded_amount?: YookassaAmount;
  paid: boolean;
  refundable: boolean;
  /** Only when a receipt was sent to a shop with fiscalization on. */
  receipt_registration?: 'pending' | 'succeeded' | 'canceled';
  metadata: Record<string, string>;
  cancellation_details?: CancellationDetails;
  authorization_details?: { rrn: string; auth_code: string; three_d_secure: { applied: boolean } };
  merchant_customer_id?: string;
}

export interface YookassaRefund {
  id: string;
  payment_id: string;
  status: RefundStatus;
  cancellation_details?: CancellationDetails;
  receipt_registration?: 'pending' | 'succeeded' | 'canceled';
  created_at: string;
  amount: YookassaAmount;
  description?: string;
  metadata?: Record<string, string>;
}

/** `GET /v3/me`. */
export interface YookassaMe {
  account_id: string;
  status: 'enabled' | 'disabled';
  test: boolean;
  /** Present only for a shop that has turned receipts on (the current API leaves it out otherwise). */
  fiscalization?: { enabled: boolean; provider: string };
  /** The older boolean, kept by the API for compatibility. */
  fiscalization_enabled: boolean;
  payment_methods: string[];
}

/** A list answer: newest first; `next_cursor` only when there is a next page. */
export interface YookassaList<T> {
  type: 'list';
  items: T[];
  next_cursor?: string;
}

export interface YookassaError {
  type: 'error';
  id: string;
  code: string;
  description?: string;
  parameter?: string;
}

export type NotificationEvent = 'payment.waiting_for_capture' | 'payment.succeeded' | 'payment.canceled' | 'refund.succeeded';

/** The body of a notification: unsigned; the object as it was when the event happened. */
export interface YookassaNotification {
  type: 'notification';
  event: NotificationEvent;
  object: YookassaPayment | YookassaRefund;
}
