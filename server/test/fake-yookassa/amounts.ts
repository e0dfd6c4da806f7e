/**
 * Money as YooKassa writes it — `{ value: "199.00", currency: "RUB" }` — and as the fake counts it: integer
 * kopecks (or cents). Every currency the API lists has two decimals.
 */
import { invalidRequest } from './http.js';
import type { YookassaAmount } from './yookassa-objects.js';

/** The currency codes of the API's MonetaryAmount schema; anything else is "Currency code is illegal". */
export const CURRENCY_CODES = ['RUB', 'EUR', 'USD', 'KZT', 'BYN', 'UAH', 'UZS', 'TRY', 'INR', 'MDL', 'AZN', 'AMD', 'CNY'] as const;

export interface Money {
  minor: number;
  currency: string;
}

const DECIMAL = /^\d{1,12}(?:\.\d{1,2})?$/;

/** `19900, 'RUB'` → `{ value: "199.00", currency: "RUB" }`. */
export function amountOf(minor: number, currency: string): YookassaAmount {
  const text = String(minor).padStart(3, '0');
  return { value: `${text.slice(0, -2)}.${text.slice(-2)}`, currency };
}

/**
 * An `amount` parameter (`parameter` names it in errors): a positive decimal with at most two places, given
 * as a string (what the SDKs send) or a JSON number, and a known currency code.
 */
export function parseAmount(raw: unknown, parameter = 'amount'): Money {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest('Payment amount is illegal', parameter);
  const { value, currency } = raw as Record<string, unknown>;
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !DECIMAL.test(text)) throw invalidRequest('Payment amount is illegal', `${parameter}.value`);
  const [whole, fraction = ''] = text.split('.');
  const minor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (minor <= 0) throw invalidRequest('Payment amount is illegal', `${parameter}.value`);
  if (typeof currency !== 'string' || !(CURRENCY_CODES as readonly string[]).includes(currency)) {
    throw invalidRequest('Currency code is illegal', `${parameter}.currency`);
  }
  return { minor, currency };
}
