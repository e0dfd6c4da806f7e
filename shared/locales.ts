/**
 * The languages the site speaks: English (the default), Russian, Persian (right to left), Simplified
 * Chinese. No zod here: the browser loads this on every page (the API's schema is locale-schema.ts).
 */
export const LOCALES = ['en', 'ru', 'fa', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Languages written right to left. */
export const RTL_LOCALES: ReadonlySet<Locale> = new Set<Locale>(['fa']);

export const textDirection = (locale: Locale): 'rtl' | 'ltr' => (RTL_LOCALES.has(locale) ? 'rtl' : 'ltr');

/** Where each language's pages live: English at the root, the others under a prefix of their own. */
export const LOCALE_PREFIX: Readonly<Record<Locale, string>> = { en: '', ru: '/ru', fa: '/fa', 'zh-CN': '/zh' };

/** Each language's name in that language, for the switcher. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', ru: 'Русский', fa: 'فارسی', 'zh-CN': '简体中文' };

/** The hreflang (and BCP 47) tag of each language. */
export const HREFLANG: Readonly<Record<Locale, string>> = { en: 'en', ru: 'ru', fa: 'fa', 'zh-CN': 'zh-CN' };

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/**
 * The language of a site path and the path without its prefix: `/ru/pricing` → ru, `/pricing`;
 * `/ru` → ru, `/`; `/pricing` → en, `/pricing`.
 */
export function splitLocalePath(pathname: string): { locale: Locale; path: string } {
  for (const locale of LOCALES) {
    const prefix = LOCALE_PREFIX[locale];
    if (!prefix) continue;
    if (pathname === prefix || pathname === `${prefix}/`) return { locale, path: '/' };
    if (pathname.startsWith(`${prefix}/`)) return { locale, path: pathname.slice(prefix.length) };
  }
  return { locale: DEFAULT_LOCALE, path: pathname };
}

/** The path of a page in a language: `localizedPath('ru', '/pricing')` → `/ru/pricing`; the home page is `/ru/`. */
export function localizedPath(locale: Locale, path: string): string {
  const prefix = LOCALE_PREFIX[locale];
  if (!prefix) return path;
  return path === '/' ? `${prefix}/` : `${prefix}${path}`;
}
