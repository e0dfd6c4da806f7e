import { DEFAULT_LOCALE, type Locale } from '../../../shared/locales.js';
import { formatDataAmount, type DataUnit } from '../../../shared/data-size.js';
import { formatMoney } from '../../../shared/money.js';

/** The Intl locale each language writes numbers, money and dates with (English keeps the product's own formats). */
const NUMBER_LOCALE: Readonly<Record<Locale, string>> = { en: 'en-US', ru: 'ru-RU', fa: 'fa-IR', 'zh-CN': 'zh-CN' };
const DATE_LOCALE: Readonly<Record<Locale, string>> = { en: 'en-GB', ru: 'ru-RU', fa: 'fa-IR', 'zh-CN': 'zh-CN' };

/**
 * An amount in the currency's minor units, as a customer reads it in their language (shared/money.ts's
 * formatMoney, as on the screens: 'US$' or 'JP¥' where the language would otherwise be unsure which):
 * `money(499, 'usd')` is "$4.99", `money(499, 'usd', 'ru')` "4,99 $", `money(1500, 'jpy', 'zh-CN')` "JP¥1,500".
 */
export function money(minor: number, currency: string, locale: Locale = DEFAULT_LOCALE): string {
  return formatMoney(minor, currency, NUMBER_LOCALE[locale]);
}

const dayFormats = new Map<Locale, Intl.DateTimeFormat>();

/**
 * A calendar day in UTC in the reader's language: "24 December 2026", "24 декабря 2026 г.",
 * "2026年12月24日"; Persian in the Solar Hijri calendar its readers use ("۳ دی ۱۴۰۵").
 */
export function formatDay(date: Date, locale: Locale = DEFAULT_LOCALE): string {
  let format = dayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(DATE_LOCALE[locale], { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    dayFormats.set(locale, format);
  }
  return format.format(date);
}

/** A moment in UTC, to the second: English as `Date#toUTCString` writes it, other languages their own way. */
export function formatMoment(date: Date, locale: Locale = DEFAULT_LOCALE): string {
  if (locale === 'en') return date.toUTCString();
  return new Intl.DateTimeFormat(DATE_LOCALE[locale], { dateStyle: 'medium', timeStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** A whole percentage ("80%", "80 %", "۸۰٪"). */
export function formatPercent(percent: number, locale: Locale = DEFAULT_LOCALE): string {
  return new Intl.NumberFormat(NUMBER_LOCALE[locale], { style: 'percent', maximumFractionDigits: 0 }).format(percent / 100);
}

export { NUMBER_LOCALE, DATE_LOCALE };

export type { DataUnit };

/** An amount of data in the language's own unit names and digits ("5,00 ГБ", "۵٫۰۰ گیگابایت"), `fractionDigits` decimals (shared/data-size.ts). */
export function formatDataSize(value: number, unit: DataUnit, locale: Locale, fractionDigits: number): string {
  return formatDataAmount(value, unit, locale, { fractionDigits, exact: true, intlLocale: NUMBER_LOCALE[locale] });
}
