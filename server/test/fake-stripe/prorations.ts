/**
 * Prorations when a subscription item moves to another price (`POST /v1/subscriptions/:id` with
 * `items[0][id]`/`items[0][price]`, and `POST /v1/invoices/create_preview` of the same change), as Stripe computes them
 * in classic billing mode: to the second, from the proration time (`proration_date`, or now) to the end of the current
 * period, the unused time of the old price is a credit line and the remaining time at the new price a debit line, each
 * `unit_amount × quantity × remaining / period`, rounded to the minor unit, both `proration: true`. With
 * `proration_behavior=always_invoice` they are invoiced at once (billing_reason `subscription_update`): a positive total
 * is charged (the customer's credit balance first), a negative one is added to the customer's balance, which pays
 * their next invoices.
 */
import type Stripe from 'stripe';
import type { CustomerObject } from './customers.js';
import type { FormHash, FormValue } from './form-body.js';
import { hashParam, integerParam, listParam, optionalString, rejectUnknown, requiredString, unsupported } from './form-params.js';
import { newInvoice, type InvoiceObject } from './invoices.js';
import type { PriceObject } from './products-prices.js';
import { wireDecimal } from './products-prices.js';
import { invalidParam, noSuch, StripeApiError } from './stripe-errors.js';
import { stripeId } from './stripe-ids.js';
import { itemOf, type SubscriptionObject } from './subscription-objects.js';

/** A subscription item moved to another price. */
export interface PriceChangeInput {
  item: string;
  price: string;
  /** `none`: the price changes without a proration; `always_invoice`: the proration is invoiced at once. */
  proration: 'always_invoice' | 'none';
  /** When the proration is computed for (Unix seconds); now when absent. */
  prorationDate?: number;
  /** `error_if_incomplete`: a charge that fails answers 402 and changes nothing; `allow_incomplete` (the default): past_due. */
  paymentBehavior: 'allow_incomplete' | 'error_if_incomplete';
}

const ITEM_PARAMS = new Set([
  'billing_thresholds',
  'clear_usage',
  'deleted',
  'discounts',
  'id',
  'metadata',
  'plan',
  'price',
  'price_data',
  'quantity',
  'tax_rates',
]);

/** `items` of an update: one item, by its id, given a new `price` (what the fake models). */
export function parseItemsParam(value: FormValue | undefined, param = 'items'): { item: string; price: string } | undefined {
  const items = listParam(value, param);
  if (items === undefined) return undefined;
  if (items.length !== 1) throw unsupported(param, 'updating more (or fewer) than one subscription item');
  const entry = hashParam(items[0], `${param}[0]`) ?? ({} as FormHash);
  rejectUnknown(entry, ITEM_PARAMS, `${param}[0]`);
  const other = Object.keys(entry).find((key) => key !== 'id' && key !== 'price');
  if (other !== undefined) throw unsupported(`${param}[0][${other}]`, `a subscription item's ${other}`);
  const item = optionalString(entry.id, `${param}[0][id]`);
  if (item === undefined) throw unsupported(`${param}[0][id]`, 'adding a subscription item');
  return { item, price: requiredString(entry.price, `${param}[0][price]`) };
}

const PAYMENT_BEHAVIORS = ['allow_incomplete', 'default_incomplete', 'error_if_incomplete', 'pending_if_incomplete'];

export function parsePaymentBehavior(value: FormValue | undefined): PriceChangeInput['paymentBehavior'] {
  const behavior = optionalString(value, 'payment_behavior') ?? 'allow_incomplete';
  if (!PAYMENT_BEHAVIORS.includes(behavior)) throw invalidParam('payment_behavior', `Invalid payment_behavior: must be one of ${PAYMENT_BEHAVIORS.join(', ')}`);
  if (behavior !== 'allow_incomplete' && behavior !== 'error_if_incomplete') throw unsupported('payment_behavior', `payment_behavior=${behavior}`);
  return behavior;
}

export const parseProrationDate = (value: FormValue | undefined, param = 'proration_date') => integerParam(value, param, 0);

/** Refuses a price change Stripe would refuse (or the fake does not model); returns the new price. */
export function checkPriceChange(subscription: SubscriptionObject, change: PriceChangeInput, price: PriceObject | undefined, now: number): PriceObject {
  const item = itemOf(subscription);
  if (change.item !== item.id) throw noSuch('subscription_item', change.item, 'items[0][id]');
  if (!price) throw noSuch('price', change.price, 'items[0][price]');
  if (!price.active) throw invalidParam('items[0][price]', `The price specified is inactive. This field only accepts active prices.`);
  if (!price.recurring)
    throw invalidParam('items[0][price]', `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`);
  if (price.currency !== subscription.currency)
    throw invalidParam('items[0][price]', `The price specified has currency \`${price.currency}\`, but the subscription is in \`${subscription.currency}\`.`);
  const old = item.price.recurring!;
  if (price.recurring.interval !== old.interval || price.recurring.interval_count !== old.interval_count)
    throw unsupported('items[0][price]', 'a price with another billing interval (it resets the billing cycle)');
  if (subscription.status !== 'active' && subscription.status !== 'trialing')
    throw unsupported('items', `changing the price of a ${subscription.status} subscription`);
  const at = change.prorationDate ?? now;
  if (change.prorationDate !== undefined && (at < item.current_period_start || at > item.current_period_end))
    throw invalidParam('proration_date', 'The proration_date must be within the current billing period of the subscription.');
  return price;
}

/** `unit_amount × quantity × remaining / period`, to the minor unit. */
const prorated = (unitAmount: number, quantity: number, remaining: number, period: number) => Math.round((unitAmount * quantity * remaining) / period);

const day = (seconds: number) => new Date(seconds * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

function prorationLine(
  invoiceId: string,
  subscription: SubscriptionObject,
  price: PriceObject,
  amount: number,
  description: string,
  period: { start: number; end: number },
): Stripe.InvoiceLineItem {
  const item = itemOf(subscription);
  const quantity = item.quantity ?? 1;
  return {
    id: stripeId('il_1', 23),
    object: 'line_item',
    amount,
    currency: subscription.currency,
    description,
    discount_amounts: [],
    discountable: false,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: stripeId('ii_1', 23),
        proration: true,
        proration_details: { credited_items: null },
        subscription: subscription.id,
        subscription_item: item.id,
      },
      type: 'subscription_item_details',
    },
    period,
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: price.id, product: price.product as string },
      type: 'price_details',
      unit_amount_decimal: wireDecimal(price.unit_amount ?? 0),
    },
    quantity,
    quantity_decimal: wireDecimal(quantity),
    subscription: subscription.id,
    subtotal: amount,
    taxes: [],
  };
}

/**
 * The proration invoice (a draft: not stored, nothing charged) for moving the subscription's item to `price` at `at`.
 * `productName` names a price's product in the lines ("Unused time on VPN Pro after 25 Jan 2026").
 */
export function prorationInvoice(
  customer: CustomerObject,
  subscription: SubscriptionObject,
  price: PriceObject,
  at: number,
  created: number,
  productName: (price: PriceObject) => string,
): InvoiceObject {
  const item = itemOf(subscription);
  const quantity = item.quantity ?? 1;
  const period = { start: at, end: item.current_period_end };
  const length = item.current_period_end - item.current_period_start;
  const remaining = item.current_period_end - at;
  const invoice = newInvoice({
    customer,
    subscription,
    billingReason: 'subscription_update',
    period: { start: created, end: created },
    linePeriod: period,
    created,
  });
  const credit = -prorated(item.price.unit_amount ?? 0, quantity, remaining, length);
  const debit = prorated(price.unit_amount ?? 0, quantity, remaining, length);
  invoice.lines.data = [
    prorationLine(invoice.id, subscription, item.price, credit, `Unused time on ${productName(item.price)} after ${day(at)}`, period),
    prorationLine(invoice.id, subscription, price, debit, `Remaining time on ${productName(price)} after ${day(at)}`, period),
  ];
  const total = credit + debit;
  Object.assign(invoice, {
    subtotal: total,
    subtotal_excluding_tax: total,
    total,
    total_excluding_tax: total,
    amount_due: Math.max(0, total),
    amount_remaining: Math.max(0, total),
    discounts: [],
    total_discount_amounts: [],
  });
  return invoice;
}

/** A preview shows the customer's balance applied as finalisation would, without moving it. */
export function previewBalance(customer: CustomerObject, invoice: InvoiceObject): void {
  invoice.starting_balance = customer.balance;
  if (invoice.total < 0) {
    invoice.ending_balance = customer.balance + invoice.total;
    return;
  }
  const applied = customer.balance < 0 ? Math.min(-customer.balance, invoice.amount_due) : 0;
  invoice.amount_due -= applied;
  invoice.amount_remaining = invoice.amount_due;
  invoice.ending_balance = customer.balance + applied;
}

/** The preview's id: not an invoice that exists (Stripe's `upcoming_in_…`). */
export const previewId = () => stripeId('upcoming_in_1', 23);

/** `POST /v1/invoices/create_preview` parameters the fake models: a price change of one subscription, invoiced at once. */
export function parsePreview(params: FormHash): { subscription: string; customer?: string; change: PriceChangeInput } {
  rejectUnknown(params, new Set(['automatic_tax', 'customer', 'expand', 'subscription', 'subscription_details', 'currency', 'discounts']), '');
  for (const key of ['automatic_tax', 'expand', 'currency', 'discounts']) if (params[key] !== undefined) throw unsupported(key, `create_preview with ${key}`);
  const subscription = optionalString(params.subscription, 'subscription');
  if (subscription === undefined) throw unsupported('subscription', 'previewing anything but a change of an existing subscription');
  const details = hashParam(params.subscription_details, 'subscription_details') ?? ({} as FormHash);
  rejectUnknown(
    details,
    new Set([
      'items',
      'proration_behavior',
      'proration_date',
      'billing_cycle_anchor',
      'cancel_at',
      'cancel_at_period_end',
      'cancel_now',
      'default_tax_rates',
      'resume_at',
      'start_date',
      'trial_end',
      'billing_mode',
    ]),
    'subscription_details',
  );
  const other = Object.keys(details).find((key) => !['items', 'proration_behavior', 'proration_date'].includes(key));
  if (other !== undefined) throw unsupported(`subscription_details[${other}]`, `previewing subscription_details[${other}]`);
  const items = parseItemsParam(details.items, 'subscription_details[items]');
  if (!items) throw unsupported('subscription_details[items]', 'previewing a subscription without a price change');
  const proration = optionalString(details.proration_behavior, 'subscription_details[proration_behavior]') ?? 'create_prorations';
  if (proration !== 'always_invoice') throw unsupported('subscription_details[proration_behavior]', `previewing proration_behavior=${proration}`);
  const prorationDate = parseProrationDate(details.proration_date, 'subscription_details[proration_date]');
  const customer = optionalString(params.customer, 'customer');
  return {
    subscription,
    ...(customer !== undefined ? { customer } : {}),
    change: { ...items, proration, ...(prorationDate !== undefined ? { prorationDate } : {}), paymentBehavior: 'allow_incomplete' },
  };
}

/** The 402 of `payment_behavior=error_if_incomplete` when the card declines: nothing changed. */
export function declinedUpdate(): StripeApiError {
  return new StripeApiError(402, 'card_error', 'Your card has insufficient funds.', 'card_declined', undefined, false, { decline_code: 'insufficient_funds' });
}
