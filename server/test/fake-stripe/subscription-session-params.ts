/** `POST /v1/checkout/sessions` with `mode=subscription`: line items name recurring Prices, and a Customer pays. */
import type { BillingCatalog } from './billing-catalog.js';
import type { FormHash, FormValue } from './form-body.js';
import { hashParam, integerParam, listParam, metadataParam, optionalString, rejectUnknown, unsupported } from './form-params.js';
import type { PriceObject } from './products-prices.js';
import type { LineItemInput } from './session-params.js';
import { invalidParam, missingParam, noSuch } from './stripe-errors.js';

/** What the session's subscription is made from when the customer pays. */
export interface SubscriptionSessionInput {
  customer: string;
  price: string;
  quantity: number;
  /** `subscription_data[metadata]`: the new subscription's metadata. */
  metadata: Record<string, string>;
  /** `subscription_data[description]`: the new subscription's description, or null. */
  description?: string | null;
  /** The session's coupon (`discounts`): the subscription's discount. */
  coupon?: string | null;
}

/** The Billing objects a subscription-mode session may name. */
export type SessionCatalog = Pick<BillingCatalog, 'price' | 'product' | 'customer' | 'coupon'>;

const SUBSCRIPTION_DATA = new Set([
  'application_fee_percent',
  'billing_cycle_anchor',
  'billing_mode',
  'default_tax_rates',
  'description',
  'invoice_settings',
  'metadata',
  'on_behalf_of',
  'pending_invoice_item_interval',
  'proration_behavior',
  'transfer_data',
  'trial_end',
  'trial_period_days',
  'trial_settings',
]);

/**
 * The line items and subscription of a subscription-mode session. The fake takes one line item with a recurring
 * `price` of its own, and an existing `customer` (Checkout creating the customer is not modelled).
 */
export function parseSubscriptionSession(params: FormHash, catalog: SessionCatalog): { lineItems: LineItemInput[]; subscription: SubscriptionSessionInput } {
  if (params.payment_intent_data !== undefined) {
    throw invalidParam('payment_intent_data', 'You can not pass `payment_intent_data` in `subscription` mode.');
  }
  const customer = optionalString(params.customer, 'customer');
  if (customer !== undefined && params.customer_email !== undefined) {
    throw invalidParam('customer_email', 'You may only specify one of these parameters: customer, customer_email.');
  }
  if (customer === undefined) throw unsupported('customer', 'subscription-mode sessions without an existing `customer`');
  if (!catalog.customer(customer)) throw noSuch('customer', customer, 'customer');

  const items = listParam(params.line_items, 'line_items');
  if (!items || items.length === 0) throw missingParam('line_items');
  if (items.length > 1) throw unsupported('line_items', 'more than one line item in subscription mode');
  const { price, quantity } = recurringLineItem(items[0]!, catalog);
  const product = catalog.product(price.product as string);
  const lineItem: LineItemInput = {
    name: product?.name ?? price.nickname ?? price.id,
    description: product?.description ?? null,
    currency: price.currency,
    unitAmount: price.unit_amount ?? 0,
    quantity,
  };
  return { lineItems: [lineItem], subscription: { customer, price: price.id, quantity, ...subscriptionData(params.subscription_data) } };
}

function recurringLineItem(value: FormValue, catalog: SessionCatalog): { price: PriceObject; quantity: number } {
  const param = 'line_items[0]';
  const item = hashParam(value, param)!;
  if (item.price_data !== undefined) throw unsupported(`${param}[price_data]`, 'price_data in subscription mode (create a Price)');
  const priceId = optionalString(item.price, `${param}[price]`);
  if (priceId === undefined) throw invalidParam(param, 'You must specify either `price` or `price_data` for each line item.');
  const price = catalog.price(priceId);
  if (!price) throw noSuch('price', priceId, `${param}[price]`);
  if (!price.active) throw invalidParam(`${param}[price]`, `The price specified is inactive. This field only accepts active prices.`);
  if (price.recurring === null) {
    throw invalidParam(`${param}[price]`, 'You must provide at least one recurring price in `subscription` mode when using prices.');
  }
  const quantity = integerParam(item.quantity, `${param}[quantity]`, 1, 999_999);
  if (quantity === undefined) throw missingParam(`${param}[quantity]`);
  return { price, quantity };
}

/** `subscription_data`: metadata and description are kept; trials and anchors are not modelled; the rest is accepted and ignored. */
function subscriptionData(value: FormValue | undefined): { metadata: Record<string, string>; description: string | null } {
  const data = hashParam(value, 'subscription_data');
  if (!data) return { metadata: {}, description: null };
  rejectUnknown(data, SUBSCRIPTION_DATA, 'subscription_data');
  for (const key of ['trial_end', 'trial_period_days', 'billing_cycle_anchor']) {
    if (data[key] !== undefined) throw unsupported(`subscription_data[${key}]`, `subscription_data[${key}]`);
  }
  const description = optionalString(data.description, 'subscription_data[description]') ?? null;
  if (description !== null && description.length > 500) throw invalidParam('subscription_data[description]', 'The description must be at most 500 characters.');
  return { metadata: metadataParam(data.metadata, 'subscription_data[metadata]'), description };
}
