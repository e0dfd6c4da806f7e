import { createContext, useContext } from 'react';
import { planText, type PlanText, type PlanTranslations } from '../../../../shared/plan-translations.js';
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
export function useKeptPlanName(): (name: string, planId?: string | null) => string {
  const { locale } = useLocale();
  const plans = useContext(PlansOnSaleContext);
  return (name, planId) => keptPlanName(plans, name, locale, planId);
}
