import { useState, type FormEvent } from 'react';
import { RETENTION_DEFAULTS, type AdminSettings } from '../../../../shared/app-settings.js';
import { buttonClass } from './admin-ui';
import { TextField } from './form-fields';
import { parseDays, useSettingsSave } from './useSettingsSave';
import { SettingsSection } from './SettingsSection';

const R = RETENTION_DEFAULTS;

const MESSAGES = {
  updated: 'Data retention updated',
  updateFailed: 'Failed to update settings',
  retentionDays: `Enter a whole number of days from ${R.minDays} to ${R.maxDays}.`,
  auditRetentionDays: `Enter a whole number of days from ${R.minAuditDays} to ${R.maxAuditDays}.`,
} as const;

/**
 * 'Data retention': how long the daily purge keeps rows that are no longer used, and the audit log;
 * saved with PUT /api/admin/settings.
 */
export function RetentionSettingsForm({ settings }: { settings: Pick<AdminSettings, 'retentionDays' | 'auditRetentionDays'> }) {
  const [retentionDays, setRetentionDays] = useState(String(settings.retentionDays));
  const [auditRetentionDays, setAuditRetentionDays] = useState(String(settings.auditRetentionDays));
  const { fields, saving, save } = useSettingsSave(MESSAGES);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const days = parseDays(retentionDays, R.minDays, R.maxDays);
    const auditDays = parseDays(auditRetentionDays, R.minAuditDays, R.maxAuditDays);
    const invalid = {
      ...(days === null ? { retentionDays: MESSAGES.retentionDays } : {}),
      ...(auditDays === null ? { auditRetentionDays: MESSAGES.auditRetentionDays } : {}),
    };
    await save({ retentionDays: days ?? undefined, auditRetentionDays: auditDays ?? undefined }, invalid, (saved) => {
      setRetentionDays(String(saved.retentionDays));
      setAuditRetentionDays(String(saved.auditRetentionDays));
    });
  }

  return (
    <SettingsSection title="Data retention">
      <p className="mt-1 text-sm text-slate-600">Once a day, rows that are no longer used are deleted after these many days.</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <TextField
          label="Logs, codes, sessions, jobs and webhooks (days)"
          type="number"
          inputMode="numeric"
          min={R.minDays}
          max={R.maxDays}
          step={1}
          value={retentionDays}
          onValueChange={setRetentionDays}
          error={fields.retentionDays}
          hint={`Sign-in codes, sessions and refresh tokens after they expire or are signed out, provisioning and payment logs, finished jobs and processed webhook ids (these two at least ${R.minGateDays} days, so a repeated payment event or e-mail is still recognised). ${R.minDays} to ${R.maxDays}, default ${R.days}.`}
          required
        />
        <TextField
          label="Audit log (days)"
          type="number"
          inputMode="numeric"
          min={R.minAuditDays}
          max={R.maxAuditDays}
          step={1}
          value={auditRetentionDays}
          onValueChange={setAuditRetentionDays}
          error={fields.auditRetentionDays}
          hint={`Sign-ins and admin actions. ${R.minAuditDays} to ${R.maxAuditDays}, default ${R.auditDays}.`}
          required
        />
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? 'Saving...' : 'Save data retention'}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
