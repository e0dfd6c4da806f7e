import { renewalIntervalOf } from '../../../../../shared/plan-billing.js';
import { formatBytes, formatDuration, formatLocations } from '../../../../../shared/plan-format.js';
import type { RecurringPriceSpec } from '../../../payments/payment-driver.js';
import type { PlanRecord } from '../../plans/index.js';

/** "30 days · 50 GB · All locations", the line under the plan's name on the provider's pages. */
export const describePlan = (plan: PlanRecord) => `${formatDuration(plan.days)} · ${formatBytes(plan.dataLimitBytes)} · ${formatLocations(plan.locations)}`;

/**
 * The provider's product and price a recurring plan is sold as, in the store's `currency` (the plan's price
 * is minor units of it); null for a plan that does not renew by itself.
 */
export function recurringPriceSpec(plan: PlanRecord, currency: string): RecurringPriceSpec | null {
  const interval = renewalIntervalOf(plan.days);
  if (plan.billing !== 'recurring' || !interval) return null;
  return { planId: plan.id, productName: plan.name, description: describePlan(plan), amount: plan.price, currency, interval };
}
