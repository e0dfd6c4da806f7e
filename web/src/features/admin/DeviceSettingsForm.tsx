import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import { DEVICELESS_CLIENTS_DEFAULT, type AdminSettings } from '../../../../shared/app-settings.js';
import { DEVICELESS_CLIENT_POLICIES, DEVICELESS_WINDOW, type DevicelessClientPolicy } from '../../../../shared/devices.js';
import { buttonClass } from './admin-ui';
import { SelectField, TextField } from './form-fields';
import { SettingsSection } from './SettingsSection';
import { useSettingsSave } from './useSettingsSave';

const POLICY_LABEL_IDS: Record<DevicelessClientPolicy, string> = {
  allow: 'adminSettings.devices.allow',
  refuse: 'adminSettings.devices.refuse',
  count: 'adminSettings.devices.count',
};

/** The one-line explanation under the select, for the policy chosen. */
const POLICY_HINT_IDS: Record<DevicelessClientPolicy, string> = {
  allow: 'adminSettings.devices.allowHint',
  refuse: 'adminSettings.devices.refuseHint',
  count: 'adminSettings.devices.countHint',
};

/**
 * 'Devices': what a VPN app that sends no device id gets on an account whose plan limits devices (served
 * without counting, refused, or counted by its app and address for a window); saved with PUT /api/admin/settings.
 */
export function DeviceSettingsForm({ settings }: { settings: Pick<AdminSettings, 'devicelessClients' | 'devicelessWindowHours'> }) {
  const { _ } = useLingui();
  const [policy, setPolicy] = useState<DevicelessClientPolicy>(settings.devicelessClients ?? DEVICELESS_CLIENTS_DEFAULT);
  const [hours, setHours] = useState(String(settings.devicelessWindowHours ?? DEVICELESS_WINDOW.defaultHours));
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.devices.updated'), updateFailed: _('adminSettings.updateFailed') });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const windowHours = Number(hours);
    const invalid: Record<string, string> = Number.isInteger(windowHours) ? {} : { devicelessWindowHours: _('adminSettings.devices.windowInvalid') };
    await save(
      { devicelessClients: policy, ...(policy === 'count' ? { devicelessWindowHours: windowHours } : {}) },
      policy === 'count' ? invalid : {},
      (saved) => {
        setPolicy(saved.devicelessClients);
        setHours(String(saved.devicelessWindowHours));
      },
    );
  }

  return (
    <SettingsSection title={_('adminSettings.devices.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.devices.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <SelectField
          label={_('adminSettings.devices.deviceless')}
          value={policy}
          onValueChange={(value) => setPolicy(value as DevicelessClientPolicy)}
          error={fields.devicelessClients}
          hint={_(POLICY_HINT_IDS[policy])}
        >
          {DEVICELESS_CLIENT_POLICIES.map((option) => (
            <option key={option} value={option}>
              {_(POLICY_LABEL_IDS[option])}
            </option>
          ))}
        </SelectField>
        {policy === 'count' && (
          <TextField
            label={_('adminSettings.devices.window')}
            inputMode="numeric"
            value={hours}
            onValueChange={setHours}
            error={fields.devicelessWindowHours}
            hint={_('adminSettings.devices.windowHint', { min: DEVICELESS_WINDOW.minHours, max: DEVICELESS_WINDOW.maxHours })}
          />
        )}
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.devices.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
