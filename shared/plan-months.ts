/**
 * A plan's length in whole months and its price per month: what the landing page's "Plans from $X/month" needs,
 * apart from the price list's code in pricing.ts (which builds on it), so that page's scripts carry only this.
 */
import type { Plan } from './plans.js';

/** An average month (365.25 / 12 days), for plans counted in days. */
export const DAYS_PER_MONTH = 365.25 / 12;

/** A length that reads as years or months: 'year' × 2 is 24 months of nominally 730 days. */
export interface NominalLength {
  unit: 'year' | 'month';
  count: number;
  months: number;
  /** The nominal length in days, for ordering. */
  days: number;
}

/** ~365·n days are n years, ~30.4·n days n months (a few days either way); anything else is counted in days (null). */
export function nominalLength(days: number): NominalLength | null {
  for (let years = 1; years <= 10; years += 1) {
    if (Math.abs(days - 365 * years) <= years + 1) return { unit: 'year', count: years, months: 12 * years, days: 365 * years };
  }
  for (let months = 1; months < 12; months += 1) {
    if (Math.abs(days - DAYS_PER_MONTH * months) <= Math.max(2, months / 2))
      return { unit: 'month', count: months, months, days: Math.round(DAYS_PER_MONTH * months) };
  }
  return null;
}

/** Listed on the public pages: the operator says so, and it is not the trial. */
export function isListedPublicly(plan: Pick<Plan, 'public' | 'isTrial'>): boolean {
  return plan.public && !plan.isTrial;
}

/** The price per month in minor units of the store currency (rounded), or null for plans counted in days. */
export function perMonthCents(plan: Pick<Plan, 'days' | 'price'>): number | null {
  const length = nominalLength(plan.days);
  return length === null ? null : Math.round(plan.price / length.months);
}

/** The lowest price per month among the paid plans listed publicly (for "from $X/month"), or null. */
export function lowestMonthlyPrice(plans: readonly Plan[]): number | null {
  const prices = plans
    .filter((plan) => isListedPublicly(plan) && plan.price > 0)
    .map(perMonthCents)
    .filter((cents): cents is number => cents !== null);
  return prices.length > 0 ? Math.min(...prices) : null;
}
