/** YooKassa API v3 objects as the driver reads them (only the fields it uses; see yookassa.ru/developers/api). */

export interface YookassaAmount {
  /** A decimal string with a dot: "100.00". */
  value: string;
  currency: string;
}

export type YookassaPaymentStatus = 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';

export interface YookassaPaymentMethod {
  type: string;
  id: string;
  /** It may be charged again without the customer (autopayments). */
  saved: boolean;
  title?: string;
  card?: { first6?: string; last4: string; expiry_month: string; expiry_year: string; card_type: string };
}

export interface YookassaPayment {
  id: string;
  status: YookassaPaymentStatus;
  paid: boolean;
  amount: YookassaAmount;
  refunded_amount?: YookassaAmount;
  refundable: boolean;
  description?: string;
  metadata?: Record<string, string>;
  payment_method?: YookassaPaymentMethod;
  confirmation?: { type: string; confirmation_url?: string; return_url?: string };
  /** `party` is an open string: `merchant`, `yoo_money` (formerly `yoo_kassa`, `yandex_checkout`), `payment_network`. */
  cancellation_details?: { party: string; reason: string };
  created_at: string;
  captured_at?: string;
  test: boolean;
}

export type YookassaRefundStatus = 'pending' | 'succeeded' | 'canceled';

export interface YookassaRefund {
  id: string;
  payment_id: string;
  status: YookassaRefundStatus;
  amount: YookassaAmount;
  created_at: string;
  description?: string;
  metadata?: Record<string, string>;
  cancellation_details?: { party: string; reason: string };
}

export interface YookassaList<T> {
  type: 'list';
  items: T[];
  next_cursor?: string;
}

/** `GET /v3/me`: the shop the keys reach. */
export interface YookassaShop {
  account_id: string;
  status: 'enabled' | 'disabled';
  test: boolean;
  fiscalization_enabled?: boolean;
  fiscalization?: { enabled: boolean; provider?: string };
  payment_methods?: string[];
}

/** An HTTP notification: unsigned, so only its event name and object id are read (the object is read back). */
export interface YookassaNotification {
  type: 'notification';
  event: string;
  object: { id: string };
}
