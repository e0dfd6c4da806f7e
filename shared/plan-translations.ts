import { DEFAULT_LOCALE, LOCALES, type Locale } from './locales.js';

/** The languages an operator may translate their own texts into; English is the required original. */
export type TranslatedLocale = Exclude<Locale, 'en'>;
export const TRANSLATED_LOCALES = LOCALES.filter((locale): locale is TranslatedLocale => locale !== DEFAULT_LOCALE);

/** What a customer reads of a plan: its name, its tier's name and the lines under its price. */
export interface PlanText {
  name: string;
  tier: string | null;
  features: string[];
}

/**
 * A plan's texts in one other language. Each field is optional and falls back to English on its own:
 * a Russian name with no Russian features shows the Russian name over the English feature lines.
 */
export interface PlanTranslation {
  name?: string;
  tier?: string;
  features?: string[];
}

/** A plan's name in each language the operator translated it into (English is `planName`). */
export type PlanNames = Partial<Record<TranslatedLocale, string>>;

/** `translations` of a plan (`POST`/`PATCH /api/admin/plans`, `GET /api/plans`): `{ ru: {...}, fa: {...}, 'zh-CN': {...} }`. */
export type PlanTranslations = Partial<Record<TranslatedLocale, PlanTranslation>>;

/** The plan's name in each language it was translated into (`PlanNames`), from its translations. */
export function planNamesOf(translations: PlanTranslations): PlanNames {
  const names: PlanNames = {};
  for (const locale of TRANSLATED_LOCALES) {
    const name = translations[locale]?.name;
    if (name) names[locale] = name;
  }
  return names;
}

/**
 * A plan's texts in `locale`, each field falling back to English where the operator gave none. The
 * tier is only translated when the plan has one (a translated tier never makes a tier of its own).
 */
export function planText(plan: PlanText & { translations?: PlanTranslations }, locale: Locale): PlanText {
  const translation = locale === 'en' ? undefined : plan.translations?.[locale];
  if (!translation) return { name: plan.name, tier: plan.tier, features: plan.features };
  return {
    name: translation.name || plan.name,
    tier: plan.tier === null ? null : translation.tier || plan.tier,
    features: translation.features && translation.features.length > 0 ? translation.features : plan.features,
  };
}

/**
 * The plans with only the translation a page in `locale` reads (none for English): what that page embeds for
 * the browser, which shows the same text (`planText`). A page changes language by loading the other
 * language's page, so nothing else is needed there; the dashboard, which changes in place, asks for all.
 */
export function inLanguage<T extends { translations: PlanTranslations }>(plans: readonly T[], locale: Locale): T[] {
  return plans.map((plan) => {
    const translation = locale === 'en' ? undefined : plan.translations[locale];
    return { ...plan, translations: translation ? { [locale]: translation } : {} };
  });
}
