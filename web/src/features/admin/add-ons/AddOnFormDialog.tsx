import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import { ADD_ON_KINDS, ADD_ON_UNTILS, type AddOn, type AddOnKind, type AddOnUntil } from '../../../../../shared/add-ons.js';
import { currencyDecimals } from '../../../../../shared/currencies.js';
import { DEVICE_LIMIT_MAX } from '../../../../../shared/devices.js';
import { HREFLANG, LOCALE_NAMES } from '../../../../../shared/locales.js';
import { TRANSLATED_LOCALES, type TranslatedLocale } from '../../../../../shared/plan-translations.js';
import type { AdminPlan } from '../../../../../shared/plans.js';
import { adminApi } from '../../../api/admin-endpoints';
import { useConfig } from '../../config/config-context';
import { AlertBox } from '../AlertBox';
import { errorMessage, fieldErrors } from '../admin-errors';
import { Dialog } from '../Dialog';
import { DialogFormFooter } from '../DialogFormFooter';
import { CheckboxField, SelectField, TextField } from '../form-fields';
import { addOnFormProblems, NEW_ADD_ON, toAddOnBody, TRAFFIC_MAX_GB, valuesFromAddOn, withKind, type AddOnFormValues } from './add-on-form';

export const KIND_LABEL_IDS: Record<AddOnKind, string> = { devices: 'admin.addOns.kindDevices', traffic: 'admin.addOns.kindTraffic' };
const UNTIL_OPTION_IDS: Record<AddOnUntil, string> = { period_end: 'admin.addOns.untilPeriodEndOption', forever: 'admin.addOns.untilForeverOption' };

interface AddOnFormDialogProps {
  /** The add-on being edited, or null to create one. */
  addOn: AddOn | null;
  /** The plans it can be sold for. */
  plans: readonly AdminPlan[];
  onClose: () => void;
  onSaved: (addOn: AddOn) => void;
}

/**
 * Create or edit an add-on: its name in the four languages (English required), what it gives (devices, or
 * gigabytes of traffic), its price in the store's currency, the plans it is sold for, and how long it lasts.
 */
export function AddOnFormDialog({ addOn, plans, onClose, onSaved }: AddOnFormDialogProps) {
  const { _ } = useLingui();
  const { currency } = useConfig();
  const [values, setValues] = useState<AddOnFormValues>(() => (addOn ? valuesFromAddOn(addOn, currency) : NEW_ADD_ON));
  const [formError, setFormError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState(false);
  const [saving, setSaving] = useState(false);
  const set =
    <K extends keyof AddOnFormValues>(key: K) =>
    (value: AddOnFormValues[K]) =>
      setValues((current) => ({ ...current, [key]: value }));
  const setTranslation = (locale: TranslatedLocale) => (name: string) =>
    setValues((current) => ({ ...current, translations: { ...current.translations, [locale]: name } }));
  const togglePlan = (planId: string, on: boolean) =>
    setValues((current) => ({ ...current, planIds: on ? [...current.planIds, planId] : current.planIds.filter((id) => id !== planId) }));

  // Only what is wrong after a first try is shown under the fields (an empty price is not an error while typing).
  const problems = addOnFormProblems(values, _, currency);
  const shown = checked ? problems : {};
  // Every plan, and the id of one it names that is gone (so it can be unticked rather than dropped unseen).
  const choices = [
    ...plans.map((plan) => ({ id: plan.id, name: plan.name })),
    ...values.planIds.filter((id) => !plans.some((plan) => plan.id === id)).map((id) => ({ id, name: id })),
  ];
  const title = addOn ? _('admin.addOns.editTitle', { name: addOn.name }) : _('admin.addOns.create');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChecked(true);
    const problem = problems.amount ?? problems.price;
    if (problem) {
      setFormError(problem);
      return;
    }
    setSaving(true);
    setFormError(null);
    setFields({});
    try {
      const body = toAddOnBody(values, currency);
      onSaved(addOn ? await adminApi.addOns.update(addOn.id, body) : await adminApi.addOns.create(body));
    } catch (err) {
      setFormError(errorMessage(err, _(addOn ? 'admin.addOns.updateFailed' : 'admin.addOns.createFailed')));
      setFields(fieldErrors(err));
      setSaving(false);
    }
  }

  const traffic = values.kind === 'traffic';
  return (
    <Dialog title={title} onClose={() => !saving && onClose()}>
      <form onSubmit={(event) => void onSubmit(event)} className="space-y-4" noValidate>
        {formError && <AlertBox reveal>{formError}</AlertBox>}
        <fieldset className="space-y-3 rounded-xl border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-900">{_('admin.addOns.names')}</legend>
          <p className="text-xs text-slate-500">{_('admin.addOns.namesHint')}</p>
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              label={_('admin.addOns.nameIn', { language: LOCALE_NAMES.en })}
              value={values.name}
              onValueChange={set('name')}
              error={fields.name}
              autoComplete="off"
              required
              maxLength={120}
              disabled={saving}
            />
            {TRANSLATED_LOCALES.map((locale) => (
              <TextField
                key={locale}
                label={_('admin.addOns.nameIn', { language: LOCALE_NAMES[locale] })}
                value={values.translations[locale]}
                onValueChange={setTranslation(locale)}
                // Typed in that language: a Persian name runs right to left, the English placeholder left to right.
                lang={HREFLANG[locale]}
                dir="auto"
                error={fields[`translations.${locale}.name`] ?? fields[`translations.${locale}`]}
                placeholder={values.name}
                autoComplete="off"
                maxLength={120}
                disabled={saving}
              />
            ))}
          </div>
          {fields.translations && <p className="text-sm text-red-700">{fields.translations}</p>}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={_('admin.addOns.kind')}
            value={values.kind}
            onValueChange={(kind) => setValues((current) => withKind(current, kind as AddOnKind))}
            error={fields.kind}
            disabled={saving}
          >
            {ADD_ON_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {_(KIND_LABEL_IDS[kind])}
              </option>
            ))}
          </SelectField>
          <TextField
            label={traffic ? _('admin.addOns.amountTraffic') : _('admin.addOns.amountDevices')}
            type="number"
            inputMode={traffic ? 'decimal' : 'numeric'}
            min={traffic ? 0.001 : 1}
            max={traffic ? TRAFFIC_MAX_GB : DEVICE_LIMIT_MAX}
            step={traffic ? 'any' : 1}
            value={values.amount}
            onValueChange={set('amount')}
            error={shown.amount ?? fields.amount}
            hint={traffic ? _('admin.addOns.amountTrafficHint') : _('admin.addOns.amountDevicesHint')}
            required
            disabled={saving}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={_('admin.addOns.price', { currency: currency.toUpperCase() })}
            type="number"
            inputMode={currencyDecimals(currency) === 0 ? 'numeric' : 'decimal'}
            min={0}
            step={10 ** -currencyDecimals(currency)}
            value={values.price}
            onValueChange={set('price')}
            error={fields.price ?? shown.price}
            hint={_('admin.addOns.priceHint')}
            required
            disabled={saving}
          />
          <SelectField
            label={_('admin.addOns.until')}
            value={values.until}
            onValueChange={(until) => set('until')(until as AddOnUntil)}
            error={fields.until}
            hint={values.until === 'forever' ? _('admin.addOns.untilForeverHint') : _('admin.addOns.untilPeriodEndHint')}
            disabled={saving}
          >
            {ADD_ON_UNTILS.map((until) => (
              <option key={until} value={until}>
                {_(UNTIL_OPTION_IDS[until])}
              </option>
            ))}
          </SelectField>
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">{_('admin.addOns.plans')}</legend>
          <p className="text-xs text-slate-500">{_('admin.addOns.plansHint')}</p>
          <div className="grid gap-2 sm:grid-cols-2">
            {choices.map((plan) => (
              <CheckboxField
                key={plan.id}
                label={plan.name}
                checked={values.planIds.includes(plan.id)}
                onCheckedChange={(on) => togglePlan(plan.id, on)}
                disabled={saving}
              />
            ))}
          </div>
          {fields.appliesTo && <p className="text-sm text-red-700">{fields.appliesTo}</p>}
        </fieldset>
        <DialogFormFooter
          error={null}
          busy={saving}
          submitLabel={addOn ? _('admin.common.saveChanges') : _('admin.addOns.create')}
          busyLabel={_('admin.common.saving')}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
