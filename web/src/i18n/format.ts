import type { I18n } from '@lingui/core';
import type { Locale } from '../../../shared/locales.js';
import { formatMoney, formatMoneyShort } from '../../../shared/money.js';
import { i18nFor } from './catalogs';
import { useLocale } from './locale-context';
import { DAY_MS } from '../../../shared/constants.js';
import { locationName } from '../../../shared/plan-servers.js';
import { PART_SEPARATOR } from '../../../shared/separators.js';
import { formatDataAmount } from '../../../shared/data-size.js';

const BYTES_PER_MB = 1024 ** 2;
const BYTES_PER_GB = 1024 ** 3;
/** Between the items of a short list (location codes): Intl.ListFormat's unit lists differ between engines. */
const LIST_SEPARATOR: Record<Locale, string> = { en: ', ', ru: ', ', fa: '، ', 'zh-CN': '、' };
/** Within this long of now, an expiry shows its time too (a 3-hour trial, the last days of a plan). */
const SHOW_TIME_WITHIN_MS = 3 * DAY_MS;

function validDate(iso: string | null): Date | null {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/**
 * Numbers, money, data sizes, durations and dates as people who read `locale` write them (Intl), with
 * the few words around them ('Unlimited', 'Never') from the common catalogue.
 */
export function createFormatters(locale: Locale, i18n: I18n = i18nFor(locale)) {
  /** Intl formatters are costly to build: each is made on its first use. */
  const once = <T>(make: () => T) => {
    let made: T | undefined;
    return () => (made ??= make());
  };
  const unit = (name: string, display: 'short' | 'long' = 'short', digits = 0) =>
    once(() => new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: display, maximumFractionDigits: digits }));
  const days = unit('day', 'long', 1);
  const hours = unit('hour', 'long');
  const integer = once(() => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }));
  const percentage = once(() => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }));
  const dateTime = once(() => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }));
  const day = once(() => new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }));

  const formatters = {
    locale,
    /** A whole number: 1234 → '1,234', '1 234', '۱٬۲۳۴'. */
    number: (value: number) => integer().format(value),
    /** A whole percentage as the locale writes it: 20 → '20%', '20 %', '۲۰٪'. */
    percent: (value: number) => percentage().format(value / 100),
    /**
     * Minor units of a currency with its own decimals (shared/money.ts): 1299 'usd' → '$12.99', '12,99 $';
     * 1500 'jpy' → '¥1,500' ('JP¥1,500' in Chinese, where a bare '¥' is the yuan): a symbol no other currency shares in this language.
     */
    money: (minor: number, currency: string): string => formatMoney(minor, currency, locale),
    /** The same on a chart's axis: no decimals when the amount is whole ('$40', '$12.50'). */
    moneyShort: (minor: number, currency: string): string => formatMoneyShort(minor, currency, locale),
    /** Whole gigabytes (1 GB = 1024³ bytes); whole megabytes below 1 GB; in the language's unit names (shared/data-size.ts: Persian's are words). */
    bytes: (bytes: number) =>
      bytes >= BYTES_PER_GB
        ? formatDataAmount(Math.round(bytes / BYTES_PER_GB), 'gigabyte', locale)
        : formatDataAmount(Math.round(bytes / BYTES_PER_MB), 'megabyte', locale),
    /** A file's size to download: megabytes to a tenth ('84.3 MB'), whole kilobytes below 1 MB (1 MB = 1024² bytes). */
    fileSize: (bytes: number) =>
      bytes >= BYTES_PER_MB
        ? formatDataAmount(bytes / BYTES_PER_MB, 'megabyte', locale, { fractionDigits: 1 })
        : formatDataAmount(Math.max(1, Math.round(bytes / 1024)), 'kilobyte', locale),
    /** A data limit; `null` (or 0) means none. */
    dataLimit: (bytes: number | null) => (bytes === null || bytes <= 0 ? i18n._('format.unlimited') : formatters.bytes(bytes)),
    /** Days, or hours when under a day (plan days may be fractional: 0.125 = 3 hours). */
    duration: (value: number) => (value < 1 ? hours().format(Math.max(1, Math.round(value * 24))) : days().format(Number(value.toFixed(1)))),
    /** 'all' (or nothing) reads 'All locations'; codes are listed with the locale's separator, countries by name ('DE' → 'Германия'). */
    locations: (locations: string) => formatters.places(locations === 'all' || locations === '' ? [] : locations.split(',')),
    /** A plan's location codes (`locationCodes`) by name in this language; none reads 'All locations'. */
    places: (codes: readonly string[]) =>
      codes.length === 0 ? i18n._('format.allLocations') : formatters.list(codes.map((code) => locationName(code, locale))),
    /** Between the parts of a one-line summary: ' · ', and ' – ' in Persian, where '·' reads as the zero '۰' (shared/separators.ts). */
    separator: PART_SEPARATOR[locale],
    /** Names one after another with the language's separator: 'Happ, Hiddify', 'Happ، Hiddify', 'Happ、Hiddify'. */
    list: (items: readonly string[]) => items.join(LIST_SEPARATOR[locale]),
    /** A date and time; '—' without a usable one. */
    dateTime: (iso: string | null) => {
      const date = validDate(iso);
      return date ? dateTime().format(date) : '—';
    },
    /** A day, month as a word; '—' without a usable one. */
    date: (iso: string | null) => {
      const date = validDate(iso);
      return date ? day().format(date) : '—';
    },
    /** An account's expiry, with the time when it is near; 'Never' without one. */
    expiry(iso: string | null, now = Date.now()): string {
      if (!iso) return i18n._('format.never');
      const date = validDate(iso);
      if (!date) return '—';
      return Math.abs(date.getTime() - now) < SHOW_TIME_WITHIN_MS ? dateTime().format(date) : day().format(date);
    },
  };
  return formatters;
}

export type Formatters = ReturnType<typeof createFormatters>;

const cache = new Map<Locale, Formatters>();

/** The formatters of the current language. */
export function useFormat(): Formatters {
  const { locale } = useLocale();
  let formatters = cache.get(locale);
  if (!formatters) cache.set(locale, (formatters = createFormatters(locale)));
  return formatters;
}
