import { useLingui } from '@lingui/react';
import { PLAN_TRAFFIC_LIMITS, TRAFFIC_RESETS, type TrafficReset } from '../../../../shared/plans.js';
import { CheckboxField, SelectField, TextField } from './form-fields';
import type { PlanFormProblems, PlanFormValues } from './plan-form';

interface PlanTrafficFieldsProps {
  values: PlanFormValues;
  onChange: (update: (current: PlanFormValues) => PlanFormValues) => void;
  /** What the form finds wrong before asking the server (planFormProblems). */
  problems: PlanFormProblems;
  /** The server's field errors (`trafficReset`, `graceDays`, `graceDataBytes`, …). */
  fields: Record<string, string>;
  disabled: boolean;
}

const RESET_LABEL_IDS: Record<TrafficReset, string> = {
  none: 'admin.planForm.trafficReset.none',
  monthly: 'admin.planForm.trafficReset.monthly',
};

/**
 * A plan's traffic rules: whether the data limit starts again every month of a longer plan, whether unused data carries
 * over, and the grace after the paid end (days, and the data allowed during them). The data is in the data limit's
 * unit: GB, or MB in hours mode.
 */
export function PlanTrafficFields({ values, onChange, problems, fields, disabled }: PlanTrafficFieldsProps) {
  const { _ } = useLingui();
  const set =
    <K extends keyof PlanFormValues>(key: K) =>
    (value: PlanFormValues[K]) =>
      onChange((current) => ({ ...current, [key]: value }));
  return (
    <fieldset className="space-y-4 rounded-xl border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-900">{_('admin.planForm.traffic')}</legend>
      <SelectField
        label={_('admin.planForm.trafficReset')}
        value={values.trafficReset}
        onValueChange={(value) => set('trafficReset')(value as TrafficReset)}
        error={problems.trafficReset ?? fields.trafficReset}
        hint={_('admin.planForm.trafficResetHint')}
        disabled={disabled}
      >
        {TRAFFIC_RESETS.map((reset) => (
          <option key={reset} value={reset}>
            {_(RESET_LABEL_IDS[reset])}
          </option>
        ))}
      </SelectField>
      <CheckboxField
        label={_('admin.planForm.carryOver')}
        checked={values.trafficCarryOver}
        onCheckedChange={set('trafficCarryOver')}
        hint={_('admin.planForm.carryOverHint')}
        disabled={disabled}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={_('admin.planForm.graceDays')}
          type="number"
          inputMode="numeric"
          min={0}
          max={PLAN_TRAFFIC_LIMITS.graceDaysMax}
          step={1}
          value={values.graceDays}
          onValueChange={set('graceDays')}
          error={problems.graceDays ?? fields.graceDays}
          hint={_('admin.planForm.graceDaysHint', { max: String(PLAN_TRAFFIC_LIMITS.graceDaysMax) })}
          disabled={disabled}
        />
        <TextField
          label={values.hoursMode ? _('admin.planForm.graceDataMb') : _('admin.planForm.graceDataGb')}
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          value={values.graceData}
          onValueChange={set('graceData')}
          error={problems.graceData ?? fields.graceDataBytes}
          placeholder={_('admin.planForm.graceDataPlaceholder')}
          hint={_('admin.planForm.graceDataHint')}
          disabled={disabled}
        />
      </div>
    </fieldset>
  );
}
