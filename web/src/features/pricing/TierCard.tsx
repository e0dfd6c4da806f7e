import { useId } from 'react';
import { Link } from 'react-router-dom';
import {
  BILLING_PERIOD_INFO,
  PLAN_FEATURES,
  PRICING_TIERS,
  billedTotalCents,
  formatUsd,
  perMonthCents,
  savePercent,
  tierIncludes,
  type BillingPeriod,
  type TierId,
} from '../../../../shared/pricing.js';
import { CheckIcon } from '../../components/content/content-icons';

interface TierCardProps {
  tier: TierId;
  period: BillingPeriod;
  popular: boolean;
  /** Where the Get button leads: /login when signed out, /dashboard when signed in. */
  getTo: string;
}

/** One plan: its price for the chosen period, the billed total, its savings and what it includes. */
export function TierCard({ tier, period, popular, getTo }: TierCardProps) {
  const headingId = useId();
  const { name, summary } = PRICING_TIERS[tier];
  const save = savePercent(tier, period);
  const features = PLAN_FEATURES.filter((feature) => tierIncludes(tier, feature));

  return (
    <article
      aria-labelledby={headingId}
      className={`relative flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm sm:p-8 ${
        popular ? 'ring-2 ring-indigo-600' : 'ring-1 ring-slate-200'
      }`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-xl font-bold text-slate-900">
          {name}
        </h3>
        {popular && (
          <span className="rounded-full bg-indigo-600 px-3 py-1 text-xs font-semibold text-white">Most Popular</span>
        )}
        {save > 0 && (
          <span className="rounded-full bg-emerald-100 px-3 py-1 text-xs font-semibold text-emerald-900">
            Save {save}%
          </span>
        )}
      </div>
      <p className="mt-2 text-slate-600">{summary}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-extrabold tracking-tight text-slate-900">
          {formatUsd(perMonthCents(tier, period))}
        </span>
        <span className="text-slate-600">/month</span>
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {formatUsd(billedTotalCents(tier, period))} billed {BILLING_PERIOD_INFO[period].interval}
      </p>
      <Link
        to={getTo}
        className={`mt-6 block rounded-lg px-4 py-3 text-center font-semibold shadow-sm ${
          popular ? 'bg-indigo-600 text-white hover:bg-indigo-700' : 'bg-indigo-50 text-indigo-800 hover:bg-indigo-100'
        }`}
      >
        Get {name}
      </Link>
      <ul className="mt-6 space-y-2 text-slate-700">
        {features.map((feature) => (
          <li key={feature.id} className="flex gap-2">
            <CheckIcon className="mt-0.5 size-5 shrink-0 text-indigo-600" />
            <span>{feature.label}</span>
          </li>
        ))}
      </ul>
    </article>
  );
}
