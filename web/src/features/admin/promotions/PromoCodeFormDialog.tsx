import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { AdminPlan } from '../../../../../shared/plans.js';
import type { AdminPromoCode } from '../../../../../shared/promo-codes.js';
import { adminApi } from '../../../api/admin-endpoints';
import { useConfig } from '../../config/config-context';
import { AlertBox } from '../AlertBox';
import { errorMessage, fieldErrors } from '../admin-errors';
import { Dialog } from '../Dialog';
import { DialogFormFooter } from '../DialogFormFooter';
import { CheckboxField, SelectField, TextField } from '../form-fields';
import { NEW_PROMO_CODE, toPromoCodeBody, type PromoCodeFormValues } from './promo-code-form';

interface PromoCodeFormDialogProps {
  /** The plans a code can be limited to (paid ones). */
  plans: readonly AdminPlan[];
  onClose: () => void;
  onSaved: (code: AdminPromoCode) => void;
}

/** A new promo code: the code, its discount and how long it lasts, which plans, how many uses, and when. */
export function PromoCodeFormDialog({ plans, onClose, onSaved }: PromoCodeFormDialogProps) {
  const { _ } = useLingui();
  const { currency } = useConfig();
  const [values, setValues] = useState<PromoCodeFormValues>(NEW_PROMO_CODE);
  const [formError, setFormError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const set =
    <K extends keyof PromoCodeFormValues>(key: K) =>
    (value: PromoCodeFormValues[K]) =>
      setValues((current) => ({ ...current, [key]: value }));
  const togglePlan = (planId: string, on: boolean) =>
    setValues((current) => ({ ...current, planIds: on ? [...current.planIds, planId] : current.planIds.filter((id) => id !== planId) }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    setFormError(null);
    setFields({});
    try {
      onSaved(await adminApi.promoCodes.create(toPromoCodeBody(values, currency)));
    } catch (err) {
      setFormError(errorMessage(err, _('admin.promo.createFailed')));
      setFields(fieldErrors(err));
      setSaving(false);
    }
  }

  return (
    <Dialog title={_('admin.promo.create')} onClose={() => !saving && onClose()}>
      <form onSubmit={(event) => void onSubmit(event)} className="space-y-4" noValidate>
        {formError && <AlertBox reveal>{formError}</AlertBox>}
        <TextField
          label={_('admin.promo.code')}
          value={values.code}
          onValueChange={set('code')}
          error={fields.code}
          hint={_('admin.promo.codeHint')}
          autoComplete="off"
          required
          disabled={saving}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={_('admin.promo.kind')}
            value={values.kind}
            onValueChange={(kind) => set('kind')(kind as PromoCodeFormValues['kind'])}
            disabled={saving}
          >
            <option value="percent">{_('admin.promo.kindPercent')}</option>
            <option value="amount">{_('admin.promo.kindAmount', { currency: currency.toUpperCase() })}</option>
          </SelectField>
          {values.kind === 'percent' ? (
            <TextField
              label={_('admin.promo.percentOff')}
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              step={1}
              value={values.percentOff}
              onValueChange={set('percentOff')}
              error={fields.percentOff}
              required
              disabled={saving}
            />
          ) : (
            <TextField
              label={_('admin.promo.amountOff', { currency: currency.toUpperCase() })}
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              value={values.amountOff}
              onValueChange={set('amountOff')}
              error={fields.amountOff ?? fields.percentOff}
              required
              disabled={saving}
            />
          )}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={_('admin.promo.duration')}
            value={values.duration}
            onValueChange={(duration) => set('duration')(duration as PromoCodeFormValues['duration'])}
            hint={_('admin.promo.durationHint')}
            disabled={saving}
          >
            <option value="once">{_('admin.promo.once')}</option>
            <option value="repeating">{_('admin.promo.repeatingOption')}</option>
            <option value="forever">{_('admin.promo.forever')}</option>
          </SelectField>
          {values.duration === 'repeating' && (
            <TextField
              label={_('admin.promo.durationMonths')}
              type="number"
              inputMode="numeric"
              min={1}
              max={36}
              step={1}
              value={values.durationMonths}
              onValueChange={set('durationMonths')}
              error={fields.durationMonths}
              required
              disabled={saving}
            />
          )}
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">{_('admin.promo.plans')}</legend>
          <p className="text-xs text-slate-500">{_('admin.promo.plansHint')}</p>
          {plans.map((plan) => (
            <CheckboxField
              key={plan.id}
              label={plan.name}
              checked={values.planIds.includes(plan.id)}
              onCheckedChange={(on) => togglePlan(plan.id, on)}
              disabled={saving}
            />
          ))}
          {fields.planIds && <p className="text-sm text-red-700">{fields.planIds}</p>}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={_('admin.promo.maxRedemptions')}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={values.maxRedemptions}
            onValueChange={set('maxRedemptions')}
            error={fields.maxRedemptions}
            hint={_('admin.promo.maxRedemptionsHint')}
            disabled={saving}
          />
          <div className="sm:pt-7">
            <CheckboxField
              label={_('admin.promo.oncePerCustomer')}
              checked={values.oncePerCustomer}
              onCheckedChange={set('oncePerCustomer')}
              disabled={saving}
            />
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={_('admin.promo.startsAt')}
            type="datetime-local"
            value={values.startsAt}
            onValueChange={set('startsAt')}
            error={fields.startsAt}
            disabled={saving}
          />
          <TextField
            label={_('admin.promo.endsAt')}
            type="datetime-local"
            value={values.endsAt}
            onValueChange={set('endsAt')}
            error={fields.endsAt}
            disabled={saving}
          />
        </div>
        <DialogFormFooter error={null} busy={saving} submitLabel={_('admin.promo.create')} busyLabel={_('admin.common.saving')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
