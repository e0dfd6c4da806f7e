/** Reads `POST /api/v1/stores/{storeId}/invoices` as BTCPay validates it (CreateInvoiceRequest). */
import { fiatDigits, parseMinor } from './amounts.js';
import type { CheckoutOptionsObject, StoreObject } from './greenfield-objects.js';
import { validationError } from './http.js';

export interface InvoiceRequest {
  currency: string;
  digits: number;
  /** Minor units of `currency`. */
  price: number;
  metadata: Record<string, unknown>;
  checkout: CheckoutOptionsObject;
}

const MAX_AMOUNT_MINOR = 21_000_000 * 100_000_000;

function optionalBoolean(value: unknown, path: string): boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'boolean') throw validationError({ path, message: 'Expected a boolean' });
  return value;
}

function optionalString(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw validationError({ path, message: 'Expected a string' });
  return value;
}

/** `checkout.expirationMinutes` / `monitoringMinutes`: minutes as a JSON number (BTCPay's TimeSpanJsonConverter.Minutes). */
function optionalMinutes(value: unknown, path: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw validationError({ path, message: 'Expected a number of minutes' });
  return value;
}

function checkoutOptions(raw: unknown, store: StoreObject): CheckoutOptionsObject {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw)))
    throw validationError({ path: 'checkout', message: 'Expected an object' });
  const given = (raw ?? {}) as Record<string, unknown>;
  const expirationMinutes = optionalMinutes(given.expirationMinutes, 'checkout.expirationMinutes');
  if (expirationMinutes !== null && expirationMinutes * 60 < 30) {
    throw validationError({ path: 'checkout.expirationMinutes', message: 'Expiration time must be at least 30 seconds' });
  }
  const paymentTolerance = given.paymentTolerance ?? null;
  if (paymentTolerance !== null && (typeof paymentTolerance !== 'number' || paymentTolerance < 0 || paymentTolerance > 100)) {
    throw validationError({ path: 'checkout.paymentTolerance', message: 'PaymentTolerance can only be between 0 and 100 percent' });
  }
  const methods = given.paymentMethods ?? null;
  if (methods !== null && (!Array.isArray(methods) || methods.some((m) => m !== 'BTC-CHAIN' && m !== 'BTC'))) {
    throw validationError({ path: 'checkout.paymentMethods', message: 'Invalid PaymentMethodId (the fake BTCPay Server has only BTC-CHAIN)' });
  }
  return {
    speedPolicy: store.speedPolicy,
    paymentMethods: ['BTC-CHAIN'],
    defaultPaymentMethod: optionalString(given.defaultPaymentMethod, 'checkout.defaultPaymentMethod'),
    lazyPaymentMethods: optionalBoolean(given.lazyPaymentMethods, 'checkout.lazyPaymentMethods') ?? store.lazyPaymentMethods,
    expirationMinutes: expirationMinutes ?? store.invoiceExpiration / 60,
    monitoringMinutes: optionalMinutes(given.monitoringMinutes, 'checkout.monitoringMinutes') ?? store.monitoringExpiration / 60,
    paymentTolerance: paymentTolerance ?? store.paymentTolerance,
    redirectURL: optionalString(given.redirectURL, 'checkout.redirectURL'),
    redirectAutomatically: optionalBoolean(given.redirectAutomatically, 'checkout.redirectAutomatically') ?? store.redirectAutomatically,
    defaultLanguage: optionalString(given.defaultLanguage, 'checkout.defaultLanguage'),
  };
}

/** The request as an invoice to create; a 422 (BTCPay's validation answer) when a field is wrong. */
export function parseInvoiceRequest(body: Record<string, unknown>, store: StoreObject): InvoiceRequest {
  const currency = (optionalString(body.currency, 'currency') || store.defaultCurrency).toUpperCase();
  const digits = fiatDigits(currency);
  if (digits === null) throw validationError({ path: 'currency', message: `The fake BTCPay Server prices invoices in fiat currencies only, not ${currency}` });
  if (body.amount === undefined || body.amount === null) {
    throw validationError({ path: 'amount', message: 'The fake BTCPay Server does not make top-up invoices: give an amount' });
  }
  const price = parseMinor(body.amount, digits);
  if (price === null) throw validationError({ path: 'amount', message: 'The amount should be 0 or more.' });
  if (price > MAX_AMOUNT_MINOR) throw validationError({ path: 'amount', message: 'The amount should less than 21000000.' });
  const metadata = body.metadata ?? {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw validationError({ path: 'metadata', message: 'Expected an object' });
  return { currency, digits, price, metadata: structuredClone(metadata as Record<string, unknown>), checkout: checkoutOptions(body.checkout, store) };
}
