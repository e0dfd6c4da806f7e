import { useState, type FormEvent } from 'react';
import { RENEWAL_DEFAULTS, type AdminSettings } from '../../../../shared/app-settings.js';
import { buttonClass } from './admin-ui';
import { CheckboxField, TextField } from './form-fields';
import { parseDays, useSettingsSave } from './useSettingsSave';
import { SettingsSection } from './SettingsSection';

const MESSAGES = {
  updated: 'Renewal settings updated',
  updateFailed: 'Failed to update settings',
  graceDays: `Enter a whole number of days from 0 to ${RENEWAL_DEFAULTS.maxGraceDays}.`,
} as const;

/**
 * 'Renewals': how long an account whose renewal charge failed keeps working, and whether customers
 * are reminded by e-mail before a renewal; saved with PUT /api/admin/settings.
 */
export function RenewalSettingsForm({ settings }: { settings: Pick<AdminSettings, 'renewalGraceDays' | 'renewalReminders'> }) {
  const [graceDays, setGraceDays] = useState(String(settings.renewalGraceDays));
  const [reminders, setReminders] = useState(settings.renewalReminders);
  const { fields, saving, save } = useSettingsSave(MESSAGES);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const renewalGraceDays = parseDays(graceDays, 0, RENEWAL_DEFAULTS.maxGraceDays);
    const invalid: Record<string, string> = renewalGraceDays === null ? { renewalGraceDays: MESSAGES.graceDays } : {};
    await save({ renewalGraceDays: renewalGraceDays ?? undefined, renewalReminders: reminders }, invalid, (saved) => {
      setGraceDays(String(saved.renewalGraceDays));
      setReminders(saved.renewalReminders);
    });
  }

  return (
    <SettingsSection title="Renewals">
      <p className="mt-1 text-sm text-slate-600">For plans that renew automatically, and reminders before a one-off plan ends.</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <TextField
          label="Grace period (days)"
          type="number"
          inputMode="numeric"
          min={0}
          max={RENEWAL_DEFAULTS.maxGraceDays}
          step={1}
          value={graceDays}
          onValueChange={setGraceDays}
          error={fields.renewalGraceDays}
          hint={`When a renewal payment fails, the account keeps working this many days after its paid period while the customer updates their card; then it is paused. 0 to ${RENEWAL_DEFAULTS.maxGraceDays}, default ${RENEWAL_DEFAULTS.graceDays}.`}
          required
        />
        <CheckboxField
          label="Send renewal reminders"
          checked={reminders}
          onCheckedChange={setReminders}
          hint="E-mail customers 3 days before a renewal charge, and before a one-off plan ends."
        />
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? 'Saving...' : 'Save renewal settings'}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
