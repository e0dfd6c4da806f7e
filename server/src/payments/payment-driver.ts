/**
 * What the billing services see of a payment provider (Stripe today; recurring card and crypto
 * providers next), in the same shape as the panel drivers in `server/src/panels/`: one interface, one
 * folder per provider, and our own events instead of the provider's objects. Nothing outside a
 * driver's folder imports a provider's SDK.
 */

/** Money is integer minor units (cents) in a lower-case ISO currency ('usd'). */
export interface CheckoutOrder {
  /** Our transaction id: the provider carries it back in its webhooks and reads. */
  orderId: string;
  amount: number;
  currency: string;
  productName: string;
  description: string;
  customerEmail: string;
  /** Our user id. */
  customerRef: string;
  /** Where the provider sends the customer after paying; `{CHECKOUT_ID}` is replaced with the checkout's id. */
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  /** Names of our records, kept with the checkout for the operator (strings only). */
  metadata: Record<string, string>;
}

export interface StartedCheckout {
  checkoutId: string;
  /** The provider's hosted page to send the browser to. */
  url: string;
}

/**
 * Where a checkout stands. `open`: not paid yet (or paid by a method that settles later); `paid`: the
 * money is ours; `failed`: a delayed payment was declined; `expired`: closed unpaid.
 */
export type CheckoutOutcome = 'open' | 'paid' | 'failed' | 'expired';

export interface CheckoutState {
  checkoutId: string;
  /** Our transaction id as given at start; null when the checkout is not one of ours. */
  orderId: string | null;
  outcome: CheckoutOutcome;
  /** What the customer was charged, to compare with the order (null until paid). */
  amountPaid: number | null;
  currency: string | null;
  /** The provider's id of the payment itself (Stripe: the PaymentIntent): refunds and disputes name it. */
  paymentRef: string | null;
}

/** Our events: what a verified webhook means, whatever the provider called it. */
export type PaymentEvent =
  | { kind: 'checkout'; checkout: CheckoutState }
  /** `amountRefunded` is the total refunded so far (a redelivered or late event can only repeat or raise it). */
  | { kind: 'refunded'; paymentRef: string; amountRefunded: number; currency: string; fullyRefunded: boolean }
  | { kind: 'disputed'; paymentRef: string; disputeId: string; amount: number; reason: string | null }
  | { kind: 'dispute_closed'; paymentRef: string; disputeId: string; outcome: 'won' | 'lost' };

/** A webhook whose signature checked out: its provider id (for exactly-once), type, and what it means to us. */
export interface VerifiedWebhook {
  id: string;
  type: string;
  /** null: an event we do not act on (acknowledged and recorded). */
  event: PaymentEvent | null;
}

export interface RefundRequest {
  paymentRef: string;
  /** Minor units; the whole remaining amount when omitted. */
  amount?: number;
  reason?: 'requested_by_customer' | 'duplicate' | 'fraudulent';
  /** The same key never refunds twice, however often the request is sent. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface RefundResult {
  refundId: string;
  amount: number;
  status: 'succeeded' | 'pending' | 'failed';
}

export interface PaymentDriver {
  /** The provider's name as stored in payment_providers ('stripe'). */
  readonly name: string;
  startCheckout(order: CheckoutOrder): Promise<StartedCheckout>;
  readCheckout(checkoutId: string): Promise<CheckoutState>;
  /** Closes an unpaid checkout so it can no longer be paid; one already closed or paid is left as it is. */
  expireCheckout(checkoutId: string): Promise<CheckoutState>;
  /** Throws WebhookSignatureError unless the body is signed by the provider with our secret. */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): VerifiedWebhook;
  refund(request: RefundRequest): Promise<RefundResult>;
}

export class WebhookSignatureError extends Error {
  constructor(message = 'The webhook signature is missing or not valid.') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** The provider refused or could not be reached; `message` is safe to log, not to show. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    /** The provider's own error code (e.g. Stripe's 'charge_already_refunded'), when it gave one. */
    public readonly code: string | null = null,
    /** 4xx from the provider: our request was wrong and retrying it will not help. */
    public readonly rejected = false,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
