import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import { decimalToMinor, minorToDecimal } from '../../../../shared/money.js';
import { buttonClass } from './admin-ui';
import { CheckboxField, TextField } from './form-fields';
import { SettingsSection } from './SettingsSection';
import { useSettingsSave } from './useSettingsSave';

/**
 * 'Balance': whether customers may top up their balance, and the least and most at once, in the store's currency
 * (typed as people write money, saved in its minor units with PUT /api/admin/settings).
 */
export function WalletSettingsForm({ settings }: { settings: Pick<AdminSettings, 'walletTopUps' | 'currency'> }) {
  const { currency } = settings;
  const [enabled, setEnabled] = useState(settings.walletTopUps.enabled);
  const [min, setMin] = useState(minorToDecimal(settings.walletTopUps.min, currency));
  const [max, setMax] = useState(minorToDecimal(settings.walletTopUps.max, currency));
  const { _ } = useLingui();
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.wallet.updated'), updateFailed: _('adminSettings.updateFailed') });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parse = (text: string) => decimalToMinor(text.trim().replace(',', '.'), currency, { roundExtra: false });
    const [least, most] = [parse(min), parse(max)];
    const invalid: Record<string, string> = {};
    if (least === null || least <= 0) invalid['walletTopUps.min'] = _('adminSettings.wallet.amountInvalid');
    if (most === null || most <= 0) invalid['walletTopUps.max'] = _('adminSettings.wallet.amountInvalid');
    await save({ walletTopUps: { enabled, min: least ?? 0, max: most ?? 0 } }, invalid, (saved) => {
      setEnabled(saved.walletTopUps.enabled);
      setMin(minorToDecimal(saved.walletTopUps.min, saved.currency));
      setMax(minorToDecimal(saved.walletTopUps.max, saved.currency));
    });
  }

  return (
    <SettingsSection title={_('adminSettings.wallet.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.wallet.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <CheckboxField label={_('adminSettings.wallet.enabled')} checked={enabled} onCheckedChange={setEnabled} hint={_('adminSettings.wallet.enabledHint')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={_('adminSettings.wallet.min', { currency: currency.toUpperCase() })}
            inputMode="decimal"
            value={min}
            onValueChange={setMin}
            error={fields['walletTopUps.min']}
          />
          <TextField
            label={_('adminSettings.wallet.max', { currency: currency.toUpperCase() })}
            inputMode="decimal"
            value={max}
            onValueChange={setMax}
            error={fields['walletTopUps.max']}
          />
        </div>
        <div className="flex justify-end pt-2">
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.wallet.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
