import { IntlMessageFormat } from 'intl-messageformat';
import type { Locale } from '../../../shared/locales.js';

/**
 * Texts from per-language ICU catalogues (each with the English keys): `text(locale, key, values)` with
 * placeholders and plurals filled in; each message is compiled once, on first use.
 */
export function createTranslator<Key extends string>(catalogues: Readonly<Record<Locale, Readonly<Record<Key, string>>>>) {
  const compiled = new Map<string, IntlMessageFormat>();
  return (locale: Locale, key: Key, values: Record<string, string | number> = {}): string => {
    const cacheKey = `${locale}\u0000${key}`;
    let format = compiled.get(cacheKey);
    if (!format) {
      format = new IntlMessageFormat(catalogues[locale][key], locale);
      compiled.set(cacheKey, format);
    }
    return withoutDoubledPeriods(String(format.format(values)), values);
  };
}

/**
 * A value that ends in a period (a Russian date, '7 января 2027 г.'; an abbreviation) at the end of a
 * sentence: the sentence's own period is not written after it again ('г..' → 'г.'), in any language.
 */
function withoutDoubledPeriods(text: string, values: Record<string, string | number>): string {
  let result = text;
  for (const value of Object.values(values)) {
    if (typeof value === 'string' && value.endsWith('.')) result = result.split(`${value}.`).join(value);
  }
  return result;
}
