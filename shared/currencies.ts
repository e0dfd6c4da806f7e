/**
 * The currencies a store can sell in: Stripe's presentment currencies (docs.stripe.com/currencies),
 * lower-case as Stripe's API writes them, with the decimals of the minor unit every amount is kept in.
 * A plan priced 1500 is $15.00 in a USD store, ¥1,500 in a JPY store and 1.500 KWD in a KWD store, and is
 * sent to Stripe (and BTCPay) as exactly that amount in that currency.
 */

/** Stripe's zero-decimal currencies: an amount is in whole units (JPY 1500 is ¥1,500). */
const ZERO_DECIMAL = ['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf'] as const;

/** Stripe's three-decimal currencies: an amount is in thousandths (KWD 1500 is 1.500 KWD). */
const THREE_DECIMAL = ['bhd', 'jod', 'kwd', 'omr', 'tnd'] as const;

/**
 * The rest, in hundredths. ISK is zero-decimal by ISO 4217 but Stripe keeps it two-decimal for backwards
 * compatibility (ISK 5 is 500), and HUF and TWD are two-decimal in its API too: Stripe's units win here,
 * since they are the amounts we send.
 */
const TWO_DECIMAL = [
  'usd',
  'aed',
  'afn',
  'all',
  'amd',
  'ang',
  'aoa',
  'ars',
  'aud',
  'awg',
  'azn',
  'bam',
  'bbd',
  'bdt',
  'bgn',
  'bmd',
  'bnd',
  'bob',
  'brl',
  'bsd',
  'bwp',
  'byn',
  'bzd',
  'cad',
  'cdf',
  'chf',
  'cny',
  'cop',
  'crc',
  'cve',
  'czk',
  'dkk',
  'dop',
  'dzd',
  'egp',
  'etb',
  'eur',
  'fjd',
  'fkp',
  'gbp',
  'gel',
  'gip',
  'gmd',
  'gtq',
  'gyd',
  'hkd',
  'hnl',
  'htg',
  'huf',
  'idr',
  'ils',
  'inr',
  'isk',
  'jmd',
  'kes',
  'kgs',
  'khr',
  'kyd',
  'kzt',
  'lak',
  'lbp',
  'lkr',
  'lrd',
  'lsl',
  'mad',
  'mdl',
  'mkd',
  'mmk',
  'mnt',
  'mop',
  'mur',
  'mvr',
  'mwk',
  'mxn',
  'myr',
  'mzn',
  'nad',
  'ngn',
  'nio',
  'nok',
  'npr',
  'nzd',
  'pab',
  'pen',
  'pgk',
  'php',
  'pkr',
  'pln',
  'qar',
  'ron',
  'rsd',
  'rub',
  'sar',
  'sbd',
  'scr',
  'sek',
  'sgd',
  'shp',
  'sle',
  'sos',
  'srd',
  'std',
  'szl',
  'thb',
  'tjs',
  'top',
  'try',
  'ttd',
  'twd',
  'tzs',
  'uah',
  'uyu',
  'uzs',
  'wst',
  'xcd',
  'xcg',
  'yer',
  'zar',
  'zmw',
] as const;

export type MinorUnitDecimals = 0 | 2 | 3;

/** The one table: every currency a store may choose, and how many decimals its minor unit has. */
export const CURRENCY_DECIMALS: Readonly<Record<string, MinorUnitDecimals>> = Object.freeze({
  ...Object.fromEntries(TWO_DECIMAL.map((code) => [code, 2 as const])),
  ...Object.fromEntries(ZERO_DECIMAL.map((code) => [code, 0 as const])),
  ...Object.fromEntries(THREE_DECIMAL.map((code) => [code, 3 as const])),
});

/** The codes a store may choose, sorted (the settings screen lists them). */
export const SUPPORTED_CURRENCIES: readonly string[] = Object.freeze(Object.keys(CURRENCY_DECIMALS).sort());

/** A store sells in US dollars until its operator picks another currency. */
export const DEFAULT_CURRENCY = 'usd';

/** Whether `code` is a currency a store may sell in (lower-case, as stored: 'eur', not 'EUR'). */
export function isSupportedCurrency(code: string): boolean {
  return Object.hasOwn(CURRENCY_DECIMALS, code);
}

/**
 * The decimals of a currency's minor unit (USD 2, JPY 0, KWD 3), in either case. Telegram Stars (XTR, not a store's
 * currency: payments in the bot) are whole Stars. A currency outside the table (an amount a provider reports in some
 * other currency) is taken as two-decimal, like most are.
 */
export function currencyDecimals(code: string): MinorUnitDecimals {
  const lower = code.toLowerCase();
  if (lower === 'xtr') return 0;
  return Object.hasOwn(CURRENCY_DECIMALS, lower) ? CURRENCY_DECIMALS[lower]! : 2;
}
