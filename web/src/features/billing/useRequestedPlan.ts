import { useLingui } from '@lingui/react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Plan } from '../../../../shared/plans.js';
import { TRIAL_PLAN_REQUEST } from '../pricing/trial-request';
import { ACCOUNT_UI_MESSAGES } from '../accounts/messages';

/** The query parameter the pricing page's 'Get' buttons put on /dashboard. */
export const REQUESTED_PLAN_PARAM = 'plan';

interface RequestedPlanOptions {
  plans: readonly Plan[];
  /** The dashboard's plans have loaded (the plan is looked up among them). */
  loaded: boolean;
  canPay: boolean;
  /** The customer's trial is used: asking for it only says so. */
  trialUsed: boolean;
  /** Claims the trial (the server decides, and refuses a second one). */
  onClaimTrial: (plan: Plan) => void;
  /** Opens the payment dialog for a plan that can be bought. */
  onBuy: (plan: Plan) => void;
  /** A message for the dashboard's error banner. */
  onProblem: (message: string) => void;
}

/** A plan is bought through the payment dialog when it costs something (the trial too, when it has a price). */
const needsPayment = (plan: Plan) => plan.price > 0;

/** The plan a `?plan=` value names: its id, or `trial` for the trial plan (none when the trial is off). */
function findRequestedPlan(plans: readonly Plan[], planId: string): Plan | undefined {
  if (planId === TRIAL_PLAN_REQUEST) return plans.find((plan) => plan.isTrial);
  return plans.find((candidate) => candidate.id === planId);
}

/**
 * The dashboard as the target of the pricing page and the free-trial forms (`?plan=<id>`,
 * `?plan=trial`): once the plans are in, opens the payment dialog for a plan that can be bought (a trial with a price
 * too), claims a free trial (or says it was used; the plans are right there), says why not otherwise (a free
 * plan is simply on the grid), and drops the parameter from the address either way, so a reload
 * does not ask again.
 */
export function useRequestedPlan({ plans, loaded, canPay, trialUsed, onClaimTrial, onBuy, onProblem }: RequestedPlanOptions): void {
  const { _ } = useLingui();
  const [searchParams, setSearchParams] = useSearchParams();
  const planId = searchParams.get(REQUESTED_PLAN_PARAM);
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!planId || !loaded || handled.current === planId) return;
    handled.current = planId;
    const plan = findRequestedPlan(plans, planId);
    // The trial forms ask for the trial even when it is off: then this is simply the dashboard.
    if (!plan) {
      if (planId !== TRIAL_PLAN_REQUEST) onProblem(_('pricing.requested.planUnavailable'));
    } else if (plan.isTrial && trialUsed) onProblem(_(ACCOUNT_UI_MESSAGES.trialAlreadyUsed));
    else if (plan.isTrial && !needsPayment(plan)) onClaimTrial(plan);
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
  }, [planId, loaded, plans, canPay, trialUsed, onClaimTrial, onBuy, onProblem, setSearchParams, _]);
}
