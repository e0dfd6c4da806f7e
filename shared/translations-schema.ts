import { z } from 'zod';
import { TRANSLATED_LOCALES, type TranslatedLocale } from './plan-translations.js';

/**
 * An operator text's other languages as the API takes them: `{ ru?, fa?, "zh-CN"? }`, each checked by
 * `entry`, nothing else; a language with nothing in it is left out (it shows the English text).
 */
export function perLanguage<T extends z.ZodType<object>>(entry: T, error: string) {
  return z
    .object({ ru: entry.optional(), fa: entry.optional(), 'zh-CN': entry.optional() }, { error })
    .strict()
    .transform((languages) => {
      const translations: Partial<Record<TranslatedLocale, z.output<T>>> = {};
      for (const locale of TRANSLATED_LOCALES) {
        const translation = languages[locale];
        if (translation && Object.keys(translation).length > 0) translations[locale] = translation;
      }
      return translations;
    });
}
