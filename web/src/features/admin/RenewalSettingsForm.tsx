import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import { RENEWAL_DEFAULTS, type AdminSettings } from '../../../../shared/app-settings.js';
import { buttonClass } from './admin-ui';
import { CheckboxField, SelectField, TextField } from './form-fields';
import { PLAN_CHANGE_DOWNGRADES, type PlanChangeDowngrade } from '../../../../shared/plan-changes.js';
import { parseDays, useSettingsSave } from './useSettingsSave';
import { SettingsSection } from './SettingsSection';

/**
 * 'Renewals': how long an account whose renewal charge failed keeps working, whether customers are reminded by
 * e-mail before a renewal, and what a customer's change to a cheaper plan does; saved with PUT /api/admin/settings.
 */
export function RenewalSettingsForm({ settings }: { settings: Pick<AdminSettings, 'renewalGraceDays' | 'renewalReminders' | 'planChangeDowngrade'> }) {
  const [graceDays, setGraceDays] = useState(String(settings.renewalGraceDays));
  const [reminders, setReminders] = useState(settings.renewalReminders);
  const [downgrade, setDowngrade] = useState<PlanChangeDowngrade>(settings.planChangeDowngrade);
  const { _ } = useLingui();
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.renewal.updated'), updateFailed: _('adminSettings.updateFailed') });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const renewalGraceDays = parseDays(graceDays, 0, RENEWAL_DEFAULTS.maxGraceDays);
    const invalid: Record<string, string> =
      renewalGraceDays === null ? { renewalGraceDays: _('adminSettings.daysRange', { min: 0, max: RENEWAL_DEFAULTS.maxGraceDays }) } : {};
    await save({ renewalGraceDays: renewalGraceDays ?? undefined, renewalReminders: reminders, planChangeDowngrade: downgrade }, invalid, (saved) => {
      setGraceDays(String(saved.renewalGraceDays));
      setReminders(saved.renewalReminders);
      setDowngrade(saved.planChangeDowngrade);
    });
  }

  return (
    <SettingsSection title={_('adminSettings.renewal.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.renewal.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <TextField
          label={_('adminSettings.renewal.graceDays')}
          type="number"
          inputMode="numeric"
          min={0}
          max={RENEWAL_DEFAULTS.maxGraceDays}
          step={1}
          value={graceDays}
          onValueChange={setGraceDays}
          error={fields.renewalGraceDays}
          hint={_('adminSettings.renewal.graceDaysHint', { min: 0, max: RENEWAL_DEFAULTS.maxGraceDays, defaultDays: RENEWAL_DEFAULTS.graceDays })}
          required
        />
        <CheckboxField
          label={_('adminSettings.renewal.reminders')}
          checked={reminders}
          onCheckedChange={setReminders}
          hint={_('adminSettings.renewal.remindersHint')}
        />
        <SelectField
          label={_('adminSettings.renewal.downgrade')}
          value={downgrade}
          onValueChange={(value) => setDowngrade(value as PlanChangeDowngrade)}
          error={fields.planChangeDowngrade}
          hint={_('adminSettings.renewal.downgradeHint')}
        >
          {PLAN_CHANGE_DOWNGRADES.map((choice) => (
            <option key={choice} value={choice}>
              {_(`adminSettings.renewal.downgrade.${choice}`)}
            </option>
          ))}
        </SelectField>
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.renewal.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
