import { useLingui } from '@lingui/react';

interface BillingPeriodToggleProps {
  periods: ReadonlyArray<{ key: string; label: string }>;
  value: string;
  onChange(key: string): void;
}

/** Toggle buttons (one pressed at a time) that pick the billing period the tier cards show. */
export function BillingPeriodToggle({ periods, value, onChange }: BillingPeriodToggleProps) {
  const { _ } = useLingui();
  return (
    <div
      role="group"
      aria-label={_('pricing.periodToggle.label')}
      className="inline-flex max-w-full flex-wrap justify-center rounded-full bg-white p-1 shadow-sm ring-1 ring-slate-200"
    >
      {periods.map((period) => {
        const pressed = period.key === value;
        return (
          <button
            key={period.key}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(period.key)}
            className={`rounded-full px-3 py-2 text-sm font-semibold whitespace-nowrap sm:px-5 ${
              pressed ? 'bg-indigo-600 text-white shadow-sm' : 'text-slate-700 hover:bg-slate-100'
            }`}
          >
            {period.label}
          </button>
        );
      })}
    </div>
  );
}
