import { createContext, useContext } from 'react';
import { planText, type PlanNames, type PlanText, type PlanTranslations } from '../../../../shared/plan-translations.js';
import type { Plan } from '../../../../shared/plans.js';
import { useLocale } from '../../i18n/locale-context';
import { keptPlanName } from './plan-names';

/** A plan's name, tier and feature lines in the page's language (English where the operator gave none). */
export function usePlanText(plan: PlanText & { translations?: PlanTranslations }): PlanText {
  const { locale } = useLocale();
  return planText(plan, locale);
}

/** The plans on sale where the dashboard shows accounts, subscriptions and payments: their kept plan names are translated from them. */
export const PlansOnSaleContext = createContext<readonly Plan[]>([]);

/** `keptPlanName` in the page's language, against the plans on sale. */
export function useKeptPlanName(): (name: string, planId?: string | null, names?: PlanNames) => string {
  const { locale } = useLocale();
  const plans = useContext(PlansOnSaleContext);
  return (name, planId, names) => keptPlanName(plans, name, locale, planId, names);
}

/** A plan on sale's name in the page's language, by its id (null when it is not on sale). */
export function usePlanNameById(): (planId: string) => string | null {
  const { locale } = useLocale();
  const plans = useContext(PlansOnSaleContext);
  return (planId) => {
    const plan = plans.find((candidate) => candidate.id === planId);
    return plan ? planText(plan, locale).name : null;
  };
}
