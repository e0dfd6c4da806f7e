import { IntlMessageFormat } from 'intl-messageformat';
import type { Locale } from '../../../../shared/locales.js';
import { en, type EmailCatalogue, type EmailMessageKey } from './en.js';
import { fa } from './fa.js';
import { ru } from './ru.js';
import { zhCN } from './zh-CN.js';

/** Every language's e-mail texts (each has exactly the English keys). */
export const EMAIL_CATALOGUES: Readonly<Record<Locale, EmailCatalogue>> = { en, ru, fa, 'zh-CN': zhCN };
const compiled = new Map<string, IntlMessageFormat>();

/** An e-mail text in `locale`, its ICU placeholders and plurals filled in (formatters compiled once). */
export function emailText(locale: Locale, key: EmailMessageKey, values: Record<string, string | number> = {}): string {
  const cacheKey = `${locale}\u0000${key}`;
  let format = compiled.get(cacheKey);
  if (!format) {
    format = new IntlMessageFormat(EMAIL_CATALOGUES[locale][key], locale);
    compiled.set(cacheKey, format);
  }
  return String(format.format(values));
}

export type { EmailMessageKey } from './en.js';
