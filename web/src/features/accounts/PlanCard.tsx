import type { I18n } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { PlanFeatures } from '../plans/PlanFeatures';
import { usePlanText } from '../plans/usePlanText';
import { useIsolate } from '../../i18n/bidi';
import { billingText, periodLabel } from '../pricing/plan-text';
import type { Plan } from '../../../../shared/plans.js';
import { billingPeriodOf, perMonthCents } from '../../../../shared/pricing.js';
import { useFormat } from '../../i18n/format';
import { useStoreMoney, type StoreMoney } from '../config/useStoreMoney';
import { BUTTON } from './button-styles';

interface PlanCardProps {
  plan: Plan;
  /** h3 directly under 'Available Plans', h4 under a tier's heading. */
  headingLevel?: 3 | 4;
  /** 'Save N%' against the shortest plan of the same tier (0: no badge). */
  savePercent: number;
  /** This card says 'Most Popular' (once per popular tier: popular-plan.ts). */
  popularBadge: boolean;
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

/** The trial's button names its price when it has one ('Start the trial for $1.00': it goes to the payment dialog). */
function claimLabel(_: I18n['_'], money: StoreMoney, plan: Plan, trialUsed: boolean): string {
  if (plan.isTrial && trialUsed) return _('pricing.plan.trialUsed');
  if (plan.isTrial) return plan.price > 0 ? _('pricing.plan.startTrialFor', { price: money(plan.price) }) : _('pricing.plan.claimTrial');
  return _('pricing.plan.getFree');
}

/** What a month costs on a plan of several months, e.g. "$4.99/month"; nothing otherwise. */
function monthlyNote(_: I18n['_'], money: StoreMoney, plan: Plan): string | null {
  const { months } = billingPeriodOf(plan.days);
  const perMonth = perMonthCents(plan);
  return months !== null && months > 1 && perMonth !== null && plan.price > 0 ? _('pricing.plan.perMonth', { price: money(perMonth) }) : null;
}

/**
 * One plan, as the pricing page shows it (the grid groups them by tier): its period, the price
 * charged and per month, whether it renews, the saving, data, locations and feature lines, with the
 * button that fits it. The name and feature lines are the operator's in the page's language, isolated
 * (`<bdi>`) from the page's direction; Buy is named with the plan ('Buy Plus 1 Year') for a screen
 * reader going through the buttons, where nine of them would otherwise all be just 'Buy'.
 */
export function PlanCard({ plan, headingLevel = 3, savePercent, popularBadge, trialUsed, busy, disabled, onClaim, canPay, onBuy }: PlanCardProps) {
  const { _ } = useLingui();
  const format = useFormat();
  const money = useStoreMoney();
  const isFree = plan.isTrial || plan.price === 0;
  const trialBlocked = plan.isTrial && trialUsed;
  const noteId = `plan-${plan.id}-note`;
  const period = periodLabel(_, format, billingPeriodOf(plan.days));
  const perMonth = monthlyNote(_, money, plan);
  const Heading = headingLevel === 4 ? 'h4' : 'h3';
  const text = usePlanText(plan);
  const isolated = useIsolate();
  const buyLabel = _('pricing.plan.buyNamed', { plan: isolated(text.name) });

  return (
    <li className={`flex flex-col rounded-2xl bg-white p-6 shadow-sm ${popularBadge ? 'ring-2 ring-indigo-600' : 'ring-1 ring-slate-200'}`}>
      <div className="flex items-start justify-between gap-3">
        <Heading className="text-lg font-semibold text-slate-900">
          <bdi>{text.name}</bdi>
        </Heading>
        {plan.isTrial && (
          <span className="shrink-0 rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-semibold text-indigo-800">{_('pricing.plan.trial')}</span>
        )}
        {!plan.isTrial && popularBadge && (
          <span className="shrink-0 rounded-full bg-indigo-600 px-2.5 py-0.5 text-xs font-semibold text-white">{_('pricing.badge.mostPopular')}</span>
        )}
      </div>
      <p className="mt-3 flex flex-wrap items-baseline gap-x-2">
        <span className="text-3xl font-bold tracking-tight text-slate-900">{money(plan.price)}</span>
        <span className="text-sm text-slate-600">{_('pricing.price.forPeriod', { period })}</span>
      </p>
      {!isFree && <p className="mt-1 text-sm text-slate-600">{billingText(_, money, plan, period)}</p>}
      {(perMonth || savePercent > 0) && (
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
          {perMonth && <span>{perMonth}</span>}
          {savePercent > 0 && (
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">
              {_('pricing.badge.save', { percent: format.number(savePercent) })}
            </span>
          )}
        </p>
      )}
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-slate-500">{_('pricing.summary.duration')}</dt>
        <dd className="font-medium text-slate-800">{period}</dd>
        <dt className="text-slate-500">{_('pricing.summary.data')}</dt>
        <dd className="font-medium text-slate-800">{format.bytes(plan.dataLimitBytes)}</dd>
        <dt className="text-slate-500">{_('pricing.summary.locations')}</dt>
        <dd className="font-medium break-words text-slate-800">{format.places(plan.locationCodes)}</dd>
      </dl>
      <PlanFeatures plan={plan} className="mt-4 space-y-1.5 text-sm text-slate-700" iconClassName="size-4" />
      <div className="mt-auto pt-6">
        {isFree ? (
          <button
            type="button"
            onClick={() => onClaim(plan)}
            disabled={trialBlocked || disabled}
            aria-busy={busy || undefined}
            className={`${BUTTON.primary} w-full`}
          >
            {busy ? _('pricing.plan.creating') : claimLabel(_, money, plan, trialUsed)}
          </button>
        ) : canPay ? (
          <button type="button" onClick={() => onBuy(plan)} disabled={disabled} aria-label={buyLabel} className={`${BUTTON.primary} w-full`}>
            {_('pricing.plan.buy')}
          </button>
        ) : (
          <>
            <button type="button" disabled aria-label={buyLabel} aria-describedby={noteId} className={`${BUTTON.primary} w-full`}>
              {_('pricing.plan.buy')}
            </button>
            <p id={noteId} className="mt-2 text-center text-sm text-slate-500">
              {_('pricing.paymentsUnavailable')}
            </p>
          </>
        )}
      </div>
    </li>
  );
}
