import { DEFAULT_LOCALE, type Locale } from '../../../shared/locales.js';
import { i18nFor } from '../i18n/catalogs';

let language: Locale = DEFAULT_LOCALE;

/** The language API requests ask for (`Accept-Language`), so the server's messages come in the page's language. */
export function setApiLanguage(locale: Locale): void {
  language = locale;
}

export const apiLanguage = (): Locale => language;

/** A message the client itself makes (no server answer to show), in the API's language. */
export function clientMessage(key: 'unexpected' | 'serverUnreachable'): string {
  return i18nFor(language)._(`error.${key}`);
}
