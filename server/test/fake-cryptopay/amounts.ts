/**
 * Exact decimal arithmetic for the fake's money. Crypto Pay writes every amount, rate and fee as a decimal
 * string ("2.6", "0.078", "94.223484"); here they are bigint multiples of 10^-18, so a 3 % fee or a rate
 * conversion never picks up float noise the real API would not have.
 */

/** A non-negative decimal in units of 10^-18. */
export type Fixed = bigint;

const SCALE_DIGITS = 18;
const SCALE = 10n ** BigInt(SCALE_DIGITS);
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** `"2.6"` → 2.6 × 10^18; null for anything but a plain non-negative decimal of at most 18 places. */
export function parseFixed(text: string): Fixed | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  if (fraction.length > SCALE_DIGITS) return null;
  return BigInt(whole! + fraction.padEnd(SCALE_DIGITS, '0'));
}

/** Parses a decimal this module's own constants are written in; throws on a typo there. */
export function fixed(text: string): Fixed {
  const value = parseFixed(text);
  if (value === null) throw new Error(`fake Crypto Pay: ${text} is not a decimal`);
  return value;
}

export const multiply = (a: Fixed, b: Fixed): Fixed => (a * b) / SCALE;
export const divide = (a: Fixed, b: Fixed): Fixed => (a * SCALE) / b;

/**
 * The decimal string the API would write: rounded to `places` (up, or half up), trailing zeros dropped
 * (`0.07800000` → `"0.078"`, `5.0` → `"5"`), as in the real payloads.
 */
export function formatFixed(value: Fixed, places: number, rounding: 'up' | 'half-up' = 'half-up'): string {
  const unit = 10n ** BigInt(SCALE_DIGITS - places);
  let units = value / unit;
  const rest = value % unit;
  if (rounding === 'up' ? rest > 0n : rest * 2n >= unit) units += 1n;
  const digits = units.toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
