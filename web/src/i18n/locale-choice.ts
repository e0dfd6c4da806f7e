import { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from '../../../shared/locales.js';

/** Where the visitor's own choice of language is kept (the website and the desktop app alike). */
export const LOCALE_STORAGE_KEY = 'vpn.locale';

export function storedLocale(): Locale | null {
  try {
    const value = globalThis.localStorage?.getItem(LOCALE_STORAGE_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

export function storeLocale(locale: Locale | null): void {
  try {
    if (locale) globalThis.localStorage?.setItem(LOCALE_STORAGE_KEY, locale);
    else globalThis.localStorage?.removeItem(LOCALE_STORAGE_KEY);
  } catch {
    // Private mode or storage disabled: the choice lasts for this page only.
  }
}

/**
 * The best of our languages for the browser's or the OS's list (`navigator.languages`): the first
 * entry whose language we speak (any Chinese is Simplified Chinese); English when none matches.
 */
export function preferredLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const language = tag.toLowerCase().split('-')[0];
    if (language === 'zh') return 'zh-CN';
    const match = LOCALES.find((locale) => locale === language);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}
