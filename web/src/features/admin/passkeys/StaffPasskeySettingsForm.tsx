import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { AdminSettings } from '../../../../../shared/app-settings.js';
import { currencyDecimals } from '../../../../../shared/currencies.js';
import { buttonClass } from '../admin-ui';
import { CheckboxField, TextField } from '../form-fields';
import { SettingsSection } from '../SettingsSection';
import { useSettingsSave } from '../useSettingsSave';

/**
 * 'Security': whether every staff member must sign in with a passkey after the e-mailed code, and the refund amount
 * over which the passkey is asked again (in the store's currency; empty or 0 = never). Saving either asks for the
 * passkey again (the server's step-up); saved with PUT /api/admin/settings.
 */
export function StaffPasskeySettingsForm({ settings }: { settings: Pick<AdminSettings, 'staffPasskeysRequired' | 'refundStepUpAbove' | 'currency'> }) {
  const { _ } = useLingui();
  const unit = 10 ** currencyDecimals(settings.currency);
  const [required, setRequired] = useState(settings.staffPasskeysRequired);
  const [above, setAbove] = useState(settings.refundStepUpAbove > 0 ? String(settings.refundStepUpAbove / unit) : '');
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.security.updated'), updateFailed: _('adminSettings.updateFailed') });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const amount = above.trim() === '' ? 0 : Math.round(Number(above.replace(',', '.')) * unit);
    const invalid: Record<string, string> = Number.isFinite(amount) && amount >= 0 ? {} : { refundStepUpAbove: _('adminSettings.security.amountInvalid') };
    await save({ staffPasskeysRequired: required, refundStepUpAbove: amount }, invalid, (saved) => {
      setRequired(saved.staffPasskeysRequired);
      setAbove(saved.refundStepUpAbove > 0 ? String(saved.refundStepUpAbove / unit) : '');
    });
  }

  return (
    <SettingsSection title={_('adminSettings.security.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.security.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <CheckboxField
          label={_('adminSettings.security.required')}
          checked={required}
          onCheckedChange={setRequired}
          hint={_('adminSettings.security.requiredHint')}
        />
        <TextField
          label={_('adminSettings.security.refundAbove', { currency: settings.currency.toUpperCase() })}
          inputMode="decimal"
          value={above}
          onValueChange={setAbove}
          error={fields.refundStepUpAbove}
          hint={_('adminSettings.security.refundAboveHint')}
        />
        <div className="flex justify-end pt-2">
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.security.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
