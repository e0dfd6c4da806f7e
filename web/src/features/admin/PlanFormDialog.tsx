import { useState, type FormEvent } from 'react';
import { describeInterval, renewalIntervalOf } from '../../../../shared/plan-billing.js';
import { PLAN_BILLINGS, PLAN_PRICING_LIMITS, type AdminPlan, type PlanBilling } from '../../../../shared/plans.js';
import { adminApi } from '../../api/admin-endpoints';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { errorMessage, fieldErrors } from './admin-errors';
import { Dialog } from './Dialog';
import { CheckboxField, SelectField, TextAreaField, TextField } from './form-fields';
import { daysOf, NEW_PLAN_VALUES, planFormProblems, toPlanBody, valuesFromPlan, withHoursMode, type PlanFormValues } from './plan-form';

const MESSAGES = {
  addFailed: 'Failed to add plan',
  updateFailed: 'Failed to update plan',
} as const;

interface PlanFormDialogProps {
  /** The plan being edited, or null to create one. */
  plan: AdminPlan | null;
  onClose: () => void;
  onSaved: (plan: AdminPlan) => void;
}

const BILLING_LABELS: Record<PlanBilling, string> = { one_off: 'One-off', recurring: 'Renews automatically' };

/** What the chosen billing means for the customer, under the select. */
function billingHint(values: PlanFormValues): string {
  if (values.billing === 'one_off') return 'Paid once for its duration; the customer renews it by hand if they want to.';
  const interval = renewalIntervalOf(daysOf(values));
  return interval
    ? `Charged ${describeInterval(interval)} until the customer cancels.`
    : 'Charged every period until the customer cancels.';
}

/** A server error about one feature line (`features.2`) shows under the feature box. */
const featuresError = (fields: Record<string, string>) =>
  fields.features ?? Object.entries(fields).find(([key]) => key.startsWith('features.'))?.[1];

/**
 * Create or edit a plan; hours mode switches duration to hours and data to MB. The last part is how
 * the plan shows on the pricing page (tier, feature lines, order, badge, listed or not).
 */
export function PlanFormDialog({ plan, onClose, onSaved }: PlanFormDialogProps) {
  const [values, setValues] = useState<PlanFormValues>(() => (plan ? valuesFromPlan(plan) : NEW_PLAN_VALUES));
  const [formError, setFormError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof PlanFormValues>(key: K) => (value: PlanFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const problems = planFormProblems(values);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (problems.billing) {
      setFormError(problems.billing);
      return;
    }
    setSaving(true);
    setFormError(null);
    setFields({});
    try {
      const body = toPlanBody(values);
      onSaved(plan ? await adminApi.plans.update(plan.id, body) : await adminApi.plans.create(body));
    } catch (err) {
      setFormError(errorMessage(err, plan ? MESSAGES.updateFailed : MESSAGES.addFailed));
      setFields(fieldErrors(err));
      setSaving(false);
    }
  }

  const { hoursMode } = values;
  return (
    <Dialog title={plan ? `Edit ${plan.name}` : 'Create plan'} onClose={() => !saving && onClose()}>
      <form onSubmit={(event) => void onSubmit(event)} className="space-y-4">
        {formError && <AlertBox reveal>{formError}</AlertBox>}
        <TextField label="Name" value={values.name} onValueChange={set('name')} error={fields.name} required maxLength={120} disabled={saving} />
        <CheckboxField
          label="Hours mode"
          checked={hoursMode}
          onCheckedChange={(checked) => setValues((current) => withHoursMode(current, checked))}
          hint="For short plans: duration in hours and data in MB."
          disabled={saving}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={hoursMode ? 'Duration (hours)' : 'Duration (days)'}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={values.duration}
            onValueChange={set('duration')}
            error={fields.days}
            required
            disabled={saving}
          />
          <TextField
            label={hoursMode ? 'Data limit (MB)' : 'Data limit (GB)'}
            type="number"
            inputMode="decimal"
            min={1}
            step="any"
            value={values.dataLimit}
            onValueChange={set('dataLimit')}
            error={fields.dataLimitBytes}
            required
            disabled={saving}
          />
        </div>
        <TextField
          label="Price (USD)"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          value={values.price}
          onValueChange={set('price')}
          error={fields.price}
          hint="0 makes a free plan."
          required
          disabled={saving}
        />
        <SelectField
          label="Billing"
          value={values.billing}
          onValueChange={(value) => set('billing')(value as PlanBilling)}
          error={problems.billing ?? fields.billing}
          hint={billingHint(values)}
          disabled={saving}
        >
          {PLAN_BILLINGS.map((billing) => (
            <option key={billing} value={billing}>
              {BILLING_LABELS[billing]}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Locations"
          value={values.locations}
          onValueChange={set('locations')}
          error={fields.locations}
          placeholder="all"
          hint="Optional: comma-separated location codes such as DE,NL. Empty or 'all' means all."
          maxLength={500}
          disabled={saving}
        />
        <CheckboxField label="Active" checked={values.active} onCheckedChange={set('active')} hint="Only active plans are offered to customers." disabled={saving} />
        <CheckboxField label="Trial plan" checked={values.isTrial} onCheckedChange={set('isTrial')} hint="Each customer can use a trial plan once." disabled={saving} />
        <fieldset className="space-y-4 rounded-xl border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-900">Pricing page</legend>
          <CheckboxField
            label="Show on the pricing page"
            checked={values.public}
            onCheckedChange={set('public')}
            hint="Listed on the public pricing and home pages when active. A trial plan is never listed there."
            disabled={saving}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Tier name"
              value={values.tier}
              onValueChange={set('tier')}
              error={fields.tier}
              placeholder="Plus"
              hint="Plans with the same tier name are one card with a period toggle."
              maxLength={PLAN_PRICING_LIMITS.tierLength}
              disabled={saving}
            />
            <TextField
              label="Display order"
              type="number"
              inputMode="numeric"
              step={1}
              value={values.sortOrder}
              onValueChange={set('sortOrder')}
              error={fields.sortOrder}
              hint="Smaller first, on the pricing page and the dashboard."
              disabled={saving}
            />
          </div>
          <TextAreaField
            label="Features"
            value={values.features}
            onValueChange={set('features')}
            error={featuresError(fields)}
            rows={5}
            placeholder={'300 GB of data every month\nServers in every location'}
            hint={`One per line, up to ${PLAN_PRICING_LIMITS.features} lines of ${PLAN_PRICING_LIMITS.featureLength} characters.`}
            disabled={saving}
          />
          <CheckboxField
            label="Most popular"
            checked={values.mostPopular}
            onCheckedChange={set('mostPopular')}
            hint="Highlights the card with a 'Most Popular' badge."
            disabled={saving}
          />
        </fieldset>
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <button type="button" onClick={onClose} disabled={saving} className={buttonClass.secondary}>
            Cancel
          </button>
          <button type="submit" disabled={saving} className={buttonClass.primary}>
            {saving ? 'Saving...' : plan ? 'Save changes' : 'Create plan'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
