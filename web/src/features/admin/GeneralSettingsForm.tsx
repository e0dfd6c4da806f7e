import { useState, type FormEvent } from 'react';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import type { AdminPlan } from '../../../../shared/plans.js';
import { buttonClass } from './admin-ui';
import { SettingsSection } from './SettingsSection';
import { useSettingsSave } from './useSettingsSave';
import { formatDataLimit, formatDuration } from './admin-format';
import { SelectField, TextField } from './form-fields';

const MESSAGES = {
  updated: 'Settings updated successfully',
  updateFailed: 'Failed to update settings',
} as const;

interface GeneralSettingsFormProps {
  settings: AdminSettings;
  plans: AdminPlan[];
}

const planLabel = (plan: AdminPlan) =>
  `${plan.name} (${formatDuration(plan.days)}, ${formatDataLimit(plan.dataLimitBytes)})${plan.status === 'active' ? '' : ' - disabled'}`;

/** Trial plan, brand name and support e-mail, saved together with PUT /api/admin/settings. */
export function GeneralSettingsForm({ settings, plans }: GeneralSettingsFormProps) {
  const [trialPlanId, setTrialPlanId] = useState(settings.trialPlanId ?? '');
  const [brandName, setBrandName] = useState(settings.brandName);
  const [supportEmail, setSupportEmail] = useState(settings.supportEmail);
  const { fields, saving, save } = useSettingsSave(MESSAGES);
  const missingPlan = trialPlanId !== '' && !plans.some((plan) => plan.id === trialPlanId);

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
    <SettingsSection title="General">
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <SelectField
          label="Trial plan"
          value={trialPlanId}
          onValueChange={setTrialPlanId}
          error={fields.trialPlanId}
          hint="The plan a new customer gets with a free trial."
        >
          <option value="">No trial plan</option>
          {missingPlan && <option value={trialPlanId}>Unknown plan ({trialPlanId})</option>}
          {plans.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {planLabel(plan)}
            </option>
          ))}
        </SelectField>
        <TextField label="Brand name" value={brandName} onValueChange={setBrandName} error={fields.brandName} required maxLength={60} />
        <TextField
          label="Support e-mail"
          type="email"
          value={supportEmail}
          onValueChange={setSupportEmail}
          error={fields.supportEmail}
          placeholder="support@your-domain.com"
          hint="Shown on the site and in e-mails. Until you set it, the site shows support@ followed by its own host name."
          autoComplete="off"
        />
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? 'Saving...' : 'Save settings'}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
