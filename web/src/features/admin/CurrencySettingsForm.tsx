import { useLingui } from '@lingui/react';
import { useMemo, useState, type FormEvent } from 'react';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import { SUPPORTED_CURRENCIES } from '../../../../shared/currencies.js';
import { useUpdateConfig } from '../config/config-context';
import { useFormat } from '../../i18n/format';
import { buttonClass } from './admin-ui';
import { SelectField } from './form-fields';
import { SettingsSection } from './SettingsSection';
import { useSettingsSave } from './useSettingsSave';

/** 'EUR · Euro' in the admin's language (the code alone where the browser has no name for it). */
function useCurrencyNames(): Map<string, string> {
  const { locale } = useFormat();
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'currency', fallback: 'none' });
    return new Map(
      SUPPORTED_CURRENCIES.map((code) => {
        const name = names.of(code.toUpperCase());
        return [code, name ? `${code.toUpperCase()} · ${name}` : code.toUpperCase()];
      }),
    );
  }, [locale]);
}

/**
 * 'Currency': what the store sells in (any currency Stripe supports); saved with PUT /api/admin/settings.
 * Plan prices are not converted: the same number reads in the new currency, so the hint says to check them.
 */
export function CurrencySettingsForm({ settings }: { settings: Pick<AdminSettings, 'currency'> }) {
  const { _ } = useLingui();
  const names = useCurrencyNames();
  const updateConfig = useUpdateConfig();
  const [currency, setCurrency] = useState(settings.currency);
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.currency.updated'), updateFailed: _('adminSettings.updateFailed') });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await save({ currency }, {}, (saved) => {
      setCurrency(saved.currency);
      // The plan editor and price lists on this page read prices in it from now on.
      updateConfig({ currency: saved.currency });
    });
  }

  return (
    <SettingsSection title={_('adminSettings.currency.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.currency.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <SelectField
          label={_('adminSettings.currency.label')}
          value={currency}
          onValueChange={setCurrency}
          error={fields.currency}
          hint={_('adminSettings.currency.hint')}
        >
          {SUPPORTED_CURRENCIES.map((code) => (
            <option key={code} value={code}>
              {names.get(code)}
            </option>
          ))}
        </SelectField>
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.currency.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
