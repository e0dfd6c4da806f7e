import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import type { AdminPlan } from '../../../../shared/plans.js';
import { buttonClass } from './admin-ui';
import { SettingsSection } from './SettingsSection';
import { useSettingsSave } from './useSettingsSave';
import { useFormat } from '../../i18n/format';
import { SelectField, TextField } from './form-fields';

interface GeneralSettingsFormProps {
  settings: AdminSettings;
  plans: AdminPlan[];
}

/** Trial plan, brand name and support e-mail, saved together with PUT /api/admin/settings. */
export function GeneralSettingsForm({ settings, plans }: GeneralSettingsFormProps) {
  const [trialPlanId, setTrialPlanId] = useState(settings.trialPlanId ?? '');
  const [brandName, setBrandName] = useState(settings.brandName);
  const [supportEmail, setSupportEmail] = useState(settings.supportEmail);
  const { _ } = useLingui();
  const format = useFormat();
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.general.updated'), updateFailed: _('adminSettings.updateFailed') });
  const missingPlan = trialPlanId !== '' && !plans.some((plan) => plan.id === trialPlanId);
  const planLabel = (plan: AdminPlan) =>
    _(plan.status === 'active' ? 'adminSettings.general.planOption' : 'adminSettings.general.planOptionDisabled', {
      name: plan.name,
      duration: format.duration(plan.days),
      dataLimit: format.dataLimit(plan.dataLimitBytes),
    });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // An empty support address keeps the default (support@ the site's host) until one is entered.
    const email = supportEmail.trim();
    await save({ trialPlanId: trialPlanId || null, brandName: brandName.trim(), ...(email ? { supportEmail: email } : {}) }, {}, (saved) => {
      setTrialPlanId(saved.trialPlanId ?? '');
      setBrandName(saved.brandName);
      setSupportEmail(saved.supportEmail);
    });
  }

  return (
    <SettingsSection title={_('adminSettings.general.title')}>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <SelectField
          label={_('adminSettings.general.trialPlan')}
          value={trialPlanId}
          onValueChange={setTrialPlanId}
          error={fields.trialPlanId}
          hint={_('adminSettings.general.trialPlanHint')}
        >
          <option value="">{_('adminSettings.general.noTrialPlan')}</option>
          {missingPlan && <option value={trialPlanId}>{_('adminSettings.general.unknownPlan', { id: trialPlanId })}</option>}
          {plans.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {planLabel(plan)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={_('adminSettings.general.brandName')}
          value={brandName}
          onValueChange={setBrandName}
          error={fields.brandName}
          required
          maxLength={60}
        />
        <TextField
          label={_('adminSettings.general.supportEmail')}
          type="email"
          value={supportEmail}
          onValueChange={setSupportEmail}
          error={fields.supportEmail}
          placeholder="support@your-domain.com"
          hint={_('adminSettings.general.supportEmailHint')}
          autoComplete="off"
        />
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.general.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
