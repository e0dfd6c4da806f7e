import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import { HREFLANG, LOCALE_NAMES, type Locale } from '../../../../shared/locales.js';
import { TRANSLATED_LOCALES, type TranslatedLocale } from '../../../../shared/plan-translations.js';
import { PLAN_PRICING_LIMITS } from '../../../../shared/plans.js';
import { TextAreaField, TextField } from './form-fields';
import type { PlanFormValues, TranslationValues } from './plan-form';

interface PlanTextsFieldsProps {
  values: PlanFormValues;
  onChange: (update: (current: PlanFormValues) => PlanFormValues) => void;
  /** The server's field errors (`name`, `features.2`, `translations.ru.name`, …). */
  fields: Record<string, string>;
  disabled: boolean;
}

/** The server's error about a list of lines (`features`) or one of them (`features.2`), under `prefix`. */
const linesError = (fields: Record<string, string>, prefix: string) =>
  fields[prefix] ?? Object.entries(fields).find(([key]) => key.startsWith(`${prefix}.`))?.[1];

/** One language's column: its name and whether it is required (the labels stay in the admin's language and direction). */
function LanguageColumn({ locale, note, children }: { locale: Locale; note: string; children: ReactNode }) {
  return (
    <div className="space-y-3 rounded-lg bg-slate-50 p-3" data-plan-language={locale}>
      <p className="text-sm font-semibold text-slate-900">
        <span lang={HREFLANG[locale]}>{LOCALE_NAMES[locale]}</span> <span className="font-normal text-slate-500">· {note}</span>
      </p>
      {children}
    </div>
  );
}

/**
 * A plan's name, tier and feature lines in the site's four languages side by side (stacked on a phone):
 * English is the plan's own text and required; each other language is optional, shows the English as
 * its placeholder, and falls back to it field by field where it is left empty.
 */
export function PlanTextsFields({ values, onChange, fields, disabled }: PlanTextsFieldsProps) {
  const { _ } = useLingui();
  const set =
    <K extends 'name' | 'tier' | 'features'>(key: K) =>
    (value: string) =>
      onChange((current) => ({ ...current, [key]: value }));
  const setTranslation = (locale: TranslatedLocale, key: keyof TranslationValues) => (value: string) =>
    onChange((current) => ({ ...current, translations: { ...current.translations, [locale]: { ...current.translations[locale], [key]: value } } }));
  const featuresHint = _('admin.planForm.featuresHint', { lines: String(PLAN_PRICING_LIMITS.features), length: String(PLAN_PRICING_LIMITS.featureLength) });
  const hasTier = values.tier.trim() !== '';

  return (
    <fieldset className="space-y-3 rounded-xl border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-900">{_('admin.planForm.texts')}</legend>
      <p className="text-xs text-slate-500">{_('admin.planForm.textsHint')}</p>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <LanguageColumn locale="en" note={_('admin.planForm.required')}>
          <TextField
            label={_('admin.planForm.name')}
            value={values.name}
            onValueChange={set('name')}
            error={fields.name}
            required
            maxLength={120}
            disabled={disabled}
          />
          <TextField
            label={_('admin.planForm.tier')}
            value={values.tier}
            onValueChange={set('tier')}
            error={fields.tier}
            placeholder={_('admin.planForm.tierPlaceholder')}
            hint={_('admin.planForm.tierHint')}
            maxLength={PLAN_PRICING_LIMITS.tierLength}
            disabled={disabled}
          />
          <TextAreaField
            label={_('admin.planForm.features')}
            value={values.features}
            onValueChange={set('features')}
            error={linesError(fields, 'features')}
            rows={5}
            placeholder={_('admin.planForm.featuresPlaceholder')}
            hint={featuresHint}
            disabled={disabled}
          />
        </LanguageColumn>
        {TRANSLATED_LOCALES.map((locale) => {
          const typed = values.translations[locale];
          const language = LOCALE_NAMES[locale];
          const prefix = `translations.${locale}`;
          // Typed in that language: a Persian line runs right to left, the English placeholder left to right.
          const textProps = { lang: HREFLANG[locale], dir: 'auto' } as const;
          return (
            <LanguageColumn key={locale} locale={locale} note={_('admin.planForm.optional')}>
              <TextField
                label={_('admin.planForm.translatedName', { language })}
                value={typed.name}
                onValueChange={setTranslation(locale, 'name')}
                {...textProps}
                error={fields[`${prefix}.name`]}
                placeholder={values.name}
                maxLength={120}
                disabled={disabled}
              />
              <TextField
                label={_('admin.planForm.translatedTier', { language })}
                value={typed.tier}
                onValueChange={setTranslation(locale, 'tier')}
                {...textProps}
                error={fields[`${prefix}.tier`]}
                placeholder={values.tier}
                hint={hasTier ? undefined : _('admin.planForm.translatedTierNeedsTier')}
                maxLength={PLAN_PRICING_LIMITS.tierLength}
                disabled={disabled || !hasTier}
              />
              <TextAreaField
                label={_('admin.planForm.translatedFeatures', { language })}
                value={typed.features}
                onValueChange={setTranslation(locale, 'features')}
                {...textProps}
                error={linesError(fields, `${prefix}.features`) ?? fields[prefix]}
                rows={5}
                placeholder={values.features}
                disabled={disabled}
              />
            </LanguageColumn>
          );
        })}
      </div>
      {fields.translations && <p className="text-sm text-red-700">{fields.translations}</p>}
    </fieldset>
  );
}
