/** Products and Prices: their parameters and objects. A Price's amount, currency and interval never change. */
import type Stripe from 'stripe';
import type { FormHash, FormValue } from './form-body.js';
import {
  booleanParam,
  expandParam,
  hashParam,
  integerParam,
  metadataParam,
  optionalString,
  rejectUnknown,
  requiredString,
  unsupported,
} from './form-params.js';
import { invalidParam, missingParam } from './stripe-errors.js';
import { stripeId } from './stripe-ids.js';

export type ProductObject = Stripe.Product;
export type PriceObject = Stripe.Price;
export type Interval = 'day' | 'week' | 'month' | 'year';

const PRODUCT_CREATE = new Set([
  'active',
  'default_price_data',
  'description',
  'expand',
  'id',
  'images',
  'marketing_features',
  'metadata',
  'name',
  'package_dimensions',
  'shippable',
  'statement_descriptor',
  'tax_code',
  'tax_details',
  'type',
  'unit_label',
  'url',
]);
const PRODUCT_CREATE_MODELLED = new Set(['active', 'description', 'expand', 'id', 'metadata', 'name', 'type']);
/** Every parameter ProductUpdateParams knows (SDK 23.1.0); the fake acts on the ones in PRODUCT_UPDATE_MODELLED. */
const PRODUCT_UPDATE = new Set([
  'active',
  'default_price',
  'description',
  'expand',
  'images',
  'marketing_features',
  'metadata',
  'name',
  'package_dimensions',
  'shippable',
  'statement_descriptor',
  'tax_code',
  'tax_details',
  'unit_label',
  'url',
]);
const PRODUCT_UPDATE_MODELLED = new Set(['active', 'default_price', 'description', 'expand', 'metadata', 'name']);
const PRICE_CREATE = new Set([
  'active',
  'billing_scheme',
  'currency',
  'currency_options',
  'custom_unit_amount',
  'expand',
  'lookup_key',
  'metadata',
  'nickname',
  'product',
  'product_data',
  'recurring',
  'tax_behavior',
  'tiers',
  'tiers_mode',
  'transfer_lookup_key',
  'transform_quantity',
  'unit_amount',
  'unit_amount_decimal',
]);
/** What the fake does not model on `POST /v1/prices` (every price is per unit, one currency, untaxed, tier-free). */
const PRICE_CREATE_UNMODELLED = [
  'billing_scheme',
  'currency_options',
  'custom_unit_amount',
  'product_data',
  'tax_behavior',
  'tiers',
  'tiers_mode',
  'transform_quantity',
  'unit_amount_decimal',
];
/** `POST /v1/prices/:id` takes no amount, currency or interval: those are "unknown parameter", as at Stripe. */
const PRICE_UPDATE = new Set(['active', 'currency_options', 'expand', 'lookup_key', 'metadata', 'nickname', 'tax_behavior', 'transfer_lookup_key']);
const RECURRING = new Set(['interval', 'interval_count', 'meter', 'trial_period_days', 'usage_type']);
const INTERVALS: readonly Interval[] = ['day', 'week', 'month', 'year'];
/** Stripe's longest billing interval is three years. */
const MAX_COUNT: Record<Interval, number> = { day: 1095, week: 156, month: 36, year: 3 };
const MAX_AMOUNT = 99_999_999;

/** Stripe sends decimals as strings (`"1299"`); the SDK types them as its Decimal class, which it builds when parsing. */
export const wireDecimal = (n: number): Stripe.Decimal => String(n) as unknown as Stripe.Decimal;

/** `POST /v1/products`: id, name, description, active, metadata (a service; the rest of Stripe's parameters are not modelled). */
export function newProduct(params: FormHash, created: number): ProductObject {
  rejectUnknown(params, PRODUCT_CREATE, '');
  const other = Object.keys(params).find((key) => !PRODUCT_CREATE_MODELLED.has(key));
  if (other !== undefined) throw unsupported(other, `${other} on products`);
  const type = optionalString(params.type, 'type');
  if (type !== undefined && type !== 'good' && type !== 'service') throw invalidParam('type', 'Invalid type: must be one of good or service');
  if (type === 'good') throw unsupported('type', 'products of type good');
  expandParam(params.expand, []);
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

/** A price's new lookup key (null: none), and whether to take it from the price that has it (`transfer_lookup_key`). */
export interface LookupKeyClaim {
  lookupKey: string | null;
  transfer: boolean;
}

/**
 * `POST /v1/prices`: the new price and the lookup key it claims (see BillingCatalog: a lookup key names one price).
 * `productExists` says whether `product` names a Product of the fake (else 400 resource_missing).
 */
export function newPrice(params: FormHash, created: number, productExists: (id: string) => boolean): { price: PriceObject; claim: LookupKeyClaim } {
  rejectUnknown(params, PRICE_CREATE, '');
  for (const param of PRICE_CREATE_UNMODELLED) if (params[param] !== undefined) throw unsupported(param, `${param} on prices`);
  expandParam(params.expand, []);
  const currency = requiredString(params.currency, 'currency').toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw invalidParam('currency', `Invalid currency: ${currency}.`);
  const product = optionalString(params.product, 'product');
  if (product === undefined) throw invalidParam('product', 'You must specify either `product` or `product_data` when creating a price.');
  if (!productExists(product)) throw invalidParam('product', `No such product: '${product}'`, 'resource_missing');
  const unitAmount = integerParam(params.unit_amount, 'unit_amount', 0, MAX_AMOUNT);
  if (unitAmount === undefined) throw missingParam('unit_amount');
  const recurring = recurringParam(params.recurring);
  const claim = {
    lookupKey: optionalString(params.lookup_key, 'lookup_key') ?? null,
    transfer: booleanParam(params.transfer_lookup_key, 'transfer_lookup_key') ?? false,
  };
  const price: PriceObject = {
    id: stripeId('price_1', 23),
    object: 'price',
    active: booleanParam(params.active, 'active') ?? true,
    billing_scheme: 'per_unit',
    created,
    currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
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
  return { price, claim };
}

/** What `POST /v1/prices/:id` changes (metadata is the merged result); `claim` is absent when lookup_key is. */
export interface PriceChange {
  active?: boolean;
  metadata?: Record<string, string>;
  nickname?: string;
  claim?: LookupKeyClaim;
}

/** `POST /v1/prices/:id`: active, metadata (merged; an empty value unsets a key), nickname, lookup_key ('' removes it). */
export function parsePriceUpdate(params: FormHash, price: PriceObject): PriceChange {
  rejectUnknown(params, PRICE_UPDATE, '');
  for (const param of ['currency_options', 'tax_behavior']) if (params[param] !== undefined) throw unsupported(param, `updating a price's ${param}`);
  expandParam(params.expand, []);
  const transfer = booleanParam(params.transfer_lookup_key, 'transfer_lookup_key') ?? false;
  const lookupKey = params.lookup_key === '' ? null : optionalString(params.lookup_key, 'lookup_key');
  return {
    active: booleanParam(params.active, 'active'),
    metadata: params.metadata === undefined ? undefined : mergeMetadata(price.metadata, params.metadata, 'metadata'),
    nickname: optionalString(params.nickname, 'nickname'),
    claim: lookupKey === undefined ? undefined : { lookupKey, transfer },
  };
}

/** Applies a validated change (the lookup key is the catalog's to move). */
export function applyPriceUpdate(price: PriceObject, change: PriceChange): void {
  if (change.active !== undefined) price.active = change.active;
  if (change.metadata !== undefined) price.metadata = change.metadata;
  if (change.nickname !== undefined) price.nickname = change.nickname;
}

/** What `POST /v1/products/:id` changes (metadata is the merged result, a null description removes it). */
export interface ProductChange {
  active?: boolean;
  defaultPrice?: string;
  description?: string | null;
  metadata?: Record<string, string>;
  name?: string;
}

/** `POST /v1/products/:id`: name, description, active, metadata, default_price; the rest of Stripe's parameters are not modelled. */
export function parseProductUpdate(params: FormHash, product: ProductObject): ProductChange {
  rejectUnknown(params, PRODUCT_UPDATE, '');
  const other = Object.keys(params).find((key) => !PRODUCT_UPDATE_MODELLED.has(key));
  if (other !== undefined) throw unsupported(other, `updating a product's ${other}`);
  expandParam(params.expand, []);
  return {
    active: booleanParam(params.active, 'active'),
    defaultPrice: optionalString(params.default_price, 'default_price'),
    description: params.description === '' ? null : optionalString(params.description, 'description'),
    metadata: params.metadata === undefined ? undefined : mergeMetadata(product.metadata, params.metadata, 'metadata'),
    name: optionalString(params.name, 'name'),
  };
}

/** Applies a validated change; `updated` is the time of the change. */
export function applyProductUpdate(product: ProductObject, change: ProductChange, updated: number): void {
  if (change.active !== undefined) product.active = change.active;
  if (change.defaultPrice !== undefined) product.default_price = change.defaultPrice;
  if (change.description !== undefined) product.description = change.description;
  if (change.metadata !== undefined) product.metadata = change.metadata;
  if (change.name !== undefined) product.name = change.name;
  product.updated = updated;
}

/** Stripe's metadata update: keys are merged, an empty value removes its key, an empty string removes all. */
export function mergeMetadata(current: Record<string, string>, value: FormValue, param: string): Record<string, string> {
  if (value === '') return {};
  const hash = hashParam(value, param)!;
  const next = { ...current };
  for (const [key, entry] of Object.entries(hash)) if (entry === '') delete next[key];
  return { ...next, ...metadataParam(value, param) };
}
