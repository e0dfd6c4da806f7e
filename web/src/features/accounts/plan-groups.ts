import type { Locale } from '../../../../shared/locales.js';
import { planText } from '../../../../shared/plan-translations.js';
import type { Plan } from '../../../../shared/plans.js';

export interface PlanGroup {
  /** The English tier name, as the plans are grouped by; '' for the plans that have none (the trial, one-off plans). */
  key: string;
  /** The tier's name in the page's language (its first plan's translation); null without a tier. */
  tier: string | null;
  plans: Plan[];
}

/**
 * Plans of one tier together (as on the pricing page: by the English tier name, whatever its
 * translations), named in `locale`, the groups in the order their first plan comes.
 */
export function groupByTier(plans: readonly Plan[], locale: Locale): PlanGroup[] {
  const groups = new Map<string, PlanGroup>();
  for (const plan of plans) {
    const key = plan.tier ? plan.tier.trim().toLowerCase() : '';
    const group = groups.get(key) ?? { key, tier: plan.tier?.trim() ? planText(plan, locale).tier?.trim() || null : null, plans: [] };
    group.plans.push(plan);
    groups.set(key, group);
  }
  return [...groups.values()];
}
