/**
 * The fake's money: the invoice price in integer minor units of its currency, crypto in satoshis, and the
 * decimal strings Greenfield writes both as ("9.99", "0.00016650").
 */

/** The fake's fixed BTC rate in every fiat currency (one BTC = 60 000 units): 9.99 USD is 16 650 sats. */
export const BTC_RATE = 60_000;
export const SATS_PER_BTC = 100_000_000;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Decimals of a fiat currency's minor unit (USD 2, JPY 0); null for a code Intl does not know. */
export function fiatDigits(currency: string): number | null {
  if (!/^[A-Za-z]{3}$/.test(currency)) return null;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return null;
  }
}

/** A non-negative decimal (string or JSON number) in minor units, rounded half up; null when it is not one. */
export function parseMinor(value: unknown, digits: number): number | null {
  const text = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? String(value) : value;
  if (typeof text !== 'string') return null;
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  let minor = BigInt(whole + fraction.slice(0, digits).padEnd(digits, '0'));
  if ((fraction[digits] ?? '0') >= '5') minor += 1n;
  const result = Number(minor);
  return Number.isSafeInteger(result) ? result : null;
}

/** Minor units as Greenfield writes the amount: `999, 2` → `"9.99"`. */
export function formatMinor(minor: number, digits: number): string {
  const sign = minor < 0 ? '-' : '';
  const text = Math.abs(minor)
    .toString()
    .padStart(digits + 1, '0');
  return digits === 0 ? sign + text : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** Satoshis as a BTC decimal string with 8 decimals: `16650` → `"0.00016650"`. */
export const formatBtc = (sats: number): string => formatMinor(sats, 8);

/** The satoshis a fiat price costs at the fiat rate (rounded up: the invoice is never under-priced). */
export function satsFor(minor: number, digits: number): number {
  return Math.ceil((minor * SATS_PER_BTC) / (BTC_RATE * 10 ** digits));
}

/** What `sats` are worth in fiat minor units at the rate (rounded half up). */
export function fiatFor(sats: number, digits: number): number {
  return Math.round((sats * BTC_RATE * 10 ** digits) / SATS_PER_BTC);
}
