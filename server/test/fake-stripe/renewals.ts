/**
 * What time does to subscriptions on a test clock: a period ends and the subscription renews (a draft invoice,
 * finalized and charged an hour later; a trial ends the same way) or, with cancel_at_period_end, ends.
 */
import type { CustomerObject } from './customers.js';
import { finalizeInvoice, type InvoiceBillingReason, type InvoiceObject } from './invoices.js';
import type { EmitEvent } from './payment-ledger.js';
import type { Interval } from './products-prices.js';
import { itemOf, periodBoundary, setStatus, type SubscriptionObject } from './subscription-objects.js';

type Period = { start: number; end: number };

/** What renewing needs from Billing. */
export interface RenewalDeps {
  emit: EmitEvent;
  customerOf(subscription: SubscriptionObject): CustomerObject;
  /** A new draft invoice, the subscription's latest (invoice.created). */
  draftInvoice(subscription: SubscriptionObject, billingReason: InvoiceBillingReason, period: Period, linePeriod: Period, created: number): InvoiceObject;
  /** One attempt at an open invoice, with its events; returns whether it paid. */
  attempt(invoice: InvoiceObject, customer: CustomerObject, now: number): boolean;
  /** customer.subscription.updated with the changed fields' previous values. */
  updated(subscription: SubscriptionObject, previous: Partial<SubscriptionObject>): void;
  baseUrl(): string;
}

export interface Renewals {
  /**
   * Runs a clock forward to `to`: what falls due on the way happens in time order (period ends, drafts'
   * finalization), each at its own time on the clock. Emits no clock events.
   */
  advance(clock: { id: string; frozen_time: number }, to: number, subscriptions: readonly SubscriptionObject[]): void;
  /** A canceled subscription's drafts are not finalized or charged (they stay drafts). */
  stopCollecting(subscription: SubscriptionObject): void;
}

interface PendingDraft {
  invoice: InvoiceObject;
  subscription: SubscriptionObject;
}

/** Stripe leaves a renewal invoice in draft for about an hour (for invoice items to be added) before finalizing it. */
const DRAFT_SECONDS = 60 * 60;

const live = (subscription: SubscriptionObject): boolean => ['active', 'past_due', 'trialing'].includes(subscription.status);

export function createRenewals(deps: RenewalDeps): Renewals {
  /** Renewal invoices still in their draft hour, oldest first. */
  const drafts: PendingDraft[] = [];

  /** How many whole periods lie between the anchor and `boundary`. */
  const countPeriods = (subscription: SubscriptionObject, boundary: number): number => {
    const recurring = itemOf(subscription).price.recurring!;
    let n = 0;
    while (periodBoundary(subscription.billing_cycle_anchor, recurring.interval as Interval, recurring.interval_count, n) < boundary) n++;
    return n;
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
    const previous: Partial<SubscriptionObject> = { items: structuredClone(subscription.items), latest_invoice: subscription.latest_invoice };
    item.current_period_start = start;
    item.current_period_end = end;
    // A trial ends with the period: the subscription is active (past_due, an hour later, if the charge fails).
    if (subscription.status === 'trialing') Object.assign(previous, setStatus(subscription, 'active'));
    // A renewal invoice's own period is the one that just ended; its line bills the new one in advance.
    const invoice = deps.draftInvoice(subscription, 'subscription_cycle', { start: previousStart, end: start }, { start, end }, start);
    invoice.automatically_finalizes_at = start + DRAFT_SECONDS;
    deps.updated(subscription, previous);
    drafts.push({ invoice, subscription });
  };

  /** A renewal draft's hour is up: finalized (invoice.finalized) and charged; a decline leaves it open, the subscription past_due. */
  const collect = (draft: PendingDraft): void => {
    const { invoice, subscription } = draft;
    drafts.splice(drafts.indexOf(draft), 1);
    const customer = deps.customerOf(subscription);
    const at = invoice.automatically_finalizes_at!;
    finalizeInvoice(invoice, customer, at, deps.baseUrl());
    deps.emit('invoice.finalized', invoice);
    if (!deps.attempt(invoice, customer, at) && subscription.status === 'active') deps.updated(subscription, setStatus(subscription, 'past_due'));
  };

  const stopCollecting = (subscription: SubscriptionObject): void => {
    for (const draft of drafts.filter((d) => d.subscription === subscription)) drafts.splice(drafts.indexOf(draft), 1);
  };

  /** A `cancel_at_period_end` subscription reaches its period end. */
  const endAtPeriodEnd = (subscription: SubscriptionObject): void => {
    subscription.status = 'canceled';
    subscription.ended_at = itemOf(subscription).current_period_end;
    stopCollecting(subscription);
    deps.emit('customer.subscription.deleted', subscription);
  };

  return {
    advance(clock, to, subscriptions) {
      const ofClock = subscriptions.filter((s) => s.test_clock === clock.id);
      for (;;) {
        const periodEnds = ofClock.filter((s) => live(s) && itemOf(s).current_period_end <= to).map((s) => ({ at: itemOf(s).current_period_end, s }));
        const due = drafts
          .filter((d) => d.subscription.test_clock === clock.id && d.invoice.automatically_finalizes_at! <= to)
          .map((d) => ({ at: d.invoice.automatically_finalizes_at!, d }));
        const next = [...due, ...periodEnds].sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        clock.frozen_time = next.at;
        if ('d' in next) collect(next.d);
        else if (next.s.cancel_at_period_end) endAtPeriodEnd(next.s);
        else renew(next.s);
      }
      clock.frozen_time = to;
    },
    stopCollecting,
  };
}
