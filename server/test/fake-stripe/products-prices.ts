/** Products and Prices: their parameters and objects. A Price's amount, currency and interval never change. */
import type Stripe from 'stripe';
import type { FormHash, FormValue } from './form-body.js';
import { hashParam, integerParam, metadataParam, optionalString, rejectUnknown, requiredString } from './form-params.js';
import { invalidParam, missingParam } from './stripe-errors.js';
import { stripeId } from './stripe-ids.js';

export type ProductObject = Stripe.Product;
export type PriceObject = Stripe.Price;
export type Interval = 'day' | 'week' | 'month' | 'year';

const PRODUCT_CREATE = new Set([
  'active', 'default_price_data', 'description', 'expand', 'id', 'images', 'marketing_features', 'metadata', 'name',
  'package_dimensions', 'shippable', 'statement_descriptor', 'tax_code', 'tax_details', 'type', 'unit_label', 'url',
]);
const PRICE_CREATE = new Set([
  'active', 'billing_scheme', 'currency', 'currency_options', 'custom_unit_amount', 'expand', 'lookup_key', 'metadata',
  'nickname', 'product', 'product_data', 'recurring', 'tax_behavior', 'tiers', 'tiers_mode', 'transfer_lookup_key',
  'transform_quantity', 'unit_amount', 'unit_amount_decimal',
]);
/** `POST /v1/prices/:id` takes no amount, currency or interval: those are "unknown parameter", as at Stripe. */
const PRICE_UPDATE = new Set(['active', 'currency_options', 'expand', 'lookup_key', 'metadata', 'nickname', 'tax_behavior', 'transfer_lookup_key']);
const RECURRING = new Set(['interval', 'interval_count', 'meter', 'trial_period_days', 'usage_type']);
const INTERVALS: readonly Interval[] = ['day', 'week', 'month', 'year'];
/** Stripe's longest billing interval is three years. */
const MAX_COUNT: Record<Interval, number> = { day: 1095, week: 156, month: 36, year: 3 };
const MAX_AMOUNT = 99_999_999;

/** Stripe sends decimals as strings (`"1299"`); the SDK types them as its Decimal class, which it builds when parsing. */
export const wireDecimal = (n: number): Stripe.Decimal => String(n) as unknown as Stripe.Decimal;

function booleanParam(value: FormValue | undefined, param: string): boolean | undefined {
  const text = optionalString(value, param);
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') throw invalidParam(param, `Invalid boolean: ${text}`);
  return text === 'true';
}

export function newProduct(params: FormHash, created: number): ProductObject {
  rejectUnknown(params, PRODUCT_CREATE, '');
  return {
    id: optionalString(params.id, 'id') ?? stripeId('prod_', 14),
    object: 'product',
    active: booleanParam(params.active, 'active') ?? true,
    created,
    default_price: null,
    description: optionalString(params.description, 'description') ?? null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: metadataParam(params.metadata, 'metadata'),
    name: requiredString(params.name, 'name'),
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: created,
    url: null,
  };
}

function recurringParam(value: FormValue | undefined): Stripe.Price.Recurring | null {
  const recurring = hashParam(value, 'recurring');
  if (!recurring) return null;
  rejectUnknown(recurring, RECURRING, 'recurring');
  const interval = requiredString(recurring.interval, 'recurring[interval]') as Interval;
  if (!INTERVALS.includes(interval)) throw invalidParam('recurring[interval]', 'Invalid recurring[interval]: must be one of day, month, week, or year');
  const count = integerParam(recurring.interval_count, 'recurring[interval_count]', 1) ?? 1;
  if (count > MAX_COUNT[interval]) {
    throw invalidParam('recurring[interval_count]', 'The maximum interval allowed is 3 years (3 years, 36 months, or 156 weeks).');
  }
  return { interval, interval_count: count, meter: null, trial_period_days: null, usage_type: 'licensed' };
}

/** `POST /v1/prices`; `productExists` says whether `product` names a Product of the fake (else 404). */
export function newPrice(params: FormHash, created: number, productExists: (id: string) => boolean): PriceObject {
  rejectUnknown(params, PRICE_CREATE, '');
  const currency = requiredString(params.currency, 'currency').toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw invalidParam('currency', `Invalid currency: ${currency}.`);
  const product = optionalString(params.product, 'product');
  if (product === undefined) throw invalidParam('product', 'You must specify either `product` or `product_data` when creating a price.');
  if (!productExists(product)) throw invalidParam('product', `No such product: '${product}'`, 'resource_missing');
  const unitAmount = integerParam(params.unit_amount, 'unit_amount', 0, MAX_AMOUNT);
  if (unitAmount === undefined) throw missingParam('unit_amount');
  const recurring = recurringParam(params.recurring);
  return {
    id: stripeId('price_1', 23),
    object: 'price',
    active: booleanParam(params.active, 'active') ?? true,
    billing_scheme: 'per_unit',
    created,
    currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: optionalString(params.lookup_key, 'lookup_key') ?? null,
    metadata: metadataParam(params.metadata, 'metadata'),
    nickname: optionalString(params.nickname, 'nickname') ?? null,
    product,
    recurring,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: recurring ? 'recurring' : 'one_time',
    unit_amount: unitAmount,
    unit_amount_decimal: wireDecimal(unitAmount),
  };
}

/** `POST /v1/prices/:id`: active, metadata (merged; an empty value unsets a key), nickname, lookup_key. Returns what changed before. */
export function updatePrice(price: PriceObject, params: FormHash): Partial<PriceObject> {
  rejectUnknown(params, PRICE_UPDATE, '');
  const previous: Partial<PriceObject> = {};
  const active = booleanParam(params.active, 'active');
  if (active !== undefined && active !== price.active) {
    previous.active = price.active;
    price.active = active;
  }
  if (params.metadata !== undefined) {
    previous.metadata = { ...price.metadata };
    price.metadata = mergeMetadata(price.metadata, params.metadata, 'metadata');
  }
  const nickname = optionalString(params.nickname, 'nickname');
  if (nickname !== undefined) {
    previous.nickname = price.nickname;
    price.nickname = nickname;
  }
  return previous;
}

/** Stripe's metadata update: keys are merged, an empty value removes its key, an empty string removes all. */
export function mergeMetadata(current: Record<string, string>, value: FormValue, param: string): Record<string, string> {
  if (value === '') return {};
  const hash = hashParam(value, param)!;
  const next = { ...current };
  for (const [key, entry] of Object.entries(hash)) if (entry === '') delete next[key];
  return { ...next, ...metadataParam(value, param) };
}
