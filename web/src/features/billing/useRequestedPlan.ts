import { useLingui } from '@lingui/react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Plan } from '../../../../shared/plans.js';

/** The query parameter the pricing page's 'Get' buttons put on /dashboard. */
export const REQUESTED_PLAN_PARAM = 'plan';

interface RequestedPlanOptions {
  plans: readonly Plan[];
  /** The dashboard's plans have loaded (the plan is looked up among them). */
  loaded: boolean;
  canPay: boolean;
  /** Opens the payment dialog for a plan that can be bought. */
  onBuy: (plan: Plan) => void;
  /** A message for the dashboard's error banner. */
  onProblem: (message: string) => void;
}

/** A plan is bought through the payment dialog when it costs something and is not the trial. */
const needsPayment = (plan: Plan) => plan.price > 0 && !plan.isTrial;

/**
 * The dashboard as the pricing page's target (`?plan=<id>`): once the plans are in, opens the
 * payment dialog for that plan if it can be bought (a free plan or the trial is simply on the
 * grid), says why not otherwise, and drops the parameter from the address either way.
 */
export function useRequestedPlan({ plans, loaded, canPay, onBuy, onProblem }: RequestedPlanOptions): void {
  const { _ } = useLingui();
  const [searchParams, setSearchParams] = useSearchParams();
  const planId = searchParams.get(REQUESTED_PLAN_PARAM);
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!planId || !loaded || handled.current === planId) return;
    handled.current = planId;
    const plan = plans.find((candidate) => candidate.id === planId);
    if (!plan) onProblem(_('pricing.requested.planUnavailable'));
    else if (needsPayment(plan) && !canPay) onProblem(_('pricing.paymentsUnavailable'));
    else if (needsPayment(plan)) onBuy(plan);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(REQUESTED_PLAN_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [planId, loaded, plans, canPay, onBuy, onProblem, setSearchParams, _]);
}
