import type { Locale } from '../../../../shared/locales.js';
import { planText, type PlanNames, type PlanText, type PlanTranslations } from '../../../../shared/plan-translations.js';

type TranslatablePlan = PlanText & { id: string; translations?: PlanTranslations };

/**
 * A plan name an account, a subscription or a payment kept from when it was bought, in `locale`: the
 * name in that language kept with it (`names`, what the server sends), else the plan's translated name
 * when a plan on sale still has that English name (found by id first), else the kept name as it is. A
 * plan renamed since keeps the name the customer paid for; one taken off sale keeps its translation.
 */
export function keptPlanName(plans: readonly TranslatablePlan[], name: string, locale: Locale, planId?: string | null, names?: PlanNames): string {
  const kept = locale === 'en' ? undefined : names?.[locale];
  if (kept) return kept;
  const byId = planId ? plans.find((plan) => plan.id === planId && plan.name === name) : undefined;
  const plan = byId ?? plans.find((candidate) => candidate.name === name);
  return plan ? planText(plan, locale).name : name;
}
