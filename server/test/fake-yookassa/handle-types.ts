/** The types of the fake's options and of the handle tests drive it with (see `startFakeYookassa`). */
import type { ChargeOutcome } from './payment-methods.js';
import type { ShopMethod } from './payment-request.js';
import type { NotificationEvent, YookassaPayment, YookassaRefund } from './yookassa-objects.js';

export interface FakeYookassaOptions {
  /** The shop id: the Basic auth user name, and `account_id` everywhere. */
  shopId: string;
  /** The secret key: the Basic auth password. */
  secretKey: string;
  /** Where notifications are POSTed; null (the default) = none configured (they are still recorded in `sent`). */
  webhookUrl?: string | null;
  /** Default 0 (a free port). */
  port?: number;
  /** The shop sends 54-FZ receipts through YooKassa: every payment and refund then needs a `receipt`. Default false. */
  fiscalization?: boolean;
  /** The currencies the shop can take; default ['RUB'] (a Russian shop). Others fail with "Payment method is not available". */
  currencies?: string[];
}

/** One API request (`/v3/…`; the confirmation pages are not listed). */
export interface FakeYookassaRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  /** The query string without its `?` ('' for none). */
  query: string;
  /** The body as sent ('' for none). */
  body: string;
  idempotenceKey: string | null;
}

/** One notification attempt: the receiver's HTTP status, or 'error' (refused, reset, timed out). */
export interface FakeYookassaDelivery {
  event: NotificationEvent;
  objectId: string;
  status: number | 'error';
}

/** A notification as first sent (the body's `event` and `object`). */
export interface FakeYookassaNotice {
  event: NotificationEvent;
  object: YookassaPayment | YookassaRefund;
}

/** Whether a handle move POSTs its notification now (default true); false records it in `sent` only, for a later `redeliver`. */
export interface DeliverOption {
  deliver?: boolean;
}

export interface FakeYookassa {
  /** `http://127.0.0.1:PORT`; the API is at `${url}/v3`. */
  readonly url: string;
  readonly port: number;
  readonly shopId: string;
  /** Every API request, in order. */
  readonly requests: ReadonlyArray<FakeYookassaRequest>;
  /** Every notification attempt (first sends and redeliveries), in the order they finished. */
  readonly deliveries: ReadonlyArray<FakeYookassaDelivery>;
  /** Every notification the fake has made, in order, whether or not it was POSTed. */
  readonly sent: ReadonlyArray<FakeYookassaNotice>;
  /** Where later notifications go; null = none. */
  setWebhookUrl(url: string | null): void;
  /** A copy of the payment as `GET /v3/payments/{id}` answers it. */
  getPayment(id: string): YookassaPayment | undefined;
  /** Copies of every payment, oldest first. */
  listPayments(): YookassaPayment[];
  getRefund(id: string): YookassaRefund | undefined;
  /** Copies of every refund, oldest first. */
  listRefunds(): YookassaRefund[];
  /**
   * What paying on the confirmation page does: by card (the default, or the method the payment was created
   * for), SBP or YooMoney; the method is saved when the payment asked for it (never for SBP). The payment
   * becomes succeeded (capture true) or waiting_for_capture. Resolves once the notification is delivered.
   * Throws unless the payment is pending and awaits its customer.
   */
  pay(paymentId: string, options?: { method?: ShopMethod } & DeliverOption): Promise<void>;
  /** The customer's bank declines: canceled, party payment_network, this reason (default insufficient_funds). */
  decline(paymentId: string, reason?: string, options?: DeliverOption): Promise<void>;
  /** The time to confirm runs out: canceled, yoo_money / expired_on_confirmation. */
  expire(paymentId: string, options?: DeliverOption): Promise<void>;
  /**
   * How the next charges of a saved method end, in order: 'succeeded' (what an unscripted charge does),
   * 'pending' (settle it later), or a cancellation reason (insufficient_funds, card_expired, permission_revoked…;
   * YooKassa's own reasons such as permission_revoked have party yoo_money, the others payment_network).
   * After a permission_revoked every later unscripted charge of the method is refused the same way.
   */
  scriptSavedCharges(methodId: string, outcomes: ChargeOutcome[]): void;
  /** The bank answers a pending saved-method charge: 'succeeded' or a cancellation reason. Resolves once notified. */
  settle(paymentId: string, outcome: ChargeOutcome): Promise<void>;
  /** How the next refunds end, in order: 'succeeded' at once (unscripted ones too) or 'pending'. */
  scriptRefunds(outcomes: Array<'succeeded' | 'pending'>): void;
  /** A pending refund ends: succeeded (refund.succeeded is sent) or canceled (nothing is sent: YooKassa has no such event). */
  settleRefund(refundId: string, outcome: 'succeeded' | 'canceled'): Promise<void>;
  /** Sends `sent[index]` again to the current webhook URL, as YooKassa's retries do (duplicates, out of order). Resolves to the status. */
  redeliver(index: number): Promise<number | 'error'>;
  /** POSTs any body (JSON-encoded unless a string) to the webhook URL as a forger would; not recorded in `deliveries`. */
  postNotification(body: unknown): Promise<number | 'error'>;
  /** The next API request with this method whose path matches is carried out, but its answer is lost (the connection is closed). */
  loseNextAnswer(method: string, pathPattern: RegExp): void;
  /** The next API request with this method whose path matches is not carried out: it answers this error (500 internal_server_error, 429…). */
  failNext(method: string, pathPattern: RegExp, error: { status: number; code: string; description?: string }): void;
  /**
   * Moves the fake's clock on: idempotence keys older than 24 h are forgotten, payments left unconfirmed an
   * hour are canceled (expired_on_confirmation), uncaptured ones past `expires_at` too (expired_on_capture);
   * their notifications go out in the background (see waitForDeliveries).
   */
  advanceTime(ms: number): void;
  /** Resolves once every notification in flight has been answered. */
  waitForDeliveries(): Promise<void>;
  close(): Promise<void>;
}
