import type { FormHash, FormValue } from './form-body.js';
import { hashParam, integerParam, listParam, metadataParam, optionalString, rejectUnknown, requiredString, unsupported, urlParam } from './form-params.js';
import { checkApplicable, type CouponObject } from './coupons.js';
import { sessionPaymentMethods } from './payment-methods.js';
import { invalidParam, missingParam, noSuch } from './stripe-errors.js';
import { parseSubscriptionSession, type SessionCatalog, type SubscriptionSessionInput } from './subscription-session-params.js';

/** One line item, as the fake keeps it (inline `price_data` in payment mode; a recurring Price in subscription mode). */
export interface LineItemInput {
  name: string;
  description: string | null;
  currency: string;
  unitAmount: number;
  quantity: number;
}

/** `POST /v1/checkout/sessions` parameters after Stripe-like validation. */
export interface SessionCreateInput {
  mode: 'payment' | 'subscription';
  /** The existing Customer who pays (subscription mode), or null. */
  customer: string | null;
  /** What paying a subscription-mode session subscribes the customer to; null in payment mode. */
  subscription: SubscriptionSessionInput | null;
  lineItems: LineItemInput[];
  currency: string;
  customerEmail: string | null;
  clientReferenceId: string | null;
  successUrl: string;
  cancelUrl: string | null;
  metadata: Record<string, string>;
  expiresAt: number | null;
  /** What the session offers (see `sessionPaymentMethods`). */
  paymentMethodTypes: string[];
  /** `allowed_payment_method_types` as the request listed them, or null. */
  allowedPaymentMethodTypes: string[] | null;
  /** What `payment_intent_data` gives the PaymentIntent made when the customer pays. */
  paymentIntentData: PaymentIntentDataInput;
  /** The language of the hosted page (`locale`), or null (Stripe's `auto`). */
  locale: string | null;
  /** `custom_text[submit][message]`: the text above the pay button, or null. */
  submitMessage?: string | null;
  /** The coupon of `discounts` (one), or null: it comes off the session's total (and a subscription's invoices). */
  coupon?: CouponObject | null;
}

/** The languages Stripe Checkout has (`locale`; SDK 23.1.0). */
export const CHECKOUT_LOCALES: ReadonlySet<string> = new Set([
  'auto',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'en-GB',
  'es',
  'es-419',
  'et',
  'fi',
  'fil',
  'fr',
  'fr-CA',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'ms',
  'mt',
  'nb',
  'nl',
  'pl',
  'pt',
  'pt-BR',
  'ro',
  'ru',
  'sk',
  'sl',
  'sv',
  'th',
  'tr',
  'vi',
  'zh',
  'zh-HK',
  'zh-TW',
]);

/** The parts of `payment_intent_data` the fake models. */
export interface PaymentIntentDataInput {
  metadata: Record<string, string>;
  description: string | null;
}

/** Every top-level parameter Stripe's SessionCreateParams knows (SDK 23.1.0); others are "unknown parameter". */
const KNOWN_PARAMS = new Set([
  'adaptive_pricing',
  'after_expiration',
  'allow_promotion_codes',
  'allowed_payment_method_types',
  'automatic_tax',
  'billing_address_collection',
  'branding_settings',
  'cancel_url',
  'client_reference_id',
  'consent_collection',
  'currency',
  'custom_fields',
  'custom_text',
  'customer',
  'customer_account',
  'customer_creation',
  'customer_email',
  'customer_update',
  'discounts',
  'excluded_payment_method_types',
  'expand',
  'expires_at',
  'integration_identifier',
  'invoice_creation',
  'line_items',
  'locale',
  'managed_payments',
  'metadata',
  'mode',
  'name_collection',
  'optional_items',
  'origin_context',
  'payment_intent_data',
  'payment_method_collection',
  'payment_method_configuration',
  'payment_method_data',
  'payment_method_options',
  'payment_method_types',
  'permissions',
  'phone_number_collection',
  'redirect_on_completion',
  'return_url',
  'saved_payment_method_options',
  'setup_intent_data',
  'shipping_address_collection',
  'shipping_options',
  'submit_type',
  'subscription_data',
  'success_url',
  'tax_id_collection',
  'ui_mode',
  'wallet_options',
]);
const LINE_ITEM_PARAMS = new Set(['adjustable_quantity', 'dynamic_tax_rates', 'metadata', 'price', 'price_data', 'quantity', 'tax_rates']);
const PRICE_DATA_PARAMS = new Set(['currency', 'product', 'product_data', 'recurring', 'tax_behavior', 'unit_amount', 'unit_amount_decimal']);
const PRODUCT_DATA_PARAMS = new Set(['description', 'images', 'metadata', 'name', 'tax_code', 'tax_details', 'unit_label']);
const PAYMENT_INTENT_DATA_PARAMS = new Set([
  'application_fee_amount',
  'capture_method',
  'description',
  'metadata',
  'on_behalf_of',
  'receipt_email',
  'setup_future_usage',
  'shipping',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'transfer_data',
  'transfer_group',
]);

/** Largest amount Stripe accepts for a USD-like currency (eight digits of cents). */
const MAX_AMOUNT = 99_999_999;
const MIN_EXPIRY_SECONDS = 30 * 60;
const MAX_EXPIRY_SECONDS = 24 * 60 * 60;
/** Slack for a client that computed `expires_at` from its own clock a moment before the request arrived. */
const EXPIRY_SLACK_SECONDS = 60;

function lineItemParam(value: FormValue, index: number): LineItemInput {
  const param = `line_items[${index}]`;
  const item = hashParam(value, param)!;
  rejectUnknown(item, LINE_ITEM_PARAMS, param);
  const price = optionalString(item.price, `${param}[price]`);
  if (price !== undefined && item.price_data !== undefined) {
    throw invalidParam(param, 'You may only specify one of these parameters: price, price_data.');
  }
  // The fake keeps no Price objects, so any price id is unknown.
  if (price !== undefined) throw noSuch('price', price, `${param}[price]`);
  const priceData = hashParam(item.price_data, `${param}[price_data]`);
  if (!priceData) throw invalidParam(param, 'You must specify either `price` or `price_data` for each line item.');
  if (item.adjustable_quantity !== undefined) throw unsupported(`${param}[adjustable_quantity]`, 'adjustable quantities');

  const pd = `${param}[price_data]`;
  rejectUnknown(priceData, PRICE_DATA_PARAMS, pd);
  const currency = requiredString(priceData.currency, `${pd}[currency]`).toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw invalidParam(`${pd}[currency]`, `Invalid currency: ${currency}.`);
  if (priceData.recurring !== undefined) {
    throw invalidParam(
      `${pd}[recurring]`,
      'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
    );
  }
  if (priceData.unit_amount_decimal !== undefined) throw unsupported(`${pd}[unit_amount_decimal]`, 'unit_amount_decimal');
  const unitAmount = integerParam(priceData.unit_amount, `${pd}[unit_amount]`, 0, MAX_AMOUNT);
  if (unitAmount === undefined) throw missingParam(`${pd}[unit_amount]`);
  const product = optionalString(priceData.product, `${pd}[product]`);
  if (product !== undefined) throw noSuch('product', product, `${pd}[product]`);
  const productData = hashParam(priceData.product_data, `${pd}[product_data]`);
  if (!productData) throw invalidParam(pd, 'You must specify either `product` or `product_data` when creating a price.');
  rejectUnknown(productData, PRODUCT_DATA_PARAMS, `${pd}[product_data]`);
  const name = requiredString(productData.name, `${pd}[product_data][name]`);
  const description = optionalString(productData.description, `${pd}[product_data][description]`) ?? null;

  const quantity = integerParam(item.quantity, `${param}[quantity]`, 1, 999_999);
  if (quantity === undefined) throw missingParam(`${param}[quantity]`);
  return { name, description, currency, unitAmount, quantity };
}

/**
 * Validates `POST /v1/checkout/sessions` like Stripe does for the basics (first problem wins, with its `param`).
 * Parameters Stripe knows but the fake does not model are accepted and ignored, except a few that would change
 * what the session is (setup mode, embedded UI, Price/Product/Customer ids in payment mode, expand), which answer a clear 400.
 * `mode=subscription` is taken when `catalog` is given (see parseSubscriptionSession).
 */
export function parseSessionCreate(params: FormHash, now: number, apiVersion: string, catalog?: SessionCatalog): SessionCreateInput {
  rejectUnknown(params, KNOWN_PARAMS, '');
  const mode = requiredString(params.mode, 'mode');
  if (!['payment', 'setup', 'subscription'].includes(mode)) {
    throw invalidParam('mode', `Invalid mode: must be one of payment, setup, or subscription`);
  }
  if (mode !== 'payment' && !(mode === 'subscription' && catalog)) {
    throw unsupported('mode', `mode=${mode} (only mode=payment and mode=subscription)`);
  }
  const uiMode = optionalString(params.ui_mode, 'ui_mode');
  if (uiMode !== undefined && uiMode !== 'hosted' && uiMode !== 'hosted_page') throw unsupported('ui_mode', `ui_mode=${uiMode}`);
  if (params.expand !== undefined) throw unsupported('expand', 'expand');
  const subscriptionMode = mode === 'subscription' && catalog ? parseSubscriptionSession(params, catalog) : null;
  const customer = optionalString(params.customer, 'customer');
  if (customer !== undefined && !subscriptionMode) throw noSuch('customer', customer, 'customer');

  const items = listParam(params.line_items, 'line_items');
  if (!items || items.length === 0) throw missingParam('line_items');
  const lineItems = subscriptionMode?.lineItems ?? items.map((item, i) => lineItemParam(item, i));
  const currency = lineItems[0]!.currency;
  if (lineItems.some((item) => item.currency !== currency)) {
    throw invalidParam('line_items', 'All line items must have the same currency.');
  }
  const total = lineItems.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
  if (total > MAX_AMOUNT) throw invalidParam('line_items', `The total amount must be no more than ${MAX_AMOUNT}.`);

  const successUrl = urlParam(params.success_url, 'success_url');
  if (successUrl === undefined) throw missingParam('success_url');
  const cancelUrl = urlParam(params.cancel_url, 'cancel_url') ?? null;

  const customerEmail = optionalString(params.customer_email, 'customer_email') ?? null;
  if (customerEmail !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(customerEmail)) {
    throw invalidParam('customer_email', `Invalid email address: ${customerEmail}`, 'email_invalid');
  }
  const clientReferenceId = optionalString(params.client_reference_id, 'client_reference_id') ?? null;
  if (clientReferenceId !== null && clientReferenceId.length > 200) {
    throw invalidParam('client_reference_id', 'client_reference_id must be at most 200 characters.');
  }

  const expiresAt = integerParam(params.expires_at, 'expires_at', 0) ?? null;
  if (expiresAt !== null) {
    if (expiresAt > now + MAX_EXPIRY_SECONDS + EXPIRY_SLACK_SECONDS) {
      throw invalidParam('expires_at', 'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.');
    }
    if (expiresAt < now + MIN_EXPIRY_SECONDS - EXPIRY_SLACK_SECONDS) {
      throw invalidParam('expires_at', 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.');
    }
  }

  const coupon = catalog ? discountsParam(params, catalog, currency, now) : null;

  const locale = optionalString(params.locale, 'locale') ?? null;
  if (locale !== null && !CHECKOUT_LOCALES.has(locale)) throw invalidParam('locale', `Invalid locale: ${locale}`);

  return {
    locale,
    coupon,
    submitMessage: submitMessageParam(params.custom_text),
    mode: subscriptionMode ? 'subscription' : 'payment',
    customer: customer ?? null,
    subscription: subscriptionMode ? { ...subscriptionMode.subscription, coupon: coupon?.id ?? null } : null,
    lineItems,
    currency,
    customerEmail,
    clientReferenceId,
    successUrl,
    cancelUrl,
    metadata: metadataParam(params.metadata, 'metadata'),
    expiresAt,
    ...sessionPaymentMethods(params, currency, apiVersion),
    paymentIntentData: subscriptionMode ? { metadata: {}, description: null } : paymentIntentDataParam(params.payment_intent_data),
  };
}

/** `discounts`: one coupon, which must exist and apply to the session's currency now (promotion codes are not modelled). */
function discountsParam(params: FormHash, catalog: SessionCatalog, currency: string, now: number): CouponObject | null {
  const list = listParam(params.discounts, 'discounts');
  if (!list || list.length === 0) return null;
  if (params.allow_promotion_codes !== undefined) {
    throw invalidParam('discounts', 'You may only specify one of these parameters: allow_promotion_codes, discounts.');
  }
  if (list.length > 1) throw unsupported('discounts', 'more than one discount on a session');
  const entry = hashParam(list[0], 'discounts[0]')!;
  rejectUnknown(entry, new Set(['coupon', 'promotion_code']), 'discounts[0]');
  if (entry.promotion_code !== undefined) throw unsupported('discounts[0][promotion_code]', 'promotion codes');
  const id = requiredString(entry.coupon, 'discounts[0][coupon]');
  const coupon = catalog.coupon(id);
  if (!coupon) throw noSuch('coupon', id, 'discounts[0][coupon]');
  checkApplicable(coupon, currency, now, 'discounts[0][coupon]');
  return coupon;
}

/** `custom_text`: the submit message is kept (Stripe allows 1200 characters); the other texts are accepted and ignored. */
function submitMessageParam(value: FormValue | undefined): string | null {
  const customText = hashParam(value, 'custom_text');
  const submit = customText && hashParam(customText.submit, 'custom_text[submit]');
  if (!submit) return null;
  const message = optionalString(submit.message, 'custom_text[submit][message]');
  if (message === undefined) throw missingParam('custom_text[submit][message]');
  if (message.length > 1200) throw invalidParam('custom_text[submit][message]', 'The message must be at most 1200 characters.');
  return message;
}

/** `payment_intent_data`: metadata and description are kept; a manual capture is not modelled; the rest is accepted and ignored. */
function paymentIntentDataParam(value: FormValue | undefined): PaymentIntentDataInput {
  const param = 'payment_intent_data';
  const data = hashParam(value, param);
  if (!data) return { metadata: {}, description: null };
  rejectUnknown(data, PAYMENT_INTENT_DATA_PARAMS, param);
  const capture = optionalString(data.capture_method, `${param}[capture_method]`);
  if (capture !== undefined && capture !== 'automatic' && capture !== 'automatic_async') {
    throw unsupported(`${param}[capture_method]`, `capture_method=${capture}`);
  }
  return {
    metadata: metadataParam(data.metadata, `${param}[metadata]`),
    description: optionalString(data.description, `${param}[description]`) ?? null,
  };
}
