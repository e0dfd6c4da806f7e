import type { Plan } from '../../../../shared/plans.js';
import { tierKeyOf } from '../../../../shared/pricing.js';

/**
 * The plans whose dashboard card says 'Most Popular'. The flag is the operator's, set on every plan of
 * a popular tier (the pricing page shows one period at a time, so it shows once there); the dashboard
 * lists every period together, so the badge goes once per tier: on its shortest plan marked popular
 * (the first in display order on a tie), the one the tier's savings are counted against.
 */
export function popularBadgePlanIds(plans: readonly Pick<Plan, 'id' | 'tier' | 'days' | 'mostPopular' | 'isTrial'>[]): ReadonlySet<string> {
  const chosen = new Map<string, { id: string; days: number }>();
  for (const plan of plans) {
    if (!plan.mostPopular || plan.isTrial) continue;
    const key = tierKeyOf(plan);
    const current = chosen.get(key);
    if (!current || plan.days < current.days) chosen.set(key, { id: plan.id, days: plan.days });
  }
  return new Set([...chosen.values()].map((plan) => plan.id));
}
