/** The Subscription object, its items (which carry the billing period in this API version) and period arithmetic. */
import type Stripe from 'stripe';
import type { Interval, PriceObject } from './products-prices.js';
import { stripeId } from './stripe-ids.js';

export type SubscriptionObject = Stripe.Subscription;
export type SubscriptionItemObject = Stripe.SubscriptionItem;

const DAY = 24 * 60 * 60;

/**
 * The end of the `n`-th period after `anchor` (Unix seconds). Months and years count calendar months from the
 * anchor's day, clamped to the month's last day (a subscription started on 31 January renews on 28/29 February,
 * then on 31 March), as Stripe does.
 */
export function periodBoundary(anchor: number, interval: Interval, count: number, n: number): number {
  if (interval === 'day') return anchor + n * count * DAY;
  if (interval === 'week') return anchor + n * count * 7 * DAY;
  const months = n * count * (interval === 'year' ? 12 : 1);
  const start = new Date(anchor * 1000);
  const target = new Date(start.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(start.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}

/** The legacy Plan every subscription item still carries, made from its Price. */
export function planOf(price: PriceObject): Stripe.Plan {
  const recurring = price.recurring!;
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: recurring.interval,
    interval_count: recurring.interval_count,
    livemode: false,
    metadata: { ...price.metadata },
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export interface NewSubscriptionInput {
  customer: string;
  price: PriceObject;
  quantity: number;
  metadata: Record<string, string>;
  /** `subscription_data[description]`, or null. */
  description?: string | null;
  testClock: string | null;
  /** Start of the first period (the clock's frozen time, or now). */
  start: number;
}

/** A new subscription (status `incomplete` until its first invoice is paid) with one item for `price`. */
export function newSubscription(input: NewSubscriptionInput): SubscriptionObject {
  const id = stripeId('sub_1', 23);
  const recurring = input.price.recurring!;
  const end = periodBoundary(input.start, recurring.interval as Interval, recurring.interval_count, 1);
  const item: SubscriptionItemObject = {
    id: stripeId('si_', 14),
    object: 'subscription_item',
    billing_thresholds: null,
    created: input.start,
    current_period_end: end,
    current_period_start: input.start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(input.price),
    price: structuredClone(input.price),
    quantity: input.quantity,
    subscription: id,
    tax_rates: [],
  };
  return {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: input.start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: input.start,
    currency: input.price.currency,
    customer: input.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: input.description ?? null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    items: { object: 'list', data: [item], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: { ...input.metadata },
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: input.start,
    status: 'incomplete',
    test_clock: input.testClock,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: null,
  };
}

/** The subscription's only item (the fake makes one per subscription). */
export const itemOf = (subscription: SubscriptionObject): SubscriptionItemObject => subscription.items.data[0]!;

/** Sets the subscription's status; returns the previous one (`previous_attributes` of customer.subscription.updated). */
export function setStatus(subscription: SubscriptionObject, status: SubscriptionObject['status']): Partial<SubscriptionObject> {
  const previous = { status: subscription.status };
  subscription.status = status;
  return previous;
}
