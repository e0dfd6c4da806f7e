/** `POST /v3/payments`: the body checked as YooKassa checks it, in the order the fake reports problems. */
import { parseAmount, type Money } from './amounts.js';
import { invalidParameter, invalidRequest, YookassaApiError } from './http.js';
import { checkReceiptFor } from './receipts.js';
import { optionalBoolean, optionalObject, optionalString, parseMetadata } from './request-fields.js';

/** The methods the fake shop offers (its `GET /v3/me` `payment_methods`), which a customer can pay with on its page. */
export const SHOP_METHODS = ['bank_card', 'yoo_money', 'sbp'] as const;
export type ShopMethod = (typeof SHOP_METHODS)[number];

/** Every payment method type the API knows; one the shop does not offer is "not available" rather than illegal. */
const KNOWN_METHODS = [
  'bank_card',
  'cash',
  'alfabank',
  'webmoney',
  'wechat',
  'apple_pay',
  'google_pay',
  'qiwi',
  'installments',
  'yoo_money',
  'sberbank',
  'mobile_balance',
  'b2b_sberbank',
  'tinkoff_bank',
  'sbp',
  'sber_loan',
  'electronic_certificate',
  'sber_bnpl',
  'alfa_pay',
];
const CONFIRMATION_TYPES = ['redirect', 'external', 'embedded', 'qr', 'mobile_application'];
const DESCRIPTION_MAX_LENGTH = 128;
const MERCHANT_CUSTOMER_ID_MAX_LENGTH = 200;
const RETURN_URL_MAX_LENGTH = 2048;

export interface RedirectConfirmation {
  returnUrl: string;
  enforce?: boolean;
  locale?: string;
}

export interface CreatePaymentRequest {
  amount: Money;
  /** false (the API's default): the payment stops at waiting_for_capture. */
  capture: boolean;
  description?: string;
  metadata: Record<string, string>;
  savePaymentMethod: boolean;
  /** A charge of a saved method: no confirmation, an answer at once. */
  paymentMethodId?: string;
  /** `payment_method_data.type`: the only method the confirmation page then offers. */
  presetMethod?: ShopMethod;
  /** Absent for a saved-method charge. */
  confirmation?: RedirectConfirmation;
  /** A receipt came with the payment (checked already). */
  hasReceipt: boolean;
  merchantCustomerId?: string;
}

export interface ShopSettings {
  currencies: readonly string[];
  fiscalization: boolean;
}

/** `payment_method_data`: a type the shop offers; raw card data is forbidden to shops without PCI DSS, as to this one. */
function parseMethodData(value: unknown): ShopMethod {
  const data = optionalObject(value, 'payment_method_data')!;
  if (data.card !== undefined) throw new YookassaApiError(403, 'forbidden', 'Forbidden to send raw bank card data', 'payment_method_data.card');
  if (typeof data.type !== 'string' || !KNOWN_METHODS.includes(data.type)) throw invalidRequest('Illegal payment method type', 'payment_method_data.type');
  if (!(SHOP_METHODS as readonly string[]).includes(data.type)) throw invalidRequest('Payment method is not available', 'payment_method_data.type');
  return data.type as ShopMethod;
}

/** `confirmation`: only `redirect` is faked (the other types exist, but this fake has no widget or QR page). */
function parseConfirmation(value: unknown, presetMethod: ShopMethod | undefined): RedirectConfirmation {
  const confirmation = optionalObject(value, 'confirmation');
  if (!confirmation) {
    throw invalidRequest(presetMethod ? `Missing confirmation type for payment method type: ${presetMethod}` : 'Confirmation is missing', 'confirmation');
  }
  if (confirmation.type !== 'redirect') {
    const known = CONFIRMATION_TYPES.includes(confirmation.type as string);
    throw invalidRequest(known ? 'Illegal confirmation type (the fake YooKassa only does redirect)' : 'Illegal confirmation type', 'confirmation.type');
  }
  const returnUrl = confirmation.return_url;
  if (returnUrl === undefined || returnUrl === null || returnUrl === '') throw invalidRequest('Return url is missing', 'confirmation.return_url');
  if (typeof returnUrl !== 'string' || returnUrl.length > RETURN_URL_MAX_LENGTH || !/^https?:\/\/[^\s]+$/i.test(returnUrl) || !URL.canParse(returnUrl)) {
    throw invalidParameter('confirmation.return_url');
  }
  const enforce = optionalBoolean(confirmation.enforce, 'confirmation.enforce');
  const locale = confirmation.locale;
  if (locale !== undefined && locale !== 'ru_RU' && locale !== 'en_US') throw invalidParameter('confirmation.locale');
  return { returnUrl, ...(enforce === undefined ? {} : { enforce }), ...(locale === undefined ? {} : { locale }) };
}

export function parseCreatePayment(body: Record<string, unknown>, shop: ShopSettings): CreatePaymentRequest {
  const amount = parseAmount(body.amount);
  // A shop resident in Russia takes roubles only; another currency fails as in YooKassa's own FAQ.
  if (!shop.currencies.includes(amount.currency)) throw invalidRequest('Payment method is not available');
  const description = optionalString(body.description, 'description', DESCRIPTION_MAX_LENGTH);
  const metadata = parseMetadata(body.metadata) ?? {};
  const capture = optionalBoolean(body.capture, 'capture') ?? false;
  const savePaymentMethod = optionalBoolean(body.save_payment_method, 'save_payment_method') ?? false;

  const given = (['payment_method_data', 'payment_method_id', 'payment_token'] as const).filter((name) => body[name] !== undefined && body[name] !== null);
  if (given.length > 1) throw invalidRequest('Request should contain only one of: payment_method_data, payment_method_id, payment_token');
  if (given[0] === 'payment_token') throw invalidRequest('Unsupported payment token type (the fake YooKassa takes no tokens)', 'payment_token');
  let paymentMethodId: string | undefined;
  if (given[0] === 'payment_method_id') {
    if (typeof body.payment_method_id !== 'string' || body.payment_method_id === '') throw invalidParameter('payment_method_id');
    paymentMethodId = body.payment_method_id;
  }
  const presetMethod = given[0] === 'payment_method_data' ? parseMethodData(body.payment_method_data) : undefined;
  // A saved-method charge needs no confirmation; the fake ignores one sent anyway.
  const confirmation = paymentMethodId === undefined ? parseConfirmation(body.confirmation, presetMethod) : undefined;
  const merchantCustomerId = optionalString(body.merchant_customer_id, 'merchant_customer_id', MERCHANT_CUSTOMER_ID_MAX_LENGTH);
  const hasReceipt = checkReceiptFor(body.receipt, amount, shop.fiscalization);
  return {
    amount,
    capture,
    metadata,
    savePaymentMethod,
    hasReceipt,
    ...(description === undefined ? {} : { description }),
    ...(paymentMethodId === undefined ? {} : { paymentMethodId }),
    ...(presetMethod === undefined ? {} : { presetMethod }),
    ...(confirmation === undefined ? {} : { confirmation }),
    ...(merchantCustomerId === undefined ? {} : { merchantCustomerId }),
  };
}
