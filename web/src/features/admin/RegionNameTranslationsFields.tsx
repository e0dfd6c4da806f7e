import { useLingui } from '@lingui/react';
import { HREFLANG, LOCALE_NAMES } from '../../../../shared/locales.js';
import { TRANSLATED_LOCALES, type TranslatedLocale } from '../../../../shared/plan-translations.js';
import { TextField } from './form-fields';

/**
 * A server's public region name in Russian, Persian and Chinese, under the name as written (which shows in a
 * language left empty): customers read the name in their own language on the dashboard and the status page.
 */
export function RegionNameTranslationsFields({
  publicName,
  values,
  onChange,
  fields,
  disabled,
}: {
  publicName: string;
  values: Record<TranslatedLocale, string>;
  onChange: (locale: TranslatedLocale, value: string) => void;
  fields: Record<string, string>;
  disabled: boolean;
}) {
  const { _ } = useLingui();
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      {TRANSLATED_LOCALES.map((locale) => (
        <TextField
          key={locale}
          label={_('admin.serverForm.publicNameIn', { language: LOCALE_NAMES[locale] })}
          lang={HREFLANG[locale]}
          dir="auto"
          value={values[locale]}
          onValueChange={(value) => onChange(locale, value)}
          placeholder={publicName}
          error={fields[`publicNameTranslations.${locale}`]}
          maxLength={60}
          disabled={disabled}
        />
      ))}
    </div>
  );
}
