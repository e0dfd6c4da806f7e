import { useId } from 'react';
import type { Plan } from '../../../../shared/plans.js';
import { PlanCard } from './PlanCard';

interface PlansGridProps {
  plans: readonly Plan[];
  trialUsed: boolean;
  claimingPlanId: string | null;
  onClaim: (plan: Plan) => void;
  /** Card payments are on: paid plans get an enabled Buy. */
  cardPayments: boolean;
  onBuy: (plan: Plan) => void;
}

/** The 'Available Plans' section: active plans, cheapest first, as the server sends them. */
export function PlansGrid({ plans, trialUsed, claimingPlanId, onClaim, cardPayments, onBuy }: PlansGridProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-bold tracking-tight text-slate-900">
        Available Plans
      </h2>
      {plans.length === 0 ? (
        <p className="mt-4 rounded-xl bg-white p-6 text-slate-600 shadow-sm ring-1 ring-slate-200">
          No plans are available right now. Please check back later.
        </p>
      ) : (
        <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {plans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              trialUsed={trialUsed}
              busy={claimingPlanId === plan.id}
              disabled={claimingPlanId !== null}
              onClaim={onClaim}
              cardPayments={cardPayments}
              onBuy={onBuy}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
