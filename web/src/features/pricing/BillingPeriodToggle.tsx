import { BILLING_PERIODS, BILLING_PERIOD_INFO, type BillingPeriod } from '../../../../shared/pricing.js';

interface BillingPeriodToggleProps {
  value: BillingPeriod;
  onChange(period: BillingPeriod): void;
}

/** Toggle buttons (one pressed at a time) that pick the billing period the tier cards show. */
export function BillingPeriodToggle({ value, onChange }: BillingPeriodToggleProps) {
  return (
    <div
      role="group"
      aria-label="Billing period"
      className="inline-flex max-w-full rounded-full bg-white p-1 shadow-sm ring-1 ring-slate-200"
    >
      {BILLING_PERIODS.map((period) => {
        const pressed = period === value;
        return (
          <button
            key={period}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(period)}
            className={`rounded-full px-3 py-2 text-sm font-semibold whitespace-nowrap sm:px-5 ${
              pressed ? 'bg-indigo-600 text-white shadow-sm' : 'text-slate-700 hover:bg-slate-100'
            }`}
          >
            {BILLING_PERIOD_INFO[period].label}
          </button>
        );
      })}
    </div>
  );
}
