import { match } from '@formatjs/intl-localematcher';
import Negotiator from 'negotiator';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../../shared/locales.js';

/**
 * The supported language an `Accept-Language` header asks for most, by the standard's best-fit
 * matching (`ru-RU` → `ru`, `zh-Hans-CN` or `zh` → `zh-CN`); English when none matches.
 */
export function localeFromAcceptLanguage(header: string | string[] | undefined): Locale {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return DEFAULT_LOCALE;
  const requested = new Negotiator({ headers: { 'accept-language': value } }).languages().filter((tag) => tag !== '*');
  if (requested.length === 0) return DEFAULT_LOCALE;
  try {
    return match(requested, [...LOCALES], DEFAULT_LOCALE, { algorithm: 'best fit' }) as Locale;
  } catch {
    // A malformed language tag in the header: English, as for no header.
    return DEFAULT_LOCALE;
  }
}
