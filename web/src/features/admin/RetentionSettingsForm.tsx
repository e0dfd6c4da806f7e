import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import { RETENTION_DEFAULTS, type AdminSettings } from '../../../../shared/app-settings.js';
import { buttonClass } from './admin-ui';
import { TextField } from './form-fields';
import { parseDays, useSettingsSave } from './useSettingsSave';
import { SettingsSection } from './SettingsSection';

const R = RETENTION_DEFAULTS;

/**
 * 'Data retention': how long the daily purge keeps rows that are no longer used, and the audit log;
 * saved with PUT /api/admin/settings.
 */
export function RetentionSettingsForm({ settings }: { settings: Pick<AdminSettings, 'retentionDays' | 'auditRetentionDays'> }) {
  const [retentionDays, setRetentionDays] = useState(String(settings.retentionDays));
  const [auditRetentionDays, setAuditRetentionDays] = useState(String(settings.auditRetentionDays));
  const { _ } = useLingui();
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.retention.updated'), updateFailed: _('adminSettings.updateFailed') });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const days = parseDays(retentionDays, R.minDays, R.maxDays);
    const auditDays = parseDays(auditRetentionDays, R.minAuditDays, R.maxAuditDays);
    const invalid = {
      ...(days === null ? { retentionDays: _('adminSettings.daysRange', { min: R.minDays, max: R.maxDays }) } : {}),
      ...(auditDays === null ? { auditRetentionDays: _('adminSettings.daysRange', { min: R.minAuditDays, max: R.maxAuditDays }) } : {}),
    };
    await save({ retentionDays: days ?? undefined, auditRetentionDays: auditDays ?? undefined }, invalid, (saved) => {
      setRetentionDays(String(saved.retentionDays));
      setAuditRetentionDays(String(saved.auditRetentionDays));
    });
  }

  return (
    <SettingsSection title={_('adminSettings.retention.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.retention.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <TextField
          label={_('adminSettings.retention.rows')}
          type="number"
          inputMode="numeric"
          min={R.minDays}
          max={R.maxDays}
          step={1}
          value={retentionDays}
          onValueChange={setRetentionDays}
          error={fields.retentionDays}
          hint={_('adminSettings.retention.rowsHint', { gateDays: R.minGateDays, min: R.minDays, max: R.maxDays, defaultDays: R.days })}
          required
        />
        <TextField
          label={_('adminSettings.retention.audit')}
          type="number"
          inputMode="numeric"
          min={R.minAuditDays}
          max={R.maxAuditDays}
          step={1}
          value={auditRetentionDays}
          onValueChange={setAuditRetentionDays}
          error={fields.auditRetentionDays}
          hint={_('adminSettings.retention.auditHint', { min: R.minAuditDays, max: R.maxAuditDays, defaultDays: R.auditDays })}
          required
        />
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.retention.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
