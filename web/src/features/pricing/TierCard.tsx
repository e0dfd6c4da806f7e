import { useLingui } from '@lingui/react';
import { PlanFeatures } from '../plans/PlanFeatures';
import { usePlanText } from '../plans/usePlanText';
import { useIsolate } from '../../i18n/bidi';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { BillingPeriod, PricingOffer } from '../../../../shared/pricing.js';
import { useFormat } from '../../i18n/format';
import { useStoreMoney } from '../config/useStoreMoney';
import { billingText, periodLabel, tierTitle } from './plan-text';

interface TierCardProps {
  offer: PricingOffer;
  period: BillingPeriod;
  /** Where Get leads: /login (then the dashboard) signed out, the dashboard signed in; with the plan. */
  href: string;
}

/** The price as it reads big: per month when the plan counts in months, else the whole price. */
function Price({ offer, period }: { offer: PricingOffer; period: string }) {
  const { _ } = useLingui();
  const money = useStoreMoney();
  const { plan, perMonthCents } = offer;
  if (plan.price === 0) return <span className="text-4xl font-extrabold tracking-tight text-slate-900">{_('pricing.tier.free')}</span>;
  if (perMonthCents === null) {
    return (
      <>
        <span className="text-4xl font-extrabold tracking-tight text-slate-900">{money(plan.price)}</span>
        <span className="text-slate-600">{_('pricing.price.forPeriod', { period })}</span>
      </>
    );
  }
  return (
    <>
      <span className="text-4xl font-extrabold tracking-tight text-slate-900">{money(perMonthCents)}</span>
      <span className="text-slate-600">
        <span aria-hidden="true">{_('pricing.tier.perMonthShort')}</span>
        <span className="sr-only">{_('pricing.tier.perMonth')}</span>
      </span>
    </>
  );
}

/**
 * One tier for the chosen period: the price per month, what is charged (the plan's own price, once
 * or every period) and whether it renews, the saving against the tier's shortest plan, its feature
 * lines and Get. Names are the operator's in the page's language (the tier is grouped by its English
 * name, shared/pricing.ts) and isolated (`<bdi>`): "3-Hour Trial" stays so on a right-to-left page.
 */
export function TierCard({ offer, period, href }: TierCardProps) {
  const { _ } = useLingui();
  const format = useFormat();
  const money = useStoreMoney();
  const headingId = useId();
  const { plan, savePercent } = offer;
  const text = usePlanText(plan);
  const isolated = useIsolate();
  const tierName = tierTitle(text);
  const popular = plan.mostPopular;
  const label = periodLabel(_, format, period);

  return (
    <article
      aria-labelledby={headingId}
      className={`relative flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm sm:p-8 ${
        popular ? 'shadow-indigo-200 ring-2 ring-indigo-600 lg:shadow-xl' : 'ring-1 ring-slate-200'
      }`}
    >
      {popular && (
        <p className="absolute inset-x-0 -top-3.5 mx-auto w-fit rounded-full bg-indigo-600 px-3 py-1 text-xs font-semibold whitespace-nowrap text-white shadow-sm">
          {_('pricing.badge.mostPopular')}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        {/* dir="auto": the heading sits in a row sized to it, so it is isolated without moving. */}
        <h3 id={headingId} dir="auto" className="text-xl font-bold text-slate-900">
          {tierName}
        </h3>
        {savePercent > 0 && (
          <span className="rounded-full bg-emerald-100 px-3 py-1 text-xs font-semibold text-emerald-900">
            {_('pricing.badge.save', { percent: format.number(savePercent) })}
          </span>
        )}
      </div>
      <p className="mt-1 text-sm text-slate-500">
        <bdi>{text.name}</bdi>
      </p>
      <p className="mt-6 flex flex-wrap items-baseline gap-x-1">
        <Price offer={offer} period={label} />
      </p>
      <p className="mt-1 text-sm text-slate-600">{billingText(_, money, plan, label)}</p>
      {/* A plan sold for some places only (locations per plan) says which, by name in the reader's language. */}
      {plan.locationCodes.length > 0 && (
        <p className="mt-1 text-sm font-medium text-slate-700">{_('pricing.tier.locations', { places: format.places(plan.locationCodes) })}</p>
      )}
      <Link
        to={href}
        className={`mt-6 block rounded-lg px-4 py-3 text-center font-semibold shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
          popular ? 'bg-indigo-600 text-white hover:bg-indigo-700' : 'bg-indigo-50 text-indigo-800 hover:bg-indigo-100'
        }`}
      >
        {_('pricing.tier.get', { tier: isolated(tierName) })}
      </Link>
      <PlanFeatures plan={plan} className="mt-6 space-y-2.5 border-t border-slate-100 pt-6 text-sm leading-6 text-slate-700" iconClassName="size-5" />
    </article>
  );
}
