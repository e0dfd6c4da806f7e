/**
 * Money is an integer number of minor units of a currency (shared/currencies.ts says how many decimals
 * each has). This is the one place it becomes text: for people (formatMoney) and as a decimal number
 * (minorToDecimal and back), without floating point, so what is shown and sent is what is booked.
 */
import { currencyDecimals, SUPPORTED_CURRENCIES } from './currencies.js';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** `999, 'usd'` → `"9.99"`; `1500, 'jpy'` → `"1500"`; `1500, 'kwd'` → `"1.500"`. */
export function minorToDecimal(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`Not an amount in minor units: ${amount}`);
  const digits = currencyDecimals(currency);
  const sign = amount < 0 ? '-' : '';
  const text = Math.abs(amount)
    .toString()
    .padStart(digits + 1, '0');
  if (digits === 0) return sign + text;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * `"9.99"` (or `9.99`, or `"9.990000"`) in USD → `999`; `"1500"` in JPY → `1500`. More decimals than the
 * currency has are rounded half away from zero (`roundExtra: false` refuses them instead: null). Null when
 * the value is not a decimal number.
 */
export function decimalToMinor(value: unknown, currency: string, options: { roundExtra?: boolean } = {}): number | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return null;
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const digits = currencyDecimals(currency);
  const extra = fraction.slice(digits);
  if (options.roundExtra === false && /[1-9]/.test(extra)) return null;
  let minor = BigInt(`${whole}${fraction.slice(0, digits).padEnd(digits, '0')}`);
  if ((extra[0] ?? '0') >= '5') minor += 1n;
  const result = Number(minor);
  if (!Number.isSafeInteger(result)) return null;
  return sign === '-' && result !== 0 ? -result : result;
}

/**
 * How a currency is named in a language: its narrow symbol ('$', '¥', '€') unless another currency a store
 * may sell in has that same symbol there; then its own symbol ('US$', 'JP¥', 'A$': a Chinese reader takes
 * a bare '¥' for yuan, an Australian price must not read as US dollars); and its code ('SEK') when even that
 * is shared. A currency that keeps a bare symbol in a language keeps it: '$' for US dollars in English,
 * '¥' for yuan in Chinese and for yen in English.
 */
export type MoneyDisplay = 'narrowSymbol' | 'symbol' | 'code';

/** By `locale|display`: how many of the currencies a store sells in are written with each symbol. */
const symbolCounts = new Map<string, Map<string, number>>();
/** By `locale|CODE`: the display that names that currency unambiguously in that language. */
const displays = new Map<string, MoneyDisplay>();

function symbolOf(code: string, locale: string, display: MoneyDisplay): string {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency: code, currencyDisplay: display }).formatToParts(1);
  // Compared without spaces: 'FCFA' and 'F CFA' (the two CFA francs) read alike.
  return (parts.find((part) => part.type === 'currency')?.value ?? code).replace(/\s/g, '');
}

function isSharedSymbol(code: string, locale: string, display: MoneyDisplay): boolean {
  const key = `${locale}|${display}`;
  let counts = symbolCounts.get(key);
  if (!counts) {
    counts = new Map();
    for (const other of SUPPORTED_CURRENCIES) {
      const symbol = symbolOf(other.toUpperCase(), locale, display);
      counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    }
    symbolCounts.set(key, counts);
  }
  return (counts.get(symbolOf(code, locale, display)) ?? 0) > 1;
}

/** The way `locale` names the currency `code` (upper case) that no other currency shares: see MoneyDisplay. */
export function moneyDisplay(code: string, locale: string): MoneyDisplay {
  const key = `${locale}|${code}`;
  let display = displays.get(key);
  if (!display) {
    display = !isSharedSymbol(code, locale, 'narrowSymbol') ? 'narrowSymbol' : !isSharedSymbol(code, locale, 'symbol') ? 'symbol' : 'code';
    displays.set(key, display);
  }
  return display;
}

const formats = new Map<string, Intl.NumberFormat>();

/**
 * Minor units as a reader of `locale` (a BCP 47 tag: 'en', 'ru-RU', 'fa', 'zh-CN') writes the amount, with
 * exactly the currency's decimals and a symbol that names no other currency there (moneyDisplay), on the
 * screens, in e-mails and in Telegram alike: `formatMoney(1500, 'jpy')` is '¥1,500' and
 * `formatMoney(1500, 'jpy', 'zh-CN')` 'JP¥1,500', `formatMoney(1500, 'eur', 'ru')` '15,00 €',
 * `formatMoney(1500, 'kwd')` 'KWD 1.500', `formatMoney(250, 'xtr')` '⭐250'.
 */
export function formatMoney(minor: number, currency: string, locale = 'en'): string {
  const code = currency.toUpperCase();
  // Telegram Stars have no ISO code: Intl would write 'XTR 250.00'; Telegram writes the star before the number.
  if (code === 'XTR') return `⭐${formatStars(minor, locale)}`;
  const key = `${locale}|${code}`;
  let format = formats.get(key);
  if (!format) {
    const digits = currencyDecimals(code);
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      currencyDisplay: moneyDisplay(code, locale),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formats.set(key, format);
  }
  // The exact decimal as text: Intl formats it without going through a float.
  return format.format(minorToDecimal(minor, code) as `${number}`);
}

/**
 * Money on a chart's axis: the decimals only when the amount has any ('$40', '$12.50'; '¥1,500').
 */
export function formatMoneyShort(minor: number, currency: string, locale = 'en'): string {
  const digits = currencyDecimals(currency);
  if (digits === 0 || minor % 10 ** digits !== 0) return formatMoney(minor, currency, locale);
  const code = currency.toUpperCase();
  const key = `${locale}|${code}|whole`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      currencyDisplay: moneyDisplay(code, locale),
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    });
    formats.set(key, format);
  }
  return format.format(minorToDecimal(minor, code) as `${number}`);
}

/** A number of Telegram Stars as a reader of `locale` writes numbers ('1,500'; '۱٬۵۰۰' in Persian). */
function formatStars(stars: number, locale: string): string {
  const key = `${locale}|stars`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    formats.set(key, format);
  }
  return format.format(stars);
}
