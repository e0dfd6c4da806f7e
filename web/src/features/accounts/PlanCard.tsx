import type { Plan } from '../../../../shared/plans.js';
import { formatUsd } from '../../../../shared/pricing.js';
import { BUTTON } from './button-styles';
import { formatBytes, formatDuration, formatLocations } from './format';
import { ACCOUNT_UI_MESSAGES } from './messages';

interface PlanCardProps {
  plan: Plan;
  trialUsed: boolean;
  /** True while this plan's account is being created. */
  busy: boolean;
  /** True while any plan is being claimed (one at a time). */
  disabled: boolean;
  onClaim: (plan: Plan) => void;
  /** Card payments are on (public config): paid plans can be bought. */
  cardPayments: boolean;
  /** Opens the payment dialog for a paid plan. */
  onBuy: (plan: Plan) => void;
}

function claimLabel(plan: Plan, trialUsed: boolean): string {
  if (plan.isTrial) return trialUsed ? ACCOUNT_UI_MESSAGES.trialUsed : 'Claim Trial';
  return 'Get Free';
}

/** One plan: price, duration, data and locations, with the button that fits it. */
export function PlanCard({ plan, trialUsed, busy, disabled, onClaim, cardPayments, onBuy }: PlanCardProps) {
  const isFree = plan.isTrial || plan.price === 0;
  const trialBlocked = plan.isTrial && trialUsed;
  const noteId = `plan-${plan.id}-note`;

  return (
    <li className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-start justify-between gap-3">
        <h3 className="text-lg font-semibold text-slate-900">{plan.name}</h3>
        {plan.isTrial && (
          <span className="shrink-0 rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-semibold text-indigo-800">Trial</span>
        )}
      </div>
      <p className="mt-3 text-3xl font-bold tracking-tight text-slate-900">{formatUsd(plan.price)}</p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-slate-500">Duration</dt>
        <dd className="font-medium text-slate-800">{formatDuration(plan.days)}</dd>
        <dt className="text-slate-500">Data</dt>
        <dd className="font-medium text-slate-800">{formatBytes(plan.dataLimitBytes)}</dd>
        <dt className="text-slate-500">Locations</dt>
        <dd className="font-medium break-words text-slate-800">{formatLocations(plan.locations)}</dd>
      </dl>
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
        ) : cardPayments ? (
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
