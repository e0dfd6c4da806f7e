/**
 * How the plans on sale read as a price list: billing periods named from a plan's days, tiers
 * grouped by tier name, the price per month and the saving against the same tier's shortest plan.
 * Every figure comes from the plans themselves (`GET /api/plans`): no price lives in code.
 */
import { formatDuration } from './plan-format.js';
import { DAYS_PER_MONTH, isListedPublicly, nominalLength, perMonthCents } from './plan-months.js';
import type { Plan } from './plans.js';

export { DAYS_PER_MONTH, isListedPublicly, lowestMonthlyPrice, perMonthCents } from './plan-months.js';

export interface BillingPeriod {
  /** The same for plans of about the same length: 'year-2', 'month-1', 'days-7'. */
  key: string;
  /** The toggle's label: '2 years', '1 year', '1 month', otherwise the days ('7 days'). */
  label: string;
  /** Whole months it stands for, or null when it is counted in days. */
  months: number | null;
  /** Its nominal length, for ordering. */
  days: number;
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;

/** ~365·n days are n years, ~30.4·n days n months (plan-months.ts); anything else is days. */
export function billingPeriodOf(days: number): BillingPeriod {
  const length = nominalLength(days);
  if (length) return { key: `${length.unit}-${length.count}`, label: plural(length.count, length.unit), months: length.months, days: length.days };
  return { key: `days-${days}`, label: formatDuration(days), months: null, days };
}

const monthsOf = (plan: Pick<Plan, 'days'>) => billingPeriodOf(plan.days).months ?? plan.days / DAYS_PER_MONTH;

/** Plans sharing a tier name are one tier (names compared without case); a plan without one is a tier of its own. */
export function tierKeyOf(plan: Pick<Plan, 'id' | 'tier'>): string {
  return plan.tier ? `tier:${plan.tier.trim().toLowerCase()}` : `plan:${plan.id}`;
}

/**
 * The 'Save N%' figure: how much less a month costs on `plan` than on the shortest plan of its tier
 * among `plans`. 0 for the shortest plan itself, a free one, or no saving.
 */
export function savePercent(plan: Plan, plans: readonly Plan[]): number {
  const key = tierKeyOf(plan);
  const shortest = plans.filter((other) => tierKeyOf(other) === key).reduce((a, b) => (b.days < a.days ? b : a), plan);
  if (shortest.id === plan.id || shortest.price <= 0 || shortest.days >= plan.days) return 0;
  const saving = 1 - plan.price / monthsOf(plan) / (shortest.price / monthsOf(shortest));
  return Math.max(0, Math.round(saving * 100));
}

export interface PricingOffer {
  /** The tier's key (tierKeyOf) and name: the tier name, or the plan's name when it has none. */
  tierKey: string;
  tierName: string;
  plan: Plan;
  perMonthCents: number | null;
  savePercent: number;
  /**
   * The plan's own period: the view's, or, for a tier with no plan of the view's length, that of its plan nearest in
   * length (a tier sold monthly only still shows in the 2-year view, as a monthly plan: no tier on sale is hidden).
   */
  period: BillingPeriod;
}

export interface PricingPeriod extends BillingPeriod {
  /** One offer per tier on sale, in the tiers' display order: its plan of this length, else its nearest (`offer.period`). */
  offers: PricingOffer[];
}

export interface PricingTable {
  /** Longest first. */
  periods: PricingPeriod[];
  /**
   * The period the toggle starts on: the longest one with a 'Most Popular' plan, or else the one
   * most tiers have (the longer on a tie).
   */
  defaultPeriodKey: string | null;
}

/**
 * The pricing page from the plans: only those listed publicly; tiers ordered by their lowest
 * display order (then by where their first plan came); within a tier and period, the first plan.
 */
export function buildPricingTable(plans: readonly Plan[]): PricingTable {
  const listed = [...plans].filter(isListedPublicly).sort((a, b) => a.sortOrder - b.sortOrder);
  const tierOrder: string[] = [];
  for (const plan of listed) if (!tierOrder.includes(tierKeyOf(plan))) tierOrder.push(tierKeyOf(plan));

  const offerOf = (plan: Plan): PricingOffer => ({
    tierKey: tierKeyOf(plan),
    tierName: plan.tier?.trim() || plan.name,
    plan,
    perMonthCents: perMonthCents(plan),
    savePercent: savePercent(plan, listed),
    period: billingPeriodOf(plan.days),
  });
  const periods = new Map<string, PricingPeriod>();
  for (const plan of listed) {
    const period = billingPeriodOf(plan.days);
    const entry = periods.get(period.key) ?? { ...period, offers: [] };
    periods.set(period.key, entry);
    if (entry.offers.some((offer) => offer.tierKey === tierKeyOf(plan))) continue;
    entry.offers.push(offerOf(plan));
  }

  const sorted = [...periods.values()].sort((a, b) => b.days - a.days);
  const withPopular = sorted.find((period) => period.offers.some((offer) => offer.plan.mostPopular));
  const busiest = sorted.reduce<PricingPeriod | null>((best, period) => (!best || period.offers.length > best.offers.length ? period : best), null);
  for (const period of sorted) {
    for (const tierKey of tierOrder) {
      if (period.offers.some((offer) => offer.tierKey === tierKey)) continue;
      const nearest = nearestPlan(
        listed.filter((plan) => tierKeyOf(plan) === tierKey),
        period.days,
      );
      if (nearest) period.offers.push(offerOf(nearest));
    }
    period.offers.sort((a, b) => tierOrder.indexOf(a.tierKey) - tierOrder.indexOf(b.tierKey));
  }
  return { periods: sorted, defaultPeriodKey: (withPopular ?? busiest)?.key ?? null };
}

/** The plan whose length is nearest `days` (by ratio: 1 month is nearer 3 months than 1 year is), the longer on a tie. */
function nearestPlan(plans: readonly Plan[], days: number): Plan | undefined {
  const distance = (plan: Plan) => Math.abs(Math.log(plan.days / days));
  return plans.reduce<Plan | undefined>((best, plan) => {
    if (!best) return plan;
    const [a, b] = [distance(plan), distance(best)];
    return a < b || (a === b && plan.days > best.days) ? plan : best;
  }, undefined);
}
