import { describe, expect, it } from 'vitest';
import { CURRENCY_DECIMALS, currencyDecimals, DEFAULT_CURRENCY, isSupportedCurrency, SUPPORTED_CURRENCIES } from './currencies.js';
import { decimalToMinor, formatMoney, formatMoneyShort, minorToDecimal, moneyDisplay } from './money.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';
const LRM = '\u200e';

describe('the currency table', () => {
  it("has Stripe's zero-decimal currencies with no decimals", () => {
    for (const code of ['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']) {
      expect(CURRENCY_DECIMALS[code], code).toBe(0);
    }
    expect(Object.values(CURRENCY_DECIMALS).filter((decimals) => decimals === 0)).toHaveLength(16);
  });

  it("has Stripe's three-decimal currencies with three, and the rest with two (ISK, HUF and TWD as Stripe's API counts them)", () => {
    for (const code of ['bhd', 'jod', 'kwd', 'omr', 'tnd']) expect(CURRENCY_DECIMALS[code], code).toBe(3);
    expect(Object.values(CURRENCY_DECIMALS).filter((decimals) => decimals === 3)).toHaveLength(5);
    for (const code of ['usd', 'eur', 'gbp', 'cad', 'aud', 'chf', 'rub', 'cny', 'inr', 'isk', 'huf', 'twd']) expect(CURRENCY_DECIMALS[code], code).toBe(2);
  });

  it('lists lower-case ISO codes that Intl knows, sorted, US dollars the default', () => {
    expect(SUPPORTED_CURRENCIES.length).toBeGreaterThan(130);
    expect([...SUPPORTED_CURRENCIES]).toEqual([...SUPPORTED_CURRENCIES].sort());
    for (const code of SUPPORTED_CURRENCIES) {
      expect(code).toMatch(/^[a-z]{3}$/);
      expect(() => formatMoney(100, code)).not.toThrow();
    }
    expect(DEFAULT_CURRENCY).toBe('usd');
  });

  it('accepts only its own codes, as stored (lower case)', () => {
    expect(isSupportedCurrency('eur')).toBe(true);
    for (const code of ['EUR', 'btc', 'xyz', 'us', '', 'constructor', '__proto__', 'toString']) expect(isSupportedCurrency(code), code).toBe(false);
  });

  it('gives the decimals in either case, and two for a code outside it', () => {
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('kwd')).toBe(3);
    expect(currencyDecimals('btc')).toBe(2);
  });
});

describe('minor units and decimals', () => {
  it('writes minor units as a decimal number with the currency’s decimals', () => {
    expect(minorToDecimal(1500, 'usd')).toBe('15.00');
    expect(minorToDecimal(5, 'eur')).toBe('0.05');
    expect(minorToDecimal(1500, 'jpy')).toBe('1500');
    expect(minorToDecimal(1500, 'kwd')).toBe('1.500');
    expect(minorToDecimal(5, 'kwd')).toBe('0.005');
    expect(minorToDecimal(-250, 'usd')).toBe('-2.50');
    expect(() => minorToDecimal(1.5, 'usd')).toThrow(RangeError);
  });

  it('reads a decimal number back exactly, rounding extra decimals half up unless told to refuse them', () => {
    expect(decimalToMinor('1.5', 'KWD')).toBe(1500);
    expect(decimalToMinor('1500', 'jpy')).toBe(1500);
    expect(decimalToMinor('1500.4', 'jpy')).toBe(1500);
    expect(decimalToMinor('1500.5', 'jpy')).toBe(1501);
    expect(decimalToMinor('0.29', 'eur')).toBe(29);
    expect(decimalToMinor('1500.5', 'jpy', { roundExtra: false })).toBeNull();
    expect(decimalToMinor('1500.0', 'jpy', { roundExtra: false })).toBe(1500);
    expect(decimalToMinor('4.999', 'usd', { roundExtra: false })).toBeNull();
    expect(decimalToMinor('1.250', 'kwd', { roundExtra: false })).toBe(1250);
  });
});

describe('formatMoney', () => {
  const cases: Array<[number, string, Record<'en' | 'ru' | 'fa' | 'zh-CN', string>]> = [
    [1500, 'jpy', { en: '¥1,500', ru: `1${NBSP}500${NBSP}¥`, fa: `${LRM}¥۱٬۵۰۰`, 'zh-CN': 'JP¥1,500' }],
    [1500, 'eur', { en: '€15.00', ru: `15,00${NBSP}€`, fa: `${LRM}€۱۵٫۰۰`, 'zh-CN': '€15.00' }],
    [1500, 'kwd', { en: `KWD${NBSP}1.500`, ru: `1,500${NBSP}KWD`, fa: `${LRM}KWD${NBSP}۱٫۵۰۰`, 'zh-CN': `KWD${NBSP}1.500` }],
    [499, 'usd', { en: '$4.99', ru: `4,99${NBSP}$`, fa: `${LRM}$۴٫۹۹`, 'zh-CN': 'US$4.99' }],
  ];

  for (const [minor, currency, byLocale] of cases) {
    it(`writes ${minor} ${currency} with its decimals in each language`, () => {
      for (const [locale, expected] of Object.entries(byLocale)) {
        // Intl's spaces differ between ICU versions (no-break or narrow no-break): compare them as one.
        expect(formatMoney(minor, currency, locale).replaceAll(NNBSP, NBSP), locale).toBe(expected);
      }
    });
  }

  it('takes the code in either case', () => {
    expect(formatMoney(1500, 'JPY')).toBe('¥1,500');
  });

  it('never writes a symbol another currency shares in that language (issue 57)', () => {
    // A Chinese reader takes a bare '¥' for yuan: yen is 'JP¥' there, the yuan keeps '¥'.
    expect(formatMoney(599, 'jpy', 'zh-CN')).toBe('JP¥599');
    expect(formatMoney(59900, 'cny', 'zh-CN')).toBe('¥599.00');
    // In English '¥' is the yen and the yuan is 'CN¥'; '$' is the US dollar and the other dollars say which.
    expect(formatMoney(599, 'jpy', 'en')).toBe('¥599');
    expect(formatMoney(59900, 'cny', 'en')).toBe('CN¥599.00');
    expect(formatMoney(499, 'aud', 'en')).toBe('A$4.99');
    expect(formatMoney(499, 'cad', 'en')).toBe('CA$4.99');
    expect(formatMoney(499, 'usd', 'zh-CN')).toBe('US$4.99');
    expect(formatMoney(499, 'aud', 'ru').replaceAll(NNBSP, NBSP)).toBe(`4,99${NBSP}A$`);
    expect(formatMoney(499, 'cny', 'ru').replaceAll(NNBSP, NBSP)).toBe(`4,99${NBSP}CN¥`);
    expect(formatMoneyShort(4000, 'aud')).toBe('A$40');
    // The crowns share 'kr': each says its code.
    expect(formatMoney(499, 'sek', 'en').replaceAll(NNBSP, NBSP)).toBe(`SEK${NBSP}4.99`);
    expect(formatMoney(499, 'nok', 'en').replaceAll(NNBSP, NBSP)).toBe(`NOK${NBSP}4.99`);
    expect(moneyDisplay('EUR', 'en')).toBe('narrowSymbol');
  });

  it('gives every currency a store may sell in its own name in each language', () => {
    for (const locale of ['en', 'ru', 'fa', 'zh-CN', 'en-US', 'ru-RU', 'fa-IR']) {
      const seen = new Map<string, string>();
      for (const code of SUPPORTED_CURRENCIES) {
        const written = formatMoney(100, code, locale).replace(/[\d.,٫٬۰-۹\u200e\s]/g, '');
        expect(seen.get(written), `${locale}: ${code} is written like ${seen.get(written)}`).toBeUndefined();
        seen.set(written, code);
      }
    }
  });

  it('shows exactly the amount booked: large amounts are not rounded through floating point', () => {
    expect(formatMoney(900719925474099, 'usd')).toBe('$9,007,199,254,740.99');
    expect(formatMoney(1, 'kwd')).toBe(`KWD${NBSP}0.001`);
  });

  it('drops the decimals on a chart axis only when the amount is whole', () => {
    expect(formatMoneyShort(4000, 'usd')).toBe('$40');
    expect(formatMoneyShort(1250, 'usd')).toBe('$12.50');
    expect(formatMoneyShort(1500, 'jpy')).toBe('¥1,500');
    expect(formatMoneyShort(2000, 'kwd')).toBe(`KWD${NBSP}2`);
  });

  it('writes Telegram Stars as whole Stars after a star, in the reader’s digits (XTR is no ISO currency)', () => {
    expect(formatMoney(250, 'xtr')).toBe('⭐250');
    expect(formatMoney(1500, 'XTR', 'en')).toBe('⭐1,500');
    expect(formatMoney(1500, 'xtr', 'fa')).toBe('⭐۱٬۵۰۰');
    expect(minorToDecimal(250, 'xtr')).toBe('250');
    expect(formatMoneyShort(250, 'xtr')).toBe('⭐250');
  });
});
