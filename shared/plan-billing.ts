import { DAYS_PER_MONTH, nominalLength } from './plan-months.js';

/**
 * One-off and recurring plans: how often a recurring plan renews (in the payment provider's terms)
 * (web/src/features/pricing/plan-text.ts says how a price reads on the pricing page and in the payment dialog).
 */

export type RenewalUnit = 'day' | 'week' | 'month' | 'year';

/** How often a recurring plan is charged: every `count` `unit`s. */
export interface RenewalInterval {
  unit: RenewalUnit;
  count: number;
}

/** The longest a provider bills at once (Stripe: three years) and the shortest (a day). */
export const RECURRING_DAYS = { min: 1, max: 1095 } as const;

/**
 * Monthly or yearly when the plan is a whole number of months or years by the rule the pricing page names its
 * length with (plan-months.ts `nominalLength`: 30 or 31 days → every month, 91 → every 3 months, 365 → every
 * year), so a plan sold as "1 month" renews every month; weekly for whole weeks, otherwise every N days. Null
 * when the plan cannot renew by itself (fractional days, or longer than a provider bills).
 */
export function renewalIntervalOf(days: number): RenewalInterval | null {
  if (!Number.isInteger(days) || days < RECURRING_DAYS.min || days > RECURRING_DAYS.max) return null;
  const length = nominalLength(days);
  if (length) return { unit: length.unit, count: length.count };
  if (days % 7 === 0 && days <= 7 * 12) return { unit: 'week', count: days / 7 };
  return { unit: 'day', count: days };
}

/** 'every month', 'every 3 months', 'every year', 'every 10 days'. */
export function describeInterval(interval: RenewalInterval): string {
  return interval.count === 1 ? `every ${interval.unit}` : `every ${interval.count} ${interval.unit}s`;
}

/** Why a plan cannot be recurring, or null when it can. */
export function recurringProblem(days: number): string | null {
  return renewalIntervalOf(days) ? null : `A recurring plan lasts whole days, from ${RECURRING_DAYS.min} to ${RECURRING_DAYS.max}.`;
}

/**
 * What a recurring plan brings in per month (minor units, not rounded), as it is charged: every month →
 * its price, every 3 months → a third, every year → a twelfth; by days or weeks, per average month.
 */
export function monthlyAmountOf(price: number, days: number): number {
  const interval = renewalIntervalOf(days);
  if (interval?.unit === 'month') return price / interval.count;
  if (interval?.unit === 'year') return price / (12 * interval.count);
  return (price * DAYS_PER_MONTH) / days;
}
