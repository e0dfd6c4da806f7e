import type { I18n } from '@lingui/core';
import { renewalIntervalOf, type RenewalInterval } from '../../../../shared/plan-billing.js';
import type { PlanText } from '../../../../shared/plan-translations.js';
import type { PlanBilling } from '../../../../shared/plans.js';
import type { BillingPeriod } from '../../../../shared/pricing.js';
import type { Formatters } from '../../i18n/format';
import type { StoreMoney } from '../config/useStoreMoney';

/** `_` of `useLingui()`. */
type Translate = I18n['_'];

const INTERVAL_IDS: Record<RenewalInterval['unit'], string> = {
  day: 'pricing.interval.day',
  week: 'pricing.interval.week',
  month: 'pricing.interval.month',
  year: 'pricing.interval.year',
};

/**
 * A billing period as the toggle and the cards name it: '2 years', '1 year', '1 month', otherwise
 * its days ('7 days', or hours under a day). The web's words for shared/pricing.ts's `label`.
 */
export function periodLabel(_: Translate, format: Formatters, period: Pick<BillingPeriod, 'months' | 'days'>): string {
  if (period.months === null) return format.duration(period.days);
  if (period.months % 12 === 0) return _('pricing.period.years', { count: period.months / 12 });
  return _('pricing.period.months', { count: period.months });
}

/**
 * A pricing card's title from a plan's texts in the page's language (`planText`): its tier's name, or
 * its own name when it has no tier, as shared/pricing.ts names the tier it groups by the English name.
 */
export function tierTitle(text: PlanText): string {
  return text.tier?.trim() || text.name;
}

/** 'every month', 'every 3 months', 'every year', 'every 10 days' (shared/plan-billing.ts's describeInterval). */
export function intervalText(_: Translate, interval: RenewalInterval): string {
  return _(INTERVAL_IDS[interval.unit], { count: interval.count });
}

/**
 * The line under a price: "$59.88 billed every year, renews automatically; cancel any time", or for a
 * one-off plan "$12.99 billed once for 1 month"; `money` writes the price in the store's currency.
 */
export function billingText(_: Translate, money: StoreMoney, plan: { price: number; days: number; billing: PlanBilling }, period: string): string {
  const interval = plan.billing === 'recurring' ? renewalIntervalOf(plan.days) : null;
  if (plan.price === 0) return _('pricing.billing.free', { period });
  const price = money(plan.price);
  if (interval) return _('pricing.billing.recurring', { price, interval: intervalText(_, interval) });
  return _('pricing.billing.oneOff', { price, period });
}
