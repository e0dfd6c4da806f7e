import type { Billing } from './billing.js';
import type { FormHash } from './form-body.js';
import type { EmitEvent, PaymentLedger } from './payment-ledger.js';
import { CARD, defaultMethodTypes, delayedMethodOf } from './payment-methods.js';
import { customerDetails, newSession, type CheckoutSessionObject } from './session-object.js';
import { parseSessionCreate, type LineItemInput, type PaymentIntentDataInput } from './session-params.js';
import { nowSeconds, stripeId } from './stripe-ids.js';
import type { SubscriptionSessionInput } from './subscription-session-params.js';
import type { CheckoutEventObject, EventRequest, StripeEventObject } from './webhooks.js';

/** A session and what the fake keeps beside it. */
export interface StoredSession {
  session: CheckoutSessionObject;
  lineItems: LineItemInput[];
  paymentIntentData: PaymentIntentDataInput;
  /** What paying subscribes the customer to (subscription mode), else null. */
  subscription: SubscriptionSessionInput | null;
  /** Completed with a delayed payment method whose outcome has not been reported yet. */
  asyncPending: boolean;
}

/** How the customer pays (see FakeStripe.pay). */
export interface PayOptions {
  async?: boolean;
  email?: string;
  evenIfNotOffered?: boolean;
  /** The card number paid with (a card payment): its fingerprint is the same for the same number, as at Stripe. */
  card?: string;
}

/** The fake's Checkout Sessions and their life: open → complete (paid, or unpaid until a bank debit settles) or expired. */
export interface CheckoutSessions {
  /** Validates `POST /v1/checkout/sessions` parameters (as of `apiVersion`) and opens a session (throws StripeApiError). */
  create(params: FormHash, apiVersion: string): CheckoutSessionObject;
  get(id: string): StoredSession | undefined;
  /** Every session, oldest first. */
  all(): StoredSession[];
  /**
   * The customer pays: the session completes with a PaymentIntent (see PaymentLedger), event
   * checkout.session.completed. `async` pays with the session's bank debit; otherwise by card.
   * In subscription mode the card pays the first invoice of a new Subscription instead (see Billing.startSubscription),
   * whose events come first. `events` lists every event made, in order, checkout.session.completed last.
   */
  complete(id: string, options?: PayOptions): { completed: CheckoutEventObject; events: StripeEventObject[] };
  /** A bank debit settles: checkout.session.async_payment_succeeded or …_failed. */
  settle(id: string, succeeded: boolean): CheckoutEventObject;
  /** Session → expired, event checkout.session.expired. */
  expire(id: string, request?: EventRequest): CheckoutEventObject;
}

export function createCheckoutSessions(deps: { ledger: PaymentLedger; emit: EmitEvent; pageUrl: (id: string) => string; billing: Billing }): CheckoutSessions {
  const sessions = new Map<string, StoredSession>();

  const stored = (id: string): StoredSession => {
    const entry = sessions.get(id);
    if (!entry) throw new Error(`fake Stripe: no checkout session ${id}`);
    return entry;
  };

  /**
   * The payment method type a customer paying now uses: a card, or (`async`) the session's bank debit.
   * `evenIfNotOffered` takes one the session does not offer (the currency's bank debit, else us_bank_account).
   */
  const methodFor = (session: CheckoutSessionObject, options: PayOptions): string => {
    const offered = options.async ? delayedMethodOf(session.payment_method_types) : session.payment_method_types.includes(CARD) ? CARD : null;
    if (offered !== null) return offered;
    if (options.evenIfNotOffered) return options.async ? (delayedMethodOf(defaultMethodTypes(session.currency ?? 'usd')) ?? 'us_bank_account') : CARD;
    const wanted = options.async ? 'delayed (bank debit)' : 'card';
    throw new Error(
      `fake Stripe: checkout session ${session.id} offers no ${wanted} payment (payment_method_types: ${session.payment_method_types.join(', ')}); ` +
        'pass evenIfNotOffered to test what Stripe would not send for it',
    );
  };

  /**
   * A subscription-mode session is paid by card: a Subscription and its paid first Invoice, then the session
   * completes naming them and the customer, with the first invoice's amounts. The invoice's payment is not the
   * session's: `payment_intent` stays null, as at Stripe.
   */
  const completeSubscription = (entry: StoredSession): { completed: CheckoutEventObject; events: StripeEventObject[] } => {
    const { session } = entry;
    const started = deps.billing.startSubscription(entry.subscription!);
    const { subscription, invoice } = started.result;
    const email = deps.billing.customer(entry.subscription!.customer)?.email ?? null;
    session.status = 'complete';
    session.payment_status = 'paid';
    session.customer = subscription.customer;
    session.subscription = subscription.id;
    session.invoice = invoice.id;
    session.amount_subtotal = invoice.subtotal;
    session.amount_total = invoice.total;
    session.customer_details = customerDetails(email);
    session.url = null;
    const completed = deps.emit('checkout.session.completed', session);
    return { completed, events: [...started.events, completed] };
  };

  return {
    create(params, apiVersion) {
      const created = nowSeconds();
      const input = parseSessionCreate(params, created, apiVersion, deps.billing);
      const id = stripeId('cs_test_a1', 56);
      const session = newSession(input, { id, url: deps.pageUrl(id), created });
      const { lineItems, paymentIntentData, subscription } = input;
      sessions.set(id, { session, lineItems, paymentIntentData, subscription, asyncPending: false });
      return session;
    },

    get: (id) => sessions.get(id),
    all: () => [...sessions.values()],

    complete(id, options = {}) {
      const entry = stored(id);
      const { session } = entry;
      if (session.status !== 'open') throw new Error(`fake Stripe: checkout session ${id} is ${session.status}, not open`);
      if (entry.subscription) return completeSubscription(entry);
      const async = options.async === true;
      const methodType = methodFor(session, options);
      const email = options.email ?? session.customer_email;
      const paymentIntent = deps.ledger.startPayment({
        amount: session.amount_total ?? 0,
        currency: session.currency ?? 'usd',
        methodType,
        ...(options.card ? { card: options.card } : {}),
        email,
        metadata: entry.paymentIntentData.metadata,
        description: entry.paymentIntentData.description,
        created: nowSeconds(),
      });
      const coupon = session.discounts?.[0]?.coupon;
      if (typeof coupon === 'string') deps.billing.redeemCoupon(coupon);
      session.status = 'complete';
      session.payment_status = async ? 'unpaid' : 'paid';
      session.payment_intent = paymentIntent.id;
      session.customer_details = customerDetails(email);
      session.url = null;
      entry.asyncPending = async;
      const completed = deps.emit('checkout.session.completed', session);
      return { completed, events: [completed] };
    },

    settle(id, succeeded) {
      const entry = stored(id);
      if (!entry.asyncPending) throw new Error(`fake Stripe: checkout session ${id} has no async payment awaiting an outcome`);
      entry.asyncPending = false;
      deps.ledger.settlePayment(entry.session.payment_intent as string, succeeded);
      if (succeeded) {
        entry.session.payment_status = 'paid';
        return deps.emit('checkout.session.async_payment_succeeded', entry.session);
      }
      return deps.emit('checkout.session.async_payment_failed', entry.session);
    },

    expire(id, request) {
      const { session } = stored(id);
      session.status = 'expired';
      session.url = null;
      return deps.emit('checkout.session.expired', session, { request });
    },
  };
}
