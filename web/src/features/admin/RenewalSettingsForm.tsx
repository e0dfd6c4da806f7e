import { useState, type FormEvent } from 'react';
import { RENEWAL_DEFAULTS, type AdminSettings } from '../../../../shared/app-settings.js';
import { adminApi } from '../../api/admin-endpoints';
import { useToast } from '../toast/toast-context';
import { buttonClass } from './admin-ui';
import { errorMessage, fieldErrors } from './admin-errors';
import { CheckboxField, TextField } from './form-fields';
import { SettingsSection } from './SettingsSection';

const MESSAGES = {
  updated: 'Renewal settings updated',
  updateFailed: 'Failed to update settings',
  graceDays: `Enter a whole number of days from 0 to ${RENEWAL_DEFAULTS.maxGraceDays}.`,
} as const;

/** The grace period typed, or null when it is not a whole number of days in range. */
function parseGraceDays(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const days = Number(text);
  return days <= RENEWAL_DEFAULTS.maxGraceDays ? days : null;
}

/**
 * 'Renewals': how long an account whose renewal charge failed keeps working, and whether customers
 * are reminded by e-mail before a renewal; saved with PUT /api/admin/settings.
 */
export function RenewalSettingsForm({ settings }: { settings: Pick<AdminSettings, 'renewalGraceDays' | 'renewalReminders'> }) {
  const toast = useToast();
  const [graceDays, setGraceDays] = useState(String(settings.renewalGraceDays));
  const [reminders, setReminders] = useState(settings.renewalReminders);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const renewalGraceDays = parseGraceDays(graceDays);
    if (renewalGraceDays === null) {
      setFields({ renewalGraceDays: MESSAGES.graceDays });
      return;
    }
    setSaving(true);
    setFields({});
    try {
      const saved = await adminApi.settings.update({ renewalGraceDays, renewalReminders: reminders });
      toast.success(MESSAGES.updated);
      setGraceDays(String(saved.renewalGraceDays));
      setReminders(saved.renewalReminders);
    } catch (err) {
      toast.error(errorMessage(err, MESSAGES.updateFailed));
      setFields(fieldErrors(err));
    } finally {
      setSaving(false);
    }
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
