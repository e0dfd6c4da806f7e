import { z } from 'zod';
import type { Locale } from './locales.js';
import { TRANSLATED_LOCALES, type TranslatedLocale } from './plan-translations.js';

/** A server's public region name ("Germany") in the other languages, as the operator wrote it; a language left out shows the name as written. */
export type RegionNameTranslations = Partial<Record<TranslatedLocale, string>>;

const name = z.string({ error: 'A region name is text' }).trim().max(60, 'Public region name: at most 60 characters');

/** `publicNameTranslations` of a server: `{ ru?, fa?, "zh-CN"? }`, replaced whole when sent; an empty name is left out. */
export const RegionNameTranslationsSchema = z
  .object(
    { ru: name.optional(), fa: name.optional(), 'zh-CN': name.optional() },
    { error: 'Region name translations are an object of languages (ru, fa, zh-CN)' },
  )
  .strict()
  .transform((languages) => {
    const translations: RegionNameTranslations = {};
    for (const locale of TRANSLATED_LOCALES) if (languages[locale]) translations[locale] = languages[locale];
    return translations;
  });

/** The region name in `locale`: the operator's translation, else the name as written. */
export function regionNameIn(name: string, translations: RegionNameTranslations | undefined, locale: Locale): string {
  return (locale !== 'en' && translations?.[locale]) || name;
}
