import { PlanFeatures } from '../plans/PlanFeatures';
import { billingLine } from '../../../../shared/plan-billing.js';
import type { Plan } from '../../../../shared/plans.js';
import { billingPeriodOf, formatUsd, perMonthCents } from '../../../../shared/pricing.js';
import { BUTTON } from './button-styles';
import { formatBytes, formatLocations } from './format';
import { ACCOUNT_UI_MESSAGES } from './messages';

interface PlanCardProps {
  plan: Plan;
  /** h3 directly under 'Available Plans', h4 under a tier's heading. */
  headingLevel?: 3 | 4;
  /** 'Save N%' against the shortest plan of the same tier (0: no badge). */
  savePercent: number;
  trialUsed: boolean;
  /** True while this plan's account is being created. */
  busy: boolean;
  /** True while any plan is being claimed (one at a time). */
  disabled: boolean;
  onClaim: (plan: Plan) => void;
  /** A payment method (card or crypto) is on (public config): paid plans can be bought. */
  canPay: boolean;
  /** Opens the payment dialog for a paid plan. */
  onBuy: (plan: Plan) => void;
}

function claimLabel(plan: Plan, trialUsed: boolean): string {
  if (plan.isTrial) return trialUsed ? ACCOUNT_UI_MESSAGES.trialUsed : 'Claim Trial';
  return 'Get Free';
}

/** What a month costs on a plan of several months, e.g. "$4.99/month"; nothing otherwise. */
function monthlyNote(plan: Plan): string | null {
  const { months } = billingPeriodOf(plan.days);
  const cents = perMonthCents(plan);
  return months !== null && months > 1 && cents !== null && plan.price > 0 ? `${formatUsd(cents)}/month` : null;
}

/**
 * One plan, as the pricing page shows it (the grid groups them by tier): its period, the price
 * charged and per month, whether it renews, the saving, data, locations and feature lines, with the
 * button that fits it.
 */
export function PlanCard({ plan, headingLevel = 3, savePercent, trialUsed, busy, disabled, onClaim, canPay, onBuy }: PlanCardProps) {
  const isFree = plan.isTrial || plan.price === 0;
  const trialBlocked = plan.isTrial && trialUsed;
  const noteId = `plan-${plan.id}-note`;
  const period = billingPeriodOf(plan.days);
  const perMonth = monthlyNote(plan);
  const Heading = headingLevel === 4 ? 'h4' : 'h3';

  return (
    <li className={`flex flex-col rounded-2xl bg-white p-6 shadow-sm ${plan.mostPopular ? 'ring-2 ring-indigo-600' : 'ring-1 ring-slate-200'}`}>
      <div className="flex items-start justify-between gap-3">
        <Heading className="text-lg font-semibold text-slate-900">{plan.name}</Heading>
        {plan.isTrial && (
          <span className="shrink-0 rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-semibold text-indigo-800">Trial</span>
        )}
        {!plan.isTrial && plan.mostPopular && (
          <span className="shrink-0 rounded-full bg-indigo-600 px-2.5 py-0.5 text-xs font-semibold text-white">Most Popular</span>
        )}
      </div>
      <p className="mt-3 flex flex-wrap items-baseline gap-x-2">
        <span className="text-3xl font-bold tracking-tight text-slate-900">{formatUsd(plan.price)}</span>
        <span className="text-sm text-slate-600">for {period.label}</span>
      </p>
      {!isFree && <p className="mt-1 text-sm text-slate-600">{billingLine(plan, period.label)}</p>}
      {(perMonth || savePercent > 0) && (
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
          {perMonth && <span>{perMonth}</span>}
          {savePercent > 0 && (
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">Save {savePercent}%</span>
          )}
        </p>
      )}
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-slate-500">Duration</dt>
        <dd className="font-medium text-slate-800">{period.label}</dd>
        <dt className="text-slate-500">Data</dt>
        <dd className="font-medium text-slate-800">{formatBytes(plan.dataLimitBytes)}</dd>
        <dt className="text-slate-500">Locations</dt>
        <dd className="font-medium break-words text-slate-800">{formatLocations(plan.locations)}</dd>
      </dl>
      <PlanFeatures features={plan.features} className="mt-4 space-y-1.5 text-sm text-slate-700" iconClassName="size-4" />
      <div className="mt-auto pt-6">
        {isFree ? (
          <button
            type="button"
            onClick={() => onClaim(plan)}
            disabled={trialBlocked || disabled}
            aria-busy={busy || undefined}
            className={`${BUTTON.primary} w-full`}
          >
            {busy ? 'Creating...' : claimLabel(plan, trialUsed)}
          </button>
        ) : canPay ? (
          <button type="button" onClick={() => onBuy(plan)} disabled={disabled} className={`${BUTTON.primary} w-full`}>
            Buy
          </button>
        ) : (
          <>
            <button type="button" disabled aria-describedby={noteId} className={`${BUTTON.primary} w-full`}>
              Buy
            </button>
            <p id={noteId} className="mt-2 text-center text-sm text-slate-500">
              {ACCOUNT_UI_MESSAGES.paymentsUnavailable}
            </p>
          </>
        )}
      </div>
    </li>
  );
}
