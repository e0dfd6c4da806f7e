/**
 * Money between our integer minor units and BTCPay's decimal strings ("9.99"), without floating point
 * where it is money we book: the invoice amount and refunds are exact; only the crypto progress of an open
 * invoice (see cryptoProgress in btcpay-events.ts) is converted at a rate.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** How many decimals a currency has in its minor unit (USD 2, JPY 0), as Intl knows it. */
export function currencyDigits(currency: string): number {
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
    return format.resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** `999, 'usd'` → `"9.99"`; `500, 'jpy'` → `"500"`. */
export function minorToDecimal(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`Not an amount in minor units: ${amount}`);
  const digits = currencyDigits(currency);
  const sign = amount < 0 ? '-' : '';
  const text = Math.abs(amount).toString().padStart(digits + 1, '0');
  if (digits === 0) return sign + text;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * `"9.99"` (or `9.99`, or `"9.990000"`) in USD → `999`; more decimals than the currency has are rounded half
 * away from zero. Null when the value is not a decimal number.
 */
export function decimalToMinor(value: unknown, currency: string): number | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return null;
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const digits = currencyDigits(currency);
  const kept = fraction.slice(0, digits).padEnd(digits, '0');
  let minor = BigInt(`${whole}${kept}`);
  if ((fraction[digits] ?? '0') >= '5') minor += 1n;
  const result = Number(minor);
  if (!Number.isSafeInteger(result)) return null;
  return sign === '-' && result !== 0 ? -result : result;
}
