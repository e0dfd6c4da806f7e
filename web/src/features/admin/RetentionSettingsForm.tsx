import { useState, type FormEvent } from 'react';
import { RETENTION_DEFAULTS, type AdminSettings } from '../../../../shared/app-settings.js';
import { adminApi } from '../../api/admin-endpoints';
import { useToast } from '../toast/toast-context';
import { buttonClass } from './admin-ui';
import { errorMessage, fieldErrors } from './admin-errors';
import { TextField } from './form-fields';
import { SettingsSection } from './SettingsSection';

const R = RETENTION_DEFAULTS;

const MESSAGES = {
  updated: 'Data retention updated',
  updateFailed: 'Failed to update settings',
  retentionDays: `Enter a whole number of days from ${R.minDays} to ${R.maxDays}.`,
  auditRetentionDays: `Enter a whole number of days from ${R.minAuditDays} to ${R.maxAuditDays}.`,
} as const;

/** The days typed, or null when it is not a whole number in [min, max]. */
function parseDays(text: string, min: number, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const days = Number(text);
  return days >= min && days <= max ? days : null;
}

/**
 * 'Data retention': how long the daily purge keeps rows that are no longer used, and the audit log;
 * saved with PUT /api/admin/settings.
 */
export function RetentionSettingsForm({ settings }: { settings: Pick<AdminSettings, 'retentionDays' | 'auditRetentionDays'> }) {
  const toast = useToast();
  const [retentionDays, setRetentionDays] = useState(String(settings.retentionDays));
  const [auditRetentionDays, setAuditRetentionDays] = useState(String(settings.auditRetentionDays));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const days = parseDays(retentionDays, R.minDays, R.maxDays);
    const auditDays = parseDays(auditRetentionDays, R.minAuditDays, R.maxAuditDays);
    if (days === null || auditDays === null) {
      setFields({
        ...(days === null ? { retentionDays: MESSAGES.retentionDays } : {}),
        ...(auditDays === null ? { auditRetentionDays: MESSAGES.auditRetentionDays } : {}),
      });
      return;
    }
    setSaving(true);
    setFields({});
    try {
      const saved = await adminApi.settings.update({ retentionDays: days, auditRetentionDays: auditDays });
      toast.success(MESSAGES.updated);
      setRetentionDays(String(saved.retentionDays));
      setAuditRetentionDays(String(saved.auditRetentionDays));
    } catch (err) {
      toast.error(errorMessage(err, MESSAGES.updateFailed));
      setFields(fieldErrors(err));
    } finally {
      setSaving(false);
    }
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
