import { IntlMessageFormat } from 'intl-messageformat';
import type { Locale } from '../../../../../shared/locales.js';
import { en, type PageCatalogue, type PageMessageKey } from './en.js';
import { fa } from './fa.js';
import { ru } from './ru.js';
import { zhCN } from './zh-CN.js';

export const PAGE_CATALOGUES: Readonly<Record<Locale, PageCatalogue>> = { en, ru, fa, 'zh-CN': zhCN };
const compiled = new Map<string, IntlMessageFormat>();

/** A text of the `/sub` page in `locale`, its ICU placeholders and plurals filled in (formatters compiled once). */
export function pageText(locale: Locale, key: PageMessageKey, values: Record<string, string | number> = {}): string {
  const cacheKey = `${locale}\u0000${key}`;
  let format = compiled.get(cacheKey);
  if (!format) {
    format = new IntlMessageFormat(PAGE_CATALOGUES[locale][key], locale);
    compiled.set(cacheKey, format);
  }
  return String(format.format(values));
}

export type { PageMessageKey } from './en.js';
