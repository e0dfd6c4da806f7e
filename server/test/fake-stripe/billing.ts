/**
 * The fake's Stripe Billing: subscriptions and their invoices (on top of the catalog of customers, products, prices
 * and test clocks), and what moves them. The events each change sends, in this order (Stripe does not promise an
 * order; this follows its documentation and what its test mode shows, minus the customer.*, payment_method.*,
 * charge.*, payment_intent.* and invoice_payment.* events the fake does not send):
 * - subscription-mode checkout paid: customer.subscription.created (status incomplete), invoice.created (draft),
 *   invoice.finalized, invoice.paid, invoice.payment_succeeded, customer.subscription.updated (→ active),
 *   then checkout.session.completed (see checkout-sessions.ts);
 * - a period ends on a test clock: invoice.created (draft) and customer.subscription.updated (new period); an hour
 *   later (`automatically_finalizes_at`) invoice.finalized, then invoice.paid + invoice.payment_succeeded, or
 *   invoice.payment_failed + customer.subscription.updated (→ past_due); with cancel_at_period_end,
 *   customer.subscription.deleted instead and no invoice. A clock advance starts with test_helpers.test_clock.advancing
 *   and ends with test_helpers.test_clock.ready;
 * - open invoices paid again: invoice.paid, invoice.payment_succeeded, customer.subscription.updated (→ active);
 * - `POST /v1/subscriptions/:id`: customer.subscription.updated; with `trial_end`, first the trial's invoice for 0
 *   (billing_reason subscription_update): invoice.created, invoice.finalized, invoice.paid, invoice.payment_succeeded;
 *   with an item's new price and `proration_behavior=always_invoice`, first the proration invoice (prorations.ts), with
 *   the subscription's new metadata: invoice.created, invoice.finalized, then invoice.paid + invoice.payment_succeeded
 *   (paid with the customer's card, or by its credit balance; a negative one credits the balance), or, when the card
 *   declines, invoice.payment_failed (the subscription past_due) — with `payment_behavior=error_if_incomplete` a 402
 *   instead, and nothing changed or sent (Stripe voids the invoice it made; the fake makes none);
 *   `DELETE`: customer.subscription.deleted.
 */
import { createBillingCatalog, type BillingCatalog } from './billing-catalog.js';
import { couponDiscount, type CouponObject } from './coupons.js';
import type { CustomerObject } from './customers.js';
import { createInvoiceCollection } from './invoice-collection.js';
import type { InvoicePayments } from './invoice-payments.js';
import { finalizeInvoice, newInvoice, recordAttempt, type InvoiceBillingReason, type InvoiceObject } from './invoices.js';
import type { EmitEvent, PaymentLedger } from './payment-ledger.js';
import { createRenewals } from './renewals.js';
import { invalidParam, noSuch } from './stripe-errors.js';
import { nowSeconds } from './stripe-ids.js';
import { itemOf, newSubscription, periodBoundary, planOf, setStatus, type SubscriptionObject } from './subscription-objects.js';
import type { PriceObject } from './products-prices.js';
import { unsupported } from './form-params.js';
import { checkPriceChange, declinedUpdate, previewBalance, previewId, prorationInvoice, type PriceChangeInput } from './prorations.js';
import type { TestClockObject } from './test-clocks.js';
import type { EventRequest, StripeEventObject } from './webhooks.js';

/** What `POST /v1/subscriptions/:id` changes in the fake (metadata is the merged result). */
export interface SubscriptionChange {
  cancelAtPeriodEnd?: boolean;
  metadata?: Record<string, string>;
  /** A trial until then (with proration_behavior=none: nothing credited for the paid days it covers). */
  trialEnd?: number;
  /** The item moved to another price, prorated (prorations.ts). */
  price?: PriceChangeInput;
}

/** A change and the events it made, in the order Stripe sends them. */
export interface Outcome<T> {
  result: T;
  events: StripeEventObject[];
}

export interface StartSubscriptionInput {
  customer: string;
  price: string;
  quantity: number;
  metadata: Record<string, string>;
  /** The subscription's description (`subscription_data[description]`), or null. */
  description?: string | null;
  /** The coupon of the session's `discounts`: the subscription's discount, on its invoices for the coupon's duration. */
  coupon?: string | null;
}

/** A subscription's discount: its coupon, from `start` until `end` (null: for ever; `once`: the first invoice only). */
interface SubscriptionDiscount {
  id: string;
  coupon: CouponObject;
  start: number;
  end: number | null;
}

export interface Billing extends BillingCatalog {
  subscription(id: string): SubscriptionObject | undefined;
  /** Every subscription, oldest first. */
  subscriptions(): SubscriptionObject[];
  invoice(id: string): InvoiceObject | undefined;
  /** Every invoice, oldest first. */
  invoices(): InvoiceObject[];
  /** The invoices of a subscription, oldest first. */
  invoicesOf(subscriptionId: string): InvoiceObject[];
  /** The customer's subscriptions, oldest first. */
  subscriptionsOf(customerId: string): SubscriptionObject[];
  /** The customer's open (unpaid, finalized) invoices, oldest first. */
  openInvoicesOf(customerId: string): InvoiceObject[];
  /** The PaymentIntents that tried to pay an invoice, oldest first. */
  paymentIntentsOf(invoiceId: string): string[];
  /** What paid or tried to pay each invoice (`invoice.payments`, `/v1/invoice_payments`). */
  readonly invoicePayments: Omit<InvoicePayments, 'record'>;
  /** A subscription-mode checkout is paid: subscription, first invoice paid by card. */
  startSubscription(input: StartSubscriptionInput): Outcome<{ subscription: SubscriptionObject; invoice: InvoiceObject }>;
  /** `cancel_at_period_end` and metadata; emits customer.subscription.updated when anything changed. */
  updateSubscription(id: string, change: SubscriptionChange, request?: EventRequest): Outcome<SubscriptionObject>;
  /** Cancels now: customer.subscription.deleted. */
  cancelSubscription(id: string, request?: EventRequest): Outcome<SubscriptionObject>;
  /** Moves a clock forward, renewing or ending each of its customers' subscriptions whose period ends on the way. */
  advanceClock(id: string, to: number): Outcome<TestClockObject>;
  setCardDeclines(customerId: string, declines: boolean): void;
  /** Attempts every open invoice of the customer again, oldest first. */
  payOpenInvoices(customerId: string): Outcome<InvoiceObject[]>;
  /** `POST /v1/invoices/create_preview` of a price change: the proration invoice it would make now (nothing is stored). */
  previewPriceChange(subscriptionId: string, change: PriceChangeInput, customerId?: string): InvoiceObject;
}

type SubscriptionUpdate = Partial<SubscriptionObject>;
type Period = { start: number; end: number };

export function createBilling(deps: { ledger: PaymentLedger; emit: EmitEvent; baseUrl: () => string }): Billing {
  const catalog = createBillingCatalog();
  const subscriptions = new Map<string, SubscriptionObject>();
  const invoices = new Map<string, InvoiceObject>();
  const discounts = new Map<string, SubscriptionDiscount>();
  const collection = createInvoiceCollection(deps.ledger);
  /** Every event this module made, so each change can return its own. */
  const made: StripeEventObject[] = [];
  const emit: EmitEvent = (type, object, options) => {
    const event = deps.emit(type, object, options);
    made.push(event);
    return event;
  };
  const emitted = (): number => made.length;
  const since = (start: number): StripeEventObject[] => made.slice(start);

  const must = <T>(found: T | undefined, id: string, what: string): T => {
    if (!found) throw new Error(`fake Stripe: no ${what} ${id}`);
    return found;
  };
  const customerOf = (subscription: SubscriptionObject): CustomerObject =>
    must(catalog.customer(subscription.customer as string), subscription.customer as string, 'customer');
  /** Now for a customer: its test clock's frozen time, or the real time. */
  const nowFor = (customer: CustomerObject): number => {
    const clockId = customer.test_clock as string | null;
    return clockId ? must(catalog.clock(clockId), clockId, 'test clock').frozen_time : nowSeconds();
  };

  const openInvoices = (customerId: string): InvoiceObject[] =>
    [...invoices.values()].filter((invoice) => invoice.customer === customerId && invoice.status === 'open');

  /** One attempt at an invoice: invoice.paid + invoice.payment_succeeded, or invoice.payment_failed. */
  const attempt = (invoice: InvoiceObject, customer: CustomerObject, now: number, freshCard = false): boolean => {
    const paid = collection.charge(invoice, customer, now, { freshCard });
    recordAttempt(invoice, paid, now);
    // A failed invoice payment makes the customer delinquent until no invoice of theirs is left unpaid.
    customer.delinquent = !paid || openInvoices(customer.id).length > 0;
    if (paid) {
      emit('invoice.paid', invoice);
      emit('invoice.payment_succeeded', invoice);
    } else {
      emit('invoice.payment_failed', invoice);
    }
    return paid;
  };

  /** The subscription's discount on an invoice whose line starts at `lineStart`, with what it takes off the line. */
  const discountOn = (subscription: SubscriptionObject, billingReason: InvoiceBillingReason, lineStart: number): { id: string; amount: number } | null => {
    const discount = discounts.get(subscription.id);
    if (!discount) return null;
    const applies = discount.coupon.duration === 'once' ? billingReason === 'subscription_create' : discount.end === null || lineStart < discount.end;
    if (!applies) return null;
    const item = itemOf(subscription);
    return { id: discount.id, amount: couponDiscount(discount.coupon, (item.price.unit_amount ?? 0) * (item.quantity ?? 1)) };
  };

  /** A new draft invoice, the subscription's latest (invoice.created). */
  const draftInvoice = (
    subscription: SubscriptionObject,
    billingReason: InvoiceBillingReason,
    period: Period,
    linePeriod: Period,
    created: number,
    trial = false,
  ): InvoiceObject => {
    const discount = trial ? null : discountOn(subscription, billingReason, linePeriod.start);
    const invoice = newInvoice({ customer: customerOf(subscription), subscription, billingReason, period, linePeriod, created, discount, trial });
    invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    emit('invoice.created', invoice);
    return invoice;
  };

  const updated = (subscription: SubscriptionObject, previous: SubscriptionUpdate, request?: EventRequest): void => {
    emit('customer.subscription.updated', subscription, { request, previousAttributes: previous });
  };

  const renewals = createRenewals({ emit, customerOf, draftInvoice, attempt, updated, baseUrl: deps.baseUrl });

  /**
   * A trial until `trialEnd` on a running subscription (proration_behavior=none): the period is now..trialEnd, the
   * billing date moves to trialEnd, and the trial's invoice is for 0 (paid at once, no payment).
   */
  const startTrial = (subscription: SubscriptionObject, trialEnd: number, now: number, previous: SubscriptionUpdate): void => {
    if (trialEnd <= now) throw invalidParam('trial_end', 'Invalid timestamp: must be an integer Unix timestamp in the future.');
    const item = itemOf(subscription);
    Object.assign(previous, {
      status: subscription.status,
      trial_start: subscription.trial_start,
      trial_end: subscription.trial_end,
      billing_cycle_anchor: subscription.billing_cycle_anchor,
      items: structuredClone(subscription.items),
      latest_invoice: subscription.latest_invoice,
      cancel_at: subscription.cancel_at,
    });
    subscription.status = 'trialing';
    subscription.trial_start = now;
    subscription.trial_end = trialEnd;
    subscription.billing_cycle_anchor = trialEnd;
    item.current_period_start = now;
    item.current_period_end = trialEnd;
    if (subscription.cancel_at_period_end) subscription.cancel_at = trialEnd;
    const customer = customerOf(subscription);
    const invoice = draftInvoice(subscription, 'subscription_update', { start: now, end: now }, { start: now, end: trialEnd }, now, true);
    finalizeInvoice(invoice, customer, now, deps.baseUrl());
    emit('invoice.finalized', invoice);
    attempt(invoice, customer, now);
  };

  const productName = (price: PriceObject): string => catalog.product(price.product as string)?.name ?? (price.product as string);

  /** A price change can be made: the subscription's price, its proration time, and no discount the fake would have to prorate. */
  const priceChangeOf = (subscription: SubscriptionObject, change: PriceChangeInput, now: number): PriceObject => {
    if (discounts.has(subscription.id)) throw unsupported('items', 'prorating a subscription that has a discount');
    return checkPriceChange(subscription, change, catalog.price(change.price), now);
  };

  /** A price change that would charge a card that declines, with `error_if_incomplete`: the 402, before anything changes. */
  const refuseIfDeclined = (subscription: SubscriptionObject, change: PriceChangeInput, price: PriceObject, now: number): void => {
    if (change.proration !== 'always_invoice' || change.paymentBehavior !== 'error_if_incomplete') return;
    const customer = customerOf(subscription);
    const invoice = prorationInvoice(customer, subscription, price, change.prorationDate ?? now, now, productName);
    previewBalance(customer, invoice);
    if (invoice.amount_due > 0 && collection.declines(customer.id)) throw declinedUpdate();
  };

  /** The item's new price, its previous values kept for customer.subscription.updated. */
  const swapPrice = (subscription: SubscriptionObject, price: PriceObject, previous: SubscriptionUpdate): void => {
    previous.items ??= structuredClone(subscription.items);
    const item = itemOf(subscription);
    item.price = structuredClone(price);
    item.plan = planOf(price);
  };

  /**
   * The item's price changes now; with always_invoice its proration invoice is made (with the subscription's metadata
   * as it is after the update), finalized and charged. `error_if_incomplete` and a declining card: 402, nothing changed.
   */
  const changePrice = (subscription: SubscriptionObject, change: PriceChangeInput, price: PriceObject, now: number, previous: SubscriptionUpdate): void => {
    if (change.proration === 'none') return swapPrice(subscription, price, previous);
    const customer = customerOf(subscription);
    const invoice = prorationInvoice(customer, subscription, price, change.prorationDate ?? now, now, productName);
    previous.latest_invoice = subscription.latest_invoice;
    swapPrice(subscription, price, previous);
    invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    emit('invoice.created', invoice);
    finalizeInvoice(invoice, customer, now, deps.baseUrl());
    emit('invoice.finalized', invoice);
    if (!attempt(invoice, customer, now) && subscription.status === 'active') Object.assign(previous, setStatus(subscription, 'past_due'));
  };

  return {
    ...catalog,
    previewPriceChange(subscriptionId, change, customerId) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw noSuch('subscription', subscriptionId, 'subscription');
      if (customerId !== undefined && customerId !== subscription.customer)
        throw invalidParam('customer', `The subscription ${subscriptionId} does not belong to the customer ${customerId}.`);
      const customer = customerOf(subscription);
      const now = nowFor(customer);
      const price = priceChangeOf(subscription, change, now);
      const invoice = prorationInvoice(customer, subscription, price, change.prorationDate ?? now, now, productName);
      previewBalance(customer, invoice);
      return { ...invoice, id: previewId() };
    },
    subscription: (id) => subscriptions.get(id),
    subscriptions: () => [...subscriptions.values()],
    invoice: (id) => invoices.get(id),
    invoices: () => [...invoices.values()],
    invoicesOf: (subscriptionId) => [...invoices.values()].filter((invoice) => invoice.parent?.subscription_details?.subscription === subscriptionId),
    subscriptionsOf: (customerId) => [...subscriptions.values()].filter((s) => s.customer === customerId),
    openInvoicesOf: (customerId) => openInvoices(customerId),
    paymentIntentsOf: (invoiceId) => collection.payments.paymentIntentsOf(invoiceId),
    invoicePayments: collection.payments,

    startSubscription(input) {
      const customer = must(catalog.customer(input.customer), input.customer, 'customer');
      const price = must(catalog.price(input.price), input.price, 'price');
      const start = nowFor(customer);
      const before = emitted();
      const subscription = newSubscription({
        customer: customer.id,
        price,
        quantity: input.quantity,
        metadata: input.metadata,
        description: input.description ?? null,
        testClock: customer.test_clock as string | null,
        start,
      });
      subscriptions.set(subscription.id, subscription);
      const coupon = input.coupon ? must(catalog.coupon(input.coupon), input.coupon, 'coupon') : null;
      if (coupon) {
        const end = coupon.duration === 'repeating' ? periodBoundary(start, 'month', coupon.duration_in_months ?? 1, 1) : null;
        const discount = { id: `di_${subscription.id.slice(4)}`, coupon, start, end };
        discounts.set(subscription.id, discount);
        subscription.discounts = [discount.id];
        catalog.redeemCoupon(coupon.id);
      }
      emit('customer.subscription.created', subscription);
      const item = itemOf(subscription);
      const period = { start: item.current_period_start, end: item.current_period_end };
      // A first invoice bills in advance: its own period is the instant it was made, its line the first period.
      const invoice = draftInvoice(subscription, 'subscription_create', { start, end: start }, period, start);
      finalizeInvoice(invoice, customer, start, deps.baseUrl());
      emit('invoice.finalized', invoice);
      // The card was just entered on the checkout page, so the first payment always succeeds.
      attempt(invoice, customer, start, true);
      updated(subscription, setStatus(subscription, 'active'));
      return { result: { subscription, invoice }, events: since(before) };
    },

    updateSubscription(id, change, request) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw noSuch('subscription', id, 'id');
      const before = emitted();
      if (subscription.status === 'canceled' && (change.cancelAtPeriodEnd !== undefined || change.trialEnd !== undefined || change.price)) {
        const param = change.cancelAtPeriodEnd !== undefined ? 'cancel_at_period_end' : change.price ? 'items' : 'trial_end';
        throw invalidParam(param, 'A canceled subscription can only update its cancellation_details and metadata.');
      }
      const previous: SubscriptionUpdate = {};
      const now = nowFor(customerOf(subscription));
      // Checked before anything changes: a refused price change (a 402 among them) leaves the subscription as it was.
      const newPrice = change.price ? priceChangeOf(subscription, change.price, now) : null;
      if (change.price && newPrice) refuseIfDeclined(subscription, change.price, newPrice, now);
      if (change.cancelAtPeriodEnd !== undefined && change.cancelAtPeriodEnd !== subscription.cancel_at_period_end) {
        Object.assign(previous, {
          cancel_at_period_end: subscription.cancel_at_period_end,
          cancel_at: subscription.cancel_at,
          canceled_at: subscription.canceled_at,
          cancellation_details: structuredClone(subscription.cancellation_details),
        });
        subscription.cancel_at_period_end = change.cancelAtPeriodEnd;
        subscription.cancel_at = change.cancelAtPeriodEnd ? itemOf(subscription).current_period_end : null;
        subscription.canceled_at = change.cancelAtPeriodEnd ? now : null;
        subscription.cancellation_details = {
          comment: null,
          feedback: null,
          feedback_option: null,
          reason: change.cancelAtPeriodEnd ? 'cancellation_requested' : null,
        };
      }
      // Stripe does not document the same trial_end sent again as a no-op: the fake starts the trial again (another
      // invoice for 0), so a caller that repeats itself shows.
      if (change.trialEnd !== undefined) startTrial(subscription, change.trialEnd, now, previous);
      if (change.metadata !== undefined && JSON.stringify(change.metadata) !== JSON.stringify(subscription.metadata)) {
        previous.metadata = { ...subscription.metadata };
        subscription.metadata = change.metadata;
      }
      // The proration invoice carries the metadata the update sets (its subscription_details are the updated subscription's).
      if (change.price && newPrice) changePrice(subscription, change.price, newPrice, now, previous);
      if (Object.keys(previous).length > 0) updated(subscription, previous, request);
      return { result: subscription, events: since(before) };
    },

    cancelSubscription(id, request) {
      const subscription = subscriptions.get(id);
      if (!subscription || subscription.status === 'canceled') throw noSuch('subscription', id, 'id');
      const now = nowFor(customerOf(subscription));
      subscription.status = 'canceled';
      subscription.canceled_at = now;
      subscription.ended_at = now;
      subscription.cancellation_details = { comment: null, feedback: null, feedback_option: null, reason: 'cancellation_requested' };
      renewals.stopCollecting(subscription);
      const event = emit('customer.subscription.deleted', subscription, { request });
      return { result: subscription, events: [event] };
    },

    advanceClock(id, to) {
      const clock = catalog.clock(id);
      if (!clock) throw noSuch('test_helpers.test_clock', id, 'test_clock');
      const before = emitted();
      clock.status = 'advancing';
      clock.status_details = { advancing: { target_frozen_time: to } };
      emit('test_helpers.test_clock.advancing', clock);
      renewals.advance(clock, to, [...subscriptions.values()]);
      clock.status = 'ready';
      clock.status_details = {};
      emit('test_helpers.test_clock.ready', clock);
      return { result: clock, events: since(before) };
    },

    setCardDeclines(customerId, declines) {
      must(catalog.customer(customerId), customerId, 'customer');
      collection.setCardDeclines(customerId, declines);
    },

    payOpenInvoices(customerId) {
      const customer = must(catalog.customer(customerId), customerId, 'customer');
      const before = emitted();
      const now = nowFor(customer);
      const open = openInvoices(customerId);
      for (const invoice of open) {
        if (!attempt(invoice, customer, now)) continue;
        const subscription = subscriptions.get(invoice.parent?.subscription_details?.subscription as string);
        if (!subscription || subscription.status !== 'past_due') continue;
        const stillOpen = openInvoices(customerId).some((other) => other.parent?.subscription_details?.subscription === subscription.id);
        if (!stillOpen) updated(subscription, setStatus(subscription, 'active'));
      }
      return { result: open, events: since(before) };
    },
  };
}
