import { useLingui } from '@lingui/react';
import { useId } from 'react';
import type { Plan } from '../../../../shared/plans.js';
import { savePercent } from '../../../../shared/pricing.js';
import { useIsolate } from '../../i18n/bidi';
import { useLocale } from '../../i18n/locale-context';
import { PlanCard } from './PlanCard';
import { groupByTier } from './plan-groups';
import { popularBadgePlanIds } from './popular-plan';

interface PlansGridProps {
  plans: readonly Plan[];
  trialUsed: boolean;
  claimingPlanId: string | null;
  onClaim: (plan: Plan) => void;
  /** A payment method (card or crypto) is on: paid plans get an enabled Buy. */
  canPay: boolean;
  onBuy: (plan: Plan) => void;
}

/**
 * The 'Available Plans' section: active plans in the operator's display order, a row of cards per
 * tier, each with its period, price per month and saving as on the pricing page.
 */
export function PlansGrid({ plans, trialUsed, claimingPlanId, onClaim, canPay, onBuy }: PlansGridProps) {
  const { _ } = useLingui();
  const headingId = useId();
  const { locale } = useLocale();
  const isolated = useIsolate();
  const groups = groupByTier(plans, locale);
  const popular = popularBadgePlanIds(plans);
  const card = (plan: Plan, headingLevel: 3 | 4) => (
    <PlanCard
      key={plan.id}
      plan={plan}
      headingLevel={headingLevel}
      savePercent={savePercent(plan, plans)}
      popularBadge={popular.has(plan.id)}
      trialUsed={trialUsed}
      busy={claimingPlanId === plan.id}
      disabled={claimingPlanId !== null}
      onClaim={onClaim}
      canPay={canPay}
      onBuy={onBuy}
    />
  );

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-bold tracking-tight text-slate-900">
        {_('pricing.grid.heading')}
      </h2>
      {plans.length === 0 ? (
        <p className="mt-4 rounded-xl bg-white p-6 text-slate-600 shadow-sm ring-1 ring-slate-200">{_('pricing.grid.empty')}</p>
      ) : (
        <div className="mt-4 space-y-8">
          {groups.map((group) => {
            const titled = group.tier !== null && groups.length > 1;
            return (
              <div key={group.key}>
                {titled && (
                  <h3 className="mb-3 text-sm font-semibold tracking-wider text-slate-500 uppercase">
                    <bdi>{group.tier}</bdi>
                  </h3>
                )}
                <ul
                  aria-label={group.tier ? _('pricing.grid.tierPlans', { tier: isolated(group.tier) }) : undefined}
                  className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
                >
                  {group.plans.map((plan) => card(plan, titled ? 4 : 3))}
                </ul>
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
