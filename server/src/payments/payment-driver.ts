/**
 * What the billing services see of a payment provider (Stripe today; recurring card and crypto
 * providers next), in the same shape as the panel drivers in `server/src/panels/`: one interface, one
 * folder per provider, and our own events instead of the provider's objects. Nothing outside a
 * driver's folder imports a provider's SDK.
 */

import type { Locale } from '../../../shared/locales.js';
import type { RenewalInterval } from '../../../shared/plan-billing.js';

/** Money is integer minor units in a lower-case ISO currency: cents in 'usd', whole yen in 'jpy' (shared/currencies.ts). */
export interface CheckoutOrder {
  /** Our transaction id: the provider carries it back in its webhooks and reads. */
  orderId: string;
  amount: number;
  currency: string;
  productName: string;
  description: string;
  /** Null for a customer without one (they came through the Telegram bot): the provider's page asks, if it needs one. */
  customerEmail: string | null;
  /** Our user id. */
  customerRef: string;
  /** Where the provider sends the customer after paying; `{CHECKOUT_ID}` is replaced with the checkout's id. */
  successUrl: string;
  cancelUrl: string;
  /** The customer's language: the provider's page speaks it when the provider has it (else its own choice). */
  locale?: Locale;
  expiresAt: Date;
  /** Names of our records, kept with the checkout for the operator (strings only). */
  metadata: Record<string, string>;
  /**
   * A recurring plan: the checkout starts a subscription of the provider's `customerRef` to `priceRef`
   * (see ensureCustomer and ensureRecurringPrice) instead of charging once; `metadata` goes on the
   * subscription too, so its invoices name our records.
   */
  recurring?: { customerRef: string; priceRef: string };
  /**
   * A promo code: `amount` is already what it leaves to pay; a provider that keeps discounts (Stripe: a coupon
   * on the session, so its receipts and invoices show it, and a subscription's later invoices get it for its
   * duration) is given the price before it and the code's terms.
   */
  discount?: OrderDiscount;
  /**
   * Referral credit (ours) that paid part of a one-off order: `amount` is already what is left to pay; a provider that
   * shows discounts shows the price before the code and the credit, and what both took off.
   */
  credit?: number;
  /**
   * A recurring plan renewed by our own job (a provider whose recurring payments are charges of a saved method,
   * YooKassa): the provider is asked to keep the payment method for charges without the customer.
   */
  saveMethod?: boolean;
}

/** A payment method the provider keeps for charges without the customer (YooKassa's saved card). */
export interface SavedMethod {
  /** The provider's id of it (YooKassa's `payment_method.id`): what a later charge names. */
  ref: string;
  /** How the customer recognises it ('Bank card *4444'). */
  title: string;
}

/** A charge of a saved method, without the customer (a renewal our job makes). */
export interface SavedMethodCharge {
  methodRef: string;
  /** Our transaction id: carried back in the payment, as a checkout's order id is. */
  orderId: string;
  amount: number;
  currency: string;
  description: string;
  customerEmail: string | null;
  /** The same key never charges twice (a retry after a crash or a lost answer is the same charge). */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/**
 * What a provider can do besides one-off payments. `refunds`: it sends money back by itself (Crypto Pay cannot:
 * its refunds go to the customer's wallet here, or are paid back by hand). `recurring`: how recurring plans renew —
 * the provider's own subscriptions (Stripe; Telegram Stars, for monthly plans sold in the bot), charges of a saved
 * method by our renewal job (YooKassa), or not at all.
 */
export interface DriverCapabilities {
  refunds: boolean;
  recurring: 'provider_subscriptions' | 'saved_methods' | 'none';
  /** It needs the customer's e-mail address (YooKassa with receipts: the receipt the law asks for goes to it). */
  emailRequired?: boolean;
}

/** A promo code's terms as a provider is told them. Amounts in minor units of the order's currency. */
export interface OrderDiscount {
  /** Our promo code's id: the provider's coupon for it is found by it. */
  ref: string;
  code: string;
  amountBefore: number;
  percentOff: number | null;
  amountOff: number | null;
  duration: 'once' | 'repeating' | 'forever';
  durationMonths: number | null;
}

/** How often a recurring price charges (see shared/plan-billing.ts). */
export interface RecurringPriceSpec {
  /** Our plan id: the provider's product for the plan is found and kept in step by it. */
  planId: string;
  productName: string;
  description: string;
  amount: number;
  currency: string;
  interval: RenewalInterval;
}

/**
 * An invoice of a recurring subscription. `orderRef` is our subscription id (carried in the provider's
 * subscription metadata); `period` is what the invoice bills. `first`: the invoice that started the
 * subscription (paid at checkout).
 */
export interface InvoiceState {
  invoiceId: string;
  subscriptionRef: string;
  orderRef: string | null;
  outcome: 'paid' | 'failed' | 'open' | 'void';
  first: boolean;
  amountDue: number;
  amountPaid: number;
  /** What a discount (a promo code's coupon) took off it; 0 when none (or not said). */
  amountDiscount?: number;
  /** What the customer's credit balance paid of it (referral credit moved to the provider); 0 when none (or not said). */
  creditApplied?: number;
  currency: string;
  periodStart: Date;
  periodEnd: Date;
  /**
   * The provider made it for a change of the subscription (Stripe's `subscription_update`: a trial added, a proration),
   * not for a period it renews; one that charges nothing buys nothing.
   */
  forChange?: boolean;
  /** The payment that paid it (refunds and disputes name it); null until paid, or when the event did not say. */
  paymentRef: string | null;
  /** When the provider tries a failed invoice again, if it will. */
  nextAttemptAt: Date | null;
  /**
   * A plan change's proration invoice (see `changeSubscriptionPrice`): our transaction of the change, carried in the
   * subscription's metadata (`plan_change_id`) when the invoice was made. Absent otherwise.
   */
  changeRef?: string | null;
}

/** A provider subscription moved to another recurring price now, prorated (see `changeSubscriptionPrice`). */
export interface SubscriptionPriceChange {
  /** The price to move to (`ensureRecurringPrice`). */
  priceRef: string;
  /** The instant the proration is computed for: a preview and the change made with the same one come to the same figures. */
  prorateAt: Date;
}

/** What moving a subscription to another price comes to now (minor units of `currency`), as the provider computes it. */
export interface PriceChangeProration {
  /** What the unused time of the current price is worth, credited (Stripe: its `proration` lines below zero, as a positive figure). */
  credit: number;
  /** What the rest of the period costs at the new price (its `proration` lines above zero). */
  debit: number;
  /** What the proration invoice charges now: the debit less the credit, less any balance the customer has with the provider. */
  amountDue: number;
  /** A downgrade: what the provider adds to the customer's balance with it, which pays their next invoices. */
  balanceCredit: number;
  currency: string;
  /** The end of the period the proration runs to (the billing cycle does not move). */
  periodEnd: Date;
}

/** `canceled` is final; `past_due`: a renewal charge failed and the provider is retrying. */
export type RecurringStatus = 'incomplete' | 'active' | 'past_due' | 'canceled';

export interface RecurringState {
  subscriptionRef: string;
  customerRef: string;
  orderRef: string | null;
  status: RecurringStatus;
  /**
   * Auto-renew off. null: the provider does not say, and ours stays as it is (Telegram Stars: the bot cannot read a
   * subscription back, only see its payments).
   */
  cancelAtPeriodEnd: boolean | null;
  canceledAt: Date | null;
  /** The provider's current period (it moves on at the renewal charge, paid or not). */
  currentPeriodEnd: Date | null;
  /** When this state was true (the event's time, or now for a read): older states never overwrite newer ones. */
  observedAt: Date;
}

export interface StartedCheckout {
  checkoutId: string;
  /** The provider's hosted page to send the browser to. */
  url: string;
  /**
   * What the provider will charge, as it computed it (Stripe: the session's total, after a coupon's rounding),
   * when it says; the order keeps this figure, so the payment matches it to the minor unit.
   */
  amountTotal?: number;
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
  /**
   * The card it was paid with, as the provider identifies a card number in its account (Stripe's
   * `payment_method_details.card.fingerprint`), when paid by card and the provider said: two customers paying
   * with one card are one person to the referral programme.
   */
  cardFingerprint?: string | null;
  /** A subscription checkout: the subscription and customer it made, and its first invoice once paid (reads only). */
  subscriptionRef?: string | null;
  customerRef?: string | null;
  invoice?: InvoiceState | null;
  /** The payment method the provider kept for later charges, when the order asked for it and the customer allowed it. */
  savedMethod?: SavedMethod | null;
  /** Why a payment was declined or cancelled, as the provider says it (YooKassa's `cancellation_details.reason`). */
  declineReason?: string | null;
  /**
   * An expired checkout the customer simply never paid, which the provider closes without a decline (a Crypto Pay
   * invoice that ran out): the order closes as cancelled, not failed.
   */
  expiredUnpaid?: boolean;
  /**
   * A crypto invoice's own view (BTCPay), to show the customer what was seen: `status` and
   * `additionalStatus` as the provider names them ('Processing' = paid in full, waiting for confirmations;
   * 'PaidPartial' = some paid, more due). Amounts in minor units of the order's currency, approximate while
   * open (converted at the invoice's rate); null when the provider did not say.
   */
  crypto?: { status: string; additionalStatus: string; amountDue: number | null; amountPaid: number | null };
}

/** Our events: what a verified webhook means, whatever the provider called it. */
export type PaymentEvent =
  | { kind: 'checkout'; checkout: CheckoutState }
  /** `amountRefunded` is the total refunded so far (a redelivered or late event can only repeat or raise it). */
  | { kind: 'refunded'; paymentRef: string; amountRefunded: number; currency: string; fullyRefunded: boolean }
  /** A refund the provider had accepted failed later (the money stayed with the operator); `refundRef` is ours when it carried one. */
  | { kind: 'refund_failed'; paymentRef: string; refundId: string; refundRef: string | null; amount: number; reason: string | null }
  | { kind: 'disputed'; paymentRef: string; disputeId: string; amount: number; reason: string | null }
  | { kind: 'dispute_closed'; paymentRef: string; disputeId: string; outcome: 'won' | 'lost' }
  | { kind: 'invoice'; invoice: InvoiceState }
  | { kind: 'subscription'; subscription: RecurringState };

/** A webhook whose signature checked out: its provider id (for exactly-once), type, and what it means to us. */
export interface VerifiedWebhook {
  id: string;
  type: string;
  /** null: an event we do not act on (acknowledged and recorded). */
  event: PaymentEvent | null;
  /** Why a signed event we would act on was acknowledged without acting (it names a payment the provider does not know): logged. */
  ignored?: string;
  /** The provider's API version the event was read in, when what it means depended on it (Stripe's invoices and subscriptions). */
  apiVersion?: string;
}

export interface RefundRequest {
  paymentRef: string;
  /** For a provider that sends a receipt with a refund (YooKassa under 54-FZ): who gets it, and what is refunded. */
  receipt?: { customerEmail: string | null; description: string };
  /** Our refund's id (the refunds ledger): the provider's refund carries it, so a retry finds the refund an earlier attempt made. */
  refundRef: string;
  /** Minor units; the whole remaining amount when omitted. */
  amount?: number;
  reason?: 'requested_by_customer' | 'duplicate' | 'fraudulent';
  /** The same key never refunds twice, however often the request is sent (for providers that take one). */
  idempotencyKey: string;
  /**
   * An earlier attempt may have reached the provider (its answer was lost): the driver first looks for the
   * refund carrying `refundRef` and returns it instead of making another.
   */
  retry: boolean;
  metadata: Record<string, string>;
}

export interface RefundResult {
  refundId: string;
  amount: number;
  status: 'succeeded' | 'pending' | 'failed';
  /**
   * Where the customer claims a refund the provider cannot send by itself (BTCPay: the pull payment's page,
   * where the customer gives an address to be paid to); absent when the money goes back without the customer.
   */
  claimUrl?: string;
}

export interface PaymentDriver {
  /** The provider's name as stored in payment_providers ('stripe'). */
  readonly name: string;
  readonly capabilities: DriverCapabilities;
  /**
   * Which account of the provider the keys belong to, the same after a key is rolled (Stripe: the `acct_…`
   * id, read once per key; BTCPay: the server address and store id). Customers, prices and the payments
   * themselves live in one account: whatever a payment needs later is sent to the account that took it.
   */
  identifyAccount(): Promise<string>;
  /** One cheap authenticated read (the account, store, shop or app): resolves while the provider answers these keys. */
  ping(): Promise<void>;
  startCheckout(order: CheckoutOrder): Promise<StartedCheckout>;
  readCheckout(checkoutId: string): Promise<CheckoutState>;
  /** Closes an unpaid checkout so it can no longer be paid; one already closed or paid is left as it is. */
  expireCheckout(checkoutId: string): Promise<CheckoutState>;
  /**
   * Throws WebhookSignatureError unless the body is signed by the provider with our secret. A paid
   * invoice's event is completed with its payment (the provider may be asked; PaymentProviderError then).
   * Throws UnreadableEventError for an event it would act on but cannot read (its API version or shape).
   */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<VerifiedWebhook>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /**
   * Credits the provider's customer `amount` minor units, which the provider takes off their next invoices (Stripe:
   * a customer balance transaction). The same `idempotencyKey` credits once, however often it is sent.
   */
  creditCustomer(
    customerRef: string,
    credit: { amount: number; currency: string; idempotencyKey: string; description: string; metadata: Record<string, string> },
  ): Promise<{ ref: string }>;
  /** Creates the provider's customer for one of our users (call once and keep the ref: see payment-customers). */
  createCustomer(customer: { userId: string; email: string | null; locale?: Locale | null }): Promise<{ customerRef: string; testClockRef: string | null }>;
  /** The language of the provider's own e-mails to the customer (receipts, invoices), after they chose another one here. */
  setCustomerLanguage(customerRef: string, locale: Locale): Promise<void>;
  /** The provider's recurring price for the plan at this amount and interval, created when missing; its ref. */
  ensureRecurringPrice(spec: RecurringPriceSpec): Promise<string>;
  /** The subscription as the provider has it now, with its latest invoices (newest first). */
  readSubscription(subscriptionRef: string): Promise<{ subscription: RecurringState; invoices: InvoiceState[] }>;
  /** Auto-renew off (true) or back on (false); the subscription runs to its period end either way. */
  setCancelAtPeriodEnd(subscriptionRef: string, cancel: boolean): Promise<RecurringState>;
  /**
   * The next charge moves to `until`, with nothing charged or credited for the days before it (Stripe: a trial to that
   * time, without proration): days given on top of what was paid. Asking again for the same time changes nothing.
   */
  deferNextCharge(subscriptionRef: string, until: Date): Promise<RecurringState>;
  /** Ends the subscription now (no refund: what was paid runs to its end on our side). */
  cancelNow(subscriptionRef: string): Promise<RecurringState>;
  /** The provider's page where the customer updates the card and sees invoices, in `locale` where the provider has it. */
  openBillingPortal(customerRef: string, returnUrl: string, locale: Locale): Promise<string>;
  /**
   * What `changeSubscriptionPrice` would come to (Stripe: `invoices.createPreview` of the update). Providers whose
   * subscriptions cannot change price leave both undefined.
   */
  previewSubscriptionPrice?(subscriptionRef: string, change: SubscriptionPriceChange): Promise<PriceChangeProration>;
  /**
   * Moves the subscription to another recurring price now, the provider prorating it and charging the difference at once
   * (Stripe: `proration_behavior: always_invoice`), or nothing at all if that charge fails (a PaymentProviderError,
   * rejected, with the decline's code). `metadata` keys are set on the subscription with it (its proration invoice
   * carries them); the same `idempotencyKey` makes one change, however often it is sent. Returns the subscription and
   * its proration invoice (null when it made none).
   */
  changeSubscriptionPrice?(
    subscriptionRef: string,
    change: SubscriptionPriceChange & { idempotencyKey: string; metadata: Record<string, string> },
  ): Promise<{ subscription: RecurringState; invoice: InvoiceState | null }>;
  /** Charges a saved method now (providers whose `recurring` is 'saved_methods'); the payment as it stands after. */
  chargeSavedMethod?(charge: SavedMethodCharge): Promise<CheckoutState>;
  /** Several checkouts in one call (providers that can: Crypto Pay's getInvoices); one not found is left out. */
  readCheckouts?(checkoutIds: string[]): Promise<CheckoutState[]>;
}

export class WebhookSignatureError extends Error {
  constructor(message = 'The webhook signature is missing or not valid.') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/**
 * A signed body that is not an event the provider sends (not its JSON, or a NUL character in a field): refused
 * with 400 and never recorded. Delivering it again cannot help, and nothing of it reaches the database.
 */
export class MalformedEventError extends Error {
  constructor(message = 'The webhook body is not an event of the payment provider.') {
    super(message);
    this.name = 'MalformedEventError';
  }
}

/**
 * A signed event the driver cannot read: the provider's API version it was sent in, or a field the driver needs,
 * is not one it knows. It is never acknowledged, so the provider delivers it again, and the admin is told.
 */
export class UnreadableEventError extends Error {
  constructor(
    public readonly event: { id: string; type: string; apiVersion: string | null },
    /** Why, for the log and the admin: the version, or the first field that is not as expected. */
    public readonly reason: string,
  ) {
    super(`${event.type} ${event.id} (API version ${event.apiVersion ?? 'none'}) cannot be read: ${reason}`);
    this.name = 'UnreadableEventError';
  }
}

/**
 * The `code` of a PaymentProviderError for what the provider cannot do at all (a provider without subscriptions, or
 * Telegram Stars moving a charge or opening a billing page): asked again, it is refused again.
 */
export const PROVIDER_CANNOT = 'provider_cannot';

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
