import type { Locale } from './locales.js';

export type DataUnit = 'byte' | 'kilobyte' | 'megabyte' | 'gigabyte';

/**
 * How each language names data units: the short symbols ('GB', 'ГБ') where its readers write them so, and
 * Persian's words ('گیگابایت'), which its plan cards and operators use: Intl's short Persian units are Latin.
 */
const UNIT_DISPLAY: Readonly<Record<Locale, 'short' | 'long'>> = { en: 'short', ru: 'short', fa: 'long', 'zh-CN': 'short' };

const formats = new Map<string, Intl.NumberFormat>();

/**
 * An amount of data in the reader's digits and unit names, on the screens, in e-mails and on the /sub page:
 * `formatDataAmount(300, 'gigabyte', 'fa')` is '۳۰۰ گیگابایت', in Russian '300 ГБ'. `fractionDigits` is the
 * most decimals (`exact`: always that many); `intlLocale` the Intl tag when it is not the language's own ('fa-IR').
 */
export function formatDataAmount(
  value: number,
  unit: DataUnit,
  locale: Locale,
  options: { fractionDigits?: number; exact?: boolean; intlLocale?: string } = {},
): string {
  const { fractionDigits = 0, exact = false, intlLocale = locale } = options;
  const key = `${intlLocale}|${locale}|${unit}|${fractionDigits}|${exact}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale, {
      style: 'unit',
      unit,
      unitDisplay: UNIT_DISPLAY[locale],
      maximumFractionDigits: fractionDigits,
      minimumFractionDigits: exact ? fractionDigits : 0,
    });
    formats.set(key, format);
  }
  return format.format(value);
}
