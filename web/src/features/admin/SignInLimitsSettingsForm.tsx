import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import { SIGN_IN_LIMIT_DEFAULTS, SIGN_IN_LIMITS } from '../../../../shared/sign-in-limits.js';
import { buttonClass } from './admin-ui';
import { TextField } from './form-fields';
import { parseDays as parseWhole, useSettingsSave } from './useSettingsSave';
import { SettingsSection } from './SettingsSection';

const L = SIGN_IN_LIMITS;

/**
 * 'Sign-in limits': how many sign-in codes an e-mail address (per hour) and a network (per 15 minutes) may ask
 * for; a carrier's shared address is many customers, so the network number is high (docs/rate-limits.md).
 * Saved with PUT /api/admin/settings (`signInLimits`).
 */
export function SignInLimitsSettingsForm({ settings }: { settings: Pick<AdminSettings, 'signInLimits'> }) {
  const current = settings.signInLimits ?? SIGN_IN_LIMIT_DEFAULTS;
  const [perEmail, setPerEmail] = useState(String(current.codesPerEmail));
  const [perNetwork, setPerNetwork] = useState(String(current.codesPerNetwork));
  const { _ } = useLingui();
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.signInLimits.updated'), updateFailed: _('adminSettings.updateFailed') });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const codesPerEmail = parseWhole(perEmail, L.codesPerEmail.min, L.codesPerEmail.max);
    const codesPerNetwork = parseWhole(perNetwork, L.codesPerNetwork.min, L.codesPerNetwork.max);
    const range = (rule: { min: number; max: number }) => _('adminSettings.signInLimits.range', { min: rule.min, max: rule.max });
    const invalid = {
      ...(codesPerEmail === null ? { 'signInLimits.codesPerEmail': range(L.codesPerEmail) } : {}),
      ...(codesPerNetwork === null ? { 'signInLimits.codesPerNetwork': range(L.codesPerNetwork) } : {}),
    };
    const patch = codesPerEmail !== null && codesPerNetwork !== null ? { signInLimits: { codesPerEmail, codesPerNetwork } } : {};
    await save(patch, invalid, (saved) => {
      const limits = saved.signInLimits ?? SIGN_IN_LIMIT_DEFAULTS;
      setPerEmail(String(limits.codesPerEmail));
      setPerNetwork(String(limits.codesPerNetwork));
    });
  }

  return (
    <SettingsSection title={_('adminSettings.signInLimits.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.signInLimits.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <TextField
          label={_('adminSettings.signInLimits.perEmail')}
          type="number"
          inputMode="numeric"
          min={L.codesPerEmail.min}
          max={L.codesPerEmail.max}
          step={1}
          value={perEmail}
          onValueChange={setPerEmail}
          error={fields['signInLimits.codesPerEmail']}
          hint={_('adminSettings.signInLimits.perEmailHint', { defaultCount: L.codesPerEmail.default })}
          required
        />
        <TextField
          label={_('adminSettings.signInLimits.perNetwork')}
          type="number"
          inputMode="numeric"
          min={L.codesPerNetwork.min}
          max={L.codesPerNetwork.max}
          step={1}
          value={perNetwork}
          onValueChange={setPerNetwork}
          error={fields['signInLimits.codesPerNetwork']}
          hint={_('adminSettings.signInLimits.perNetworkHint', { defaultCount: L.codesPerNetwork.default })}
          required
        />
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.signInLimits.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
