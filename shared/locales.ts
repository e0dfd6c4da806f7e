import { z } from 'zod';

/** The languages the site speaks: English (the default), Russian, Persian (right to left), Simplified Chinese. */
export const LOCALES = ['en', 'ru', 'fa', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Languages written right to left. */
export const RTL_LOCALES: ReadonlySet<Locale> = new Set<Locale>(['fa']);

export const textDirection = (locale: Locale): 'rtl' | 'ltr' => (RTL_LOCALES.has(locale) ? 'rtl' : 'ltr');

/** A locale as the API takes it: one of LOCALES ('zh' is taken for 'zh-CN'). */
export const LocaleSchema = z
  .string()
  .trim()
  .transform((value) => (value.toLowerCase() === 'zh' || value.toLowerCase() === 'zh-cn' ? 'zh-CN' : value.toLowerCase()))
  .pipe(z.enum(LOCALES, { error: `The language is one of ${LOCALES.join(', ')}` }));
