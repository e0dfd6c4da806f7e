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
 * - `POST /v1/subscriptions/:id`: customer.subscription.updated; `DELETE`: customer.subscription.deleted.
 */
import type Stripe from 'stripe';
import { createBillingCatalog, type BillingCatalog } from './billing-catalog.js';
import type { CustomerObject } from './customers.js';
import { finalizeInvoice, newInvoice, recordAttempt, type InvoiceBillingReason, type InvoiceObject } from './invoices.js';
import type { EmitEvent, PaymentLedger } from './payment-ledger.js';
import { settleFailed } from './payment-objects.js';
import { CARD } from './payment-methods.js';
import type { Interval } from './products-prices.js';
import { invalidParam, noSuch } from './stripe-errors.js';
import { nowSeconds } from './stripe-ids.js';
import { itemOf, newSubscription, periodBoundary, type SubscriptionObject } from './subscription-objects.js';
import type { TestClockObject } from './test-clocks.js';
import type { EventRequest, StripeEventObject } from './webhooks.js';

/** What `POST /v1/subscriptions/:id` changes in the fake (metadata is the merged result). */
export interface SubscriptionChange {
  cancelAtPeriodEnd?: boolean;
  metadata?: Record<string, string>;
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
}

export interface Billing extends BillingCatalog {
  subscription(id: string): SubscriptionObject | undefined;
  invoice(id: string): InvoiceObject | undefined;
  /** The invoices of a subscription, oldest first. */
  invoicesOf(subscriptionId: string): InvoiceObject[];
  /** The customer's subscriptions, oldest first. */
  subscriptionsOf(customerId: string): SubscriptionObject[];
  /** The customer's open (unpaid, finalized) invoices, oldest first. */
  openInvoicesOf(customerId: string): InvoiceObject[];
  /** The PaymentIntents that tried to pay an invoice, oldest first. */
  paymentIntentsOf(invoiceId: string): string[];
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
}

type SubscriptionUpdate = Partial<SubscriptionObject>;
type Period = { start: number; end: number };
interface PendingDraft {
  invoice: InvoiceObject;
  subscription: SubscriptionObject;
}

/** A card payment declined by the issuer (`card_declined`, decline code insufficient_funds), as Stripe reports it. */
function declineCard(paymentIntent: Stripe.PaymentIntent, charge: Stripe.Charge): void {
  settleFailed(paymentIntent, charge);
  paymentIntent.amount_received = 0;
  paymentIntent.last_payment_error = {
    charge: charge.id,
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
    type: 'card_error',
  };
  charge.captured = false;
  charge.failure_code = 'card_declined';
  charge.failure_message = 'Your card has insufficient funds.';
}

/** Stripe leaves a renewal invoice in draft for about an hour (for invoice items to be added) before finalizing it. */
const DRAFT_SECONDS = 60 * 60;

export function createBilling(deps: { ledger: PaymentLedger; emit: EmitEvent; baseUrl: () => string }): Billing {
  const catalog = createBillingCatalog();
  const subscriptions = new Map<string, SubscriptionObject>();
  const invoices = new Map<string, InvoiceObject>();
  const invoicePayments = new Map<string, string[]>();
  const declining = new Set<string>();
  /** Renewal invoices still in their draft hour, oldest first. */
  const drafts: PendingDraft[] = [];
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

  /** Charges the customer's card for an invoice (declines while `setCardDeclines` says so); returns whether it paid. */
  const charge = (invoice: InvoiceObject, customer: CustomerObject, now: number): boolean => {
    const paymentIntent = deps.ledger.startPayment({
      amount: invoice.amount_due,
      currency: invoice.currency,
      methodType: CARD,
      email: customer.email,
      metadata: {},
      description: invoice.billing_reason === 'subscription_create' ? 'Subscription creation' : 'Subscription update',
      created: now,
    });
    paymentIntent.customer = customer.id;
    const chargeObject = deps.ledger.charge(paymentIntent.latest_charge as string)!;
    chargeObject.customer = customer.id;
    invoicePayments.set(invoice.id, [...(invoicePayments.get(invoice.id) ?? []), paymentIntent.id]);
    if (!declining.has(customer.id)) return true;
    declineCard(paymentIntent, chargeObject);
    return false;
  };

  /** One attempt at an invoice: invoice.paid + invoice.payment_succeeded, or invoice.payment_failed. */
  const attempt = (invoice: InvoiceObject, customer: CustomerObject, now: number): boolean => {
    const paid = charge(invoice, customer, now);
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

  /** A new draft invoice, the subscription's latest (invoice.created). */
  const draftInvoice = (
    subscription: SubscriptionObject,
    billingReason: InvoiceBillingReason,
    period: Period,
    linePeriod: Period,
    created: number,
  ): InvoiceObject => {
    const invoice = newInvoice({ customer: customerOf(subscription), subscription, billingReason, period, linePeriod, created });
    invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    emit('invoice.created', invoice);
    return invoice;
  };

  const updated = (subscription: SubscriptionObject, previous: SubscriptionUpdate, request?: EventRequest): void => {
    emit('customer.subscription.updated', subscription, { request, previousAttributes: previous });
  };

  const setStatus = (subscription: SubscriptionObject, status: SubscriptionObject['status']): SubscriptionUpdate => {
    const previous = { status: subscription.status };
    subscription.status = status;
    return previous;
  };

  /**
   * A period ends: the renewal invoice is created as a draft (invoice.created) and the subscription moves to the
   * next period (customer.subscription.updated). Like Stripe, the draft is finalized and charged an hour later
   * (`automatically_finalizes_at`, see `collect`).
   */
  const renew = (subscription: SubscriptionObject): void => {
    const item = itemOf(subscription);
    const recurring = item.price.recurring!;
    const previousStart = item.current_period_start;
    const start = item.current_period_end;
    const periods = countPeriods(subscription, start);
    const end = periodBoundary(subscription.billing_cycle_anchor, recurring.interval as Interval, recurring.interval_count, periods + 1);
    const previous: SubscriptionUpdate = { items: structuredClone(subscription.items), latest_invoice: subscription.latest_invoice };
    item.current_period_start = start;
    item.current_period_end = end;
    // A renewal invoice's own period is the one that just ended; its line bills the new one in advance.
    const invoice = draftInvoice(subscription, 'subscription_cycle', { start: previousStart, end: start }, { start, end }, start);
    invoice.automatically_finalizes_at = start + DRAFT_SECONDS;
    updated(subscription, previous);
    drafts.push({ invoice, subscription });
  };

  /** A canceled subscription's drafts are not finalized or charged (they stay drafts). */
  const stopCollecting = (subscription: SubscriptionObject): void => {
    for (const draft of drafts.filter((d) => d.subscription === subscription)) drafts.splice(drafts.indexOf(draft), 1);
  };

  /** A renewal draft's hour is up: finalized (invoice.finalized) and charged; a decline leaves it open, the subscription past_due. */
  const collect = (draft: PendingDraft): void => {
    const { invoice, subscription } = draft;
    drafts.splice(drafts.indexOf(draft), 1);
    const customer = customerOf(subscription);
    const at = invoice.automatically_finalizes_at!;
    finalizeInvoice(invoice, customer, at, deps.baseUrl());
    emit('invoice.finalized', invoice);
    if (!attempt(invoice, customer, at) && subscription.status === 'active') updated(subscription, setStatus(subscription, 'past_due'));
  };

  /** How many whole periods lie between the anchor and `boundary`. */
  const countPeriods = (subscription: SubscriptionObject, boundary: number): number => {
    const recurring = itemOf(subscription).price.recurring!;
    let n = 0;
    while (periodBoundary(subscription.billing_cycle_anchor, recurring.interval as Interval, recurring.interval_count, n) < boundary) n++;
    return n;
  };

  /** A `cancel_at_period_end` subscription reaches its period end. */
  const endAtPeriodEnd = (subscription: SubscriptionObject): void => {
    subscription.status = 'canceled';
    subscription.ended_at = itemOf(subscription).current_period_end;
    stopCollecting(subscription);
    emit('customer.subscription.deleted', subscription);
  };

  const openInvoices = (customerId: string): InvoiceObject[] =>
    [...invoices.values()].filter((invoice) => invoice.customer === customerId && invoice.status === 'open');

  const live = (subscription: SubscriptionObject): boolean => subscription.status === 'active' || subscription.status === 'past_due';

  return {
    ...catalog,
    subscription: (id) => subscriptions.get(id),
    invoice: (id) => invoices.get(id),
    invoicesOf: (subscriptionId) =>
      [...invoices.values()].filter((invoice) => invoice.parent?.subscription_details?.subscription === subscriptionId),
    subscriptionsOf: (customerId) => [...subscriptions.values()].filter((s) => s.customer === customerId),
    openInvoicesOf: (customerId) => openInvoices(customerId),
    paymentIntentsOf: (invoiceId) => [...(invoicePayments.get(invoiceId) ?? [])],

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
        testClock: customer.test_clock as string | null,
        start,
      });
      subscriptions.set(subscription.id, subscription);
      emit('customer.subscription.created', subscription);
      const item = itemOf(subscription);
      const period = { start: item.current_period_start, end: item.current_period_end };
      // A first invoice bills in advance: its own period is the instant it was made, its line the first period.
      const invoice = draftInvoice(subscription, 'subscription_create', { start, end: start }, period, start);
      finalizeInvoice(invoice, customer, start, deps.baseUrl());
      emit('invoice.finalized', invoice);
      // The card was just entered on the checkout page, so the first payment always succeeds.
      const wasDeclining = declining.delete(customer.id);
      attempt(invoice, customer, start);
      if (wasDeclining) declining.add(customer.id);
      updated(subscription, setStatus(subscription, 'active'));
      return { result: { subscription, invoice }, events: since(before) };
    },

    updateSubscription(id, change, request) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw noSuch('subscription', id, 'id');
      const before = emitted();
      if (subscription.status === 'canceled' && change.cancelAtPeriodEnd !== undefined) {
        throw invalidParam('cancel_at_period_end', 'A canceled subscription can only update its cancellation_details and metadata.');
      }
      const previous: SubscriptionUpdate = {};
      const now = nowFor(customerOf(subscription));
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
      if (change.metadata !== undefined && JSON.stringify(change.metadata) !== JSON.stringify(subscription.metadata)) {
        previous.metadata = { ...subscription.metadata };
        subscription.metadata = change.metadata;
      }
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
      stopCollecting(subscription);
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
      // What falls due on the way happens in time order: period ends (renew or end) and drafts' finalization.
      const ofClock = [...subscriptions.values()].filter((s) => s.test_clock === id);
      for (;;) {
        const periodEnds = ofClock.filter((s) => live(s) && itemOf(s).current_period_end <= to).map((s) => ({ at: itemOf(s).current_period_end, s }));
        const due = drafts
          .filter((d) => d.subscription.test_clock === id && d.invoice.automatically_finalizes_at! <= to)
          .map((d) => ({ at: d.invoice.automatically_finalizes_at!, d }));
        const next = [...due, ...periodEnds].sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        clock.frozen_time = next.at;
        if ('d' in next) collect(next.d);
        else if (next.s.cancel_at_period_end) endAtPeriodEnd(next.s);
        else renew(next.s);
      }
      clock.frozen_time = to;
      clock.status = 'ready';
      clock.status_details = {};
      emit('test_helpers.test_clock.ready', clock);
      return { result: clock, events: since(before) };
    },

    setCardDeclines(customerId, declines) {
      must(catalog.customer(customerId), customerId, 'customer');
      if (declines) declining.add(customerId);
      else declining.delete(customerId);
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
