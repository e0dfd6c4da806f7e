import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { AdminSettings, SiteContentTranslations } from '../../../../shared/app-settings.js';
import { HREFLANG, LOCALE_NAMES } from '../../../../shared/locales.js';
import { TRANSLATED_LOCALES, type TranslatedLocale } from '../../../../shared/plan-translations.js';
import type { AdminServer } from '../../../../shared/servers.js';
import { adminApi } from '../../api/admin-endpoints';
import { buttonClass } from './admin-ui';
import { CheckboxField, TextField } from './form-fields';
import { useSettingsSave } from './useSettingsSave';
import { SettingsSection } from './SettingsSection';
import { useAdminResource } from './useAdminResource';

/**
 * 'Site content': what the public pages claim about the service, so they never promise more than the
 * operator runs: the number of locations (per language where the operator words it otherwise, each one
 * falling back to the English), and whether threat protection and ad blocking are offered.
 * The brand and support address are in General; each server's public region name is on the server.
 */
export function SiteContentSettingsForm({ settings }: { settings: Pick<AdminSettings, 'locationsClaim' | 'protectionFeatures' | 'siteContentTranslations'> }) {
  const [locations, setLocations] = useState(settings.locationsClaim);
  const [translatedLocations, setTranslatedLocations] = useState(() => claimsOf(settings.siteContentTranslations));
  const [protection, setProtection] = useState(settings.protectionFeatures);
  const { _ } = useLingui();
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.siteContent.updated'), updateFailed: _('adminSettings.updateFailed') });
  const { data: servers } = useAdminResource(adminApi.servers.list, 0);
  const regions = publicRegions(servers ?? []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await save(
      { locationsClaim: locations.trim(), protectionFeatures: protection, siteContentTranslations: translationsOf(translatedLocations) },
      {},
      (saved) => {
        setLocations(saved.locationsClaim);
        setProtection(saved.protectionFeatures);
        setTranslatedLocations(claimsOf(saved.siteContentTranslations));
      },
    );
  }

  return (
    <SettingsSection title={_('adminSettings.siteContent.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.siteContent.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <TextField
          label={_('adminSettings.siteContent.locations')}
          value={locations}
          onValueChange={setLocations}
          error={fields.locationsClaim}
          maxLength={12}
          hint={_('adminSettings.siteContent.locationsHint')}
          required
        />
        {regions.length > 0 && (
          <p className="-mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
            <span>{_('adminSettings.siteContent.regions', { count: regions.length, regions: regions.join(', ') })}</span>
            {locations.trim() !== String(regions.length) && (
              <button type="button" onClick={() => setLocations(String(regions.length))} className="font-semibold text-indigo-700 underline">
                {_('adminSettings.siteContent.useCount', { count: regions.length })}
              </button>
            )}
          </p>
        )}
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">{_('adminSettings.siteContent.locationsTranslated')}</legend>
          <p className="mt-1 text-xs text-slate-500">{_('adminSettings.siteContent.locationsTranslatedHint')}</p>
          <div className="mt-2 grid gap-3 sm:grid-cols-3">
            {TRANSLATED_LOCALES.map((locale) => (
              <div key={locale}>
                <TextField
                  label={LOCALE_NAMES[locale]}
                  lang={HREFLANG[locale]}
                  dir="auto"
                  value={translatedLocations[locale]}
                  onValueChange={(value) => setTranslatedLocations((current) => ({ ...current, [locale]: value }))}
                  error={fields[`siteContentTranslations.${locale}.locationsClaim`]}
                  placeholder={locations}
                  maxLength={12}
                />
              </div>
            ))}
          </div>
        </fieldset>
        <CheckboxField
          label={_('adminSettings.siteContent.protection')}
          checked={protection}
          onCheckedChange={setProtection}
          hint={_('adminSettings.siteContent.protectionHint')}
        />
        <div className="flex justify-end pt-2">
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.siteContent.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}

/** Each other language's claim as typed: empty where none is given. */
function claimsOf(translations: SiteContentTranslations): Record<TranslatedLocale, string> {
  return Object.fromEntries(TRANSLATED_LOCALES.map((locale) => [locale, translations[locale]?.locationsClaim ?? ''])) as Record<TranslatedLocale, string>;
}

/** The claims to save: the whole object, a language left empty left out (it shows the English claim). */
function translationsOf(claims: Record<TranslatedLocale, string>): SiteContentTranslations {
  const translations: SiteContentTranslations = {};
  for (const locale of TRANSLATED_LOCALES) {
    const claim = claims[locale].trim();
    if (claim) translations[locale] = { locationsClaim: claim };
  }
  return translations;
}

/** The distinct public region names of the enabled servers (a server without one counts as its own location). */
function publicRegions(servers: readonly AdminServer[]): string[] {
  const enabled = servers.filter((server) => server.status === 'active');
  return [...new Set(enabled.map((server) => server.publicName ?? server.name))].sort((a, b) => a.localeCompare(b));
}
