import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import { renewalIntervalOf } from '../../../../shared/plan-billing.js';
import { DEVICE_LIMIT_MAX } from '../../../../shared/devices.js';
import { PLAN_BILLINGS, STARS_PRICE_MAX, type AdminPlan, type PlanBilling } from '../../../../shared/plans.js';
import { currencyDecimals } from '../../../../shared/currencies.js';
import { adminApi } from '../../api/admin-endpoints';
import { useConfig } from '../config/config-context';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { errorMessage, fieldErrors } from './admin-errors';
import { Dialog } from './Dialog';
import { CheckboxField, SelectField, TextField } from './form-fields';
import { PlanServersFields } from './PlanServersFields';
import { PlanTextsFields } from './PlanTextsFields';
import { PlanTrafficFields } from './PlanTrafficFields';
import {
  daysOf,
  intervalText,
  NEW_PLAN_VALUES,
  planFormProblems,
  toPlanBody,
  valuesFromPlan,
  withHoursMode,
  type PlanFormValues,
  type Translate,
} from './plan-form';

const MESSAGES = {
  addFailed: 'admin.planForm.addFailed',
  updateFailed: 'admin.planForm.updateFailed',
} as const;

interface PlanFormDialogProps {
  /** The plan being edited, or null to create one. */
  plan: AdminPlan | null;
  onClose: () => void;
  onSaved: (plan: AdminPlan) => void;
}

const BILLING_LABEL_IDS: Record<PlanBilling, string> = { one_off: 'admin.plans.oneOff', recurring: 'admin.planForm.billingRecurring' };

/** What the chosen billing means for the customer, under the select. */
function billingHint(values: PlanFormValues, _: Translate): string {
  if (values.billing === 'one_off') return _('admin.planForm.billingHint.oneOff');
  const interval = renewalIntervalOf(daysOf(values));
  const charged = interval ? _('admin.planForm.billingHint.recurring', { interval: intervalText(_, interval) }) : _('admin.planForm.billingHint.everyPeriod');
  // Stripe keeps one name per product: a subscription's card page and receipts cannot be named per customer.
  return `${charged} ${_('admin.planForm.billingHint.stripeOneName')}`;
}

/**
 * Create or edit a plan: first its name, tier and feature lines in each language (PlanTextsFields); hours
 * mode switches duration to hours and data to MB. The last part is how the plan shows on the pricing page
 * (order, badge, listed or not).
 */
export function PlanFormDialog({ plan, onClose, onSaved }: PlanFormDialogProps) {
  const { _ } = useLingui();
  const { currency } = useConfig();
  const [values, setValues] = useState<PlanFormValues>(() => (plan ? valuesFromPlan(plan, currency) : NEW_PLAN_VALUES));
  const [formError, setFormError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const set =
    <K extends keyof PlanFormValues>(key: K) =>
    (value: PlanFormValues[K]) =>
      setValues((current) => ({ ...current, [key]: value }));

  const problems = planFormProblems(values, _, currency);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem =
      problems.price ?? problems.billing ?? problems.deviceLimit ?? problems.starsPrice ?? problems.trafficReset ?? problems.graceDays ?? problems.graceData;
    if (problem) {
      setFormError(problem);
      return;
    }
    setSaving(true);
    setFormError(null);
    setFields({});
    try {
      const body = toPlanBody(values, currency);
      onSaved(plan ? await adminApi.plans.update(plan.id, body) : await adminApi.plans.create(body));
    } catch (err) {
      setFormError(errorMessage(err, _(plan ? MESSAGES.updateFailed : MESSAGES.addFailed)));
      setFields(fieldErrors(err));
      setSaving(false);
    }
  }

  const { hoursMode } = values;
  return (
    <Dialog title={plan ? _('admin.planForm.editTitle', { name: plan.name }) : _('admin.plans.create')} onClose={() => !saving && onClose()} size="xl">
      <form onSubmit={(event) => void onSubmit(event)} className="space-y-4">
        {formError && <AlertBox reveal>{formError}</AlertBox>}
        <PlanTextsFields values={values} onChange={setValues} fields={fields} disabled={saving} />
        <CheckboxField
          label={_('admin.planForm.hoursMode')}
          checked={hoursMode}
          onCheckedChange={(checked) => setValues((current) => withHoursMode(current, checked))}
          hint={_('admin.planForm.hoursModeHint')}
          disabled={saving}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={hoursMode ? _('admin.planForm.durationHours') : _('admin.planForm.durationDays')}
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
            label={hoursMode ? _('admin.planForm.dataLimitMb') : _('admin.planForm.dataLimitGb')}
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
          label={_('admin.planForm.price', { currency: currency.toUpperCase() })}
          type="number"
          inputMode={currencyDecimals(currency) === 0 ? 'numeric' : 'decimal'}
          min={0}
          step={10 ** -currencyDecimals(currency)}
          value={values.price}
          onValueChange={set('price')}
          error={fields.price ?? problems.price}
          hint={_('admin.planForm.priceHint')}
          required
          disabled={saving}
        />
        <SelectField
          label={_('admin.planForm.billing')}
          value={values.billing}
          onValueChange={(value) => set('billing')(value as PlanBilling)}
          error={problems.billing ?? fields.billing}
          hint={billingHint(values, _)}
          disabled={saving}
        >
          {PLAN_BILLINGS.map((billing) => (
            <option key={billing} value={billing}>
              {_(BILLING_LABEL_IDS[billing])}
            </option>
          ))}
        </SelectField>
        <TextField
          label={_('admin.planForm.deviceLimit')}
          type="number"
          inputMode="numeric"
          min={1}
          max={DEVICE_LIMIT_MAX}
          step={1}
          value={values.deviceLimit}
          onValueChange={set('deviceLimit')}
          error={problems.deviceLimit ?? fields.deviceLimit}
          placeholder={_('admin.planForm.deviceLimitPlaceholder')}
          hint={_('admin.planForm.deviceLimitHint', { max: String(DEVICE_LIMIT_MAX) })}
          disabled={saving}
        />
        <TextField
          label={_('admin.planForm.starsPrice')}
          type="number"
          inputMode="numeric"
          min={1}
          max={STARS_PRICE_MAX}
          step={1}
          value={values.starsPrice}
          onValueChange={set('starsPrice')}
          error={problems.starsPrice ?? fields.starsPrice}
          hint={_('admin.planForm.starsPriceHint')}
          disabled={saving}
        />
        <PlanTrafficFields values={values} onChange={setValues} problems={problems} fields={fields} disabled={saving} />
        <TextField
          label={_('admin.planForm.locations')}
          value={values.locations}
          onValueChange={set('locations')}
          error={fields.locations}
          placeholder="all"
          hint={_('admin.planForm.locationsHint')}
          maxLength={500}
          disabled={saving}
        />
        <PlanServersFields servers={values.servers} onChange={set('servers')} fields={fields} disabled={saving} />
        <CheckboxField
          label={_('admin.planForm.active')}
          checked={values.active}
          onCheckedChange={set('active')}
          hint={_('admin.planForm.activeHint')}
          disabled={saving}
        />
        <CheckboxField
          label={_('admin.planForm.trial')}
          checked={values.isTrial}
          onCheckedChange={set('isTrial')}
          hint={_('admin.planForm.trialHint')}
          disabled={saving}
        />
        <fieldset className="space-y-4 rounded-xl border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-900">{_('admin.planForm.pricingPage')}</legend>
          <CheckboxField
            label={_('admin.planForm.public')}
            checked={values.public}
            onCheckedChange={set('public')}
            hint={_('admin.planForm.publicHint')}
            disabled={saving}
          />
          <TextField
            label={_('admin.planForm.sortOrder')}
            type="number"
            inputMode="numeric"
            step={1}
            value={values.sortOrder}
            onValueChange={set('sortOrder')}
            error={fields.sortOrder}
            hint={_('admin.planForm.sortOrderHint')}
            disabled={saving}
          />
          <CheckboxField
            label={_('admin.plans.mostPopular')}
            checked={values.mostPopular}
            onCheckedChange={set('mostPopular')}
            hint={_('admin.planForm.mostPopularHint')}
            disabled={saving}
          />
        </fieldset>
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <button type="button" onClick={onClose} disabled={saving} className={buttonClass.secondary}>
            {_('admin.common.cancel')}
          </button>
          <button type="submit" disabled={saving} className={buttonClass.primary}>
            {saving ? _('admin.common.saving') : plan ? _('admin.common.saveChanges') : _('admin.plans.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
