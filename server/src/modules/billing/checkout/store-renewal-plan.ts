import type { Db } from '../../../db/knex.js';
import type { PlanRecord } from '../../plans/index.js';
import type { BillingRepo, SubscriptionRecord } from '../billing.repo.js';
import { planNamesOf } from '../../../../../shared/plan-translations.js';

/**
 * A plan this server renews (a saved YooKassa method: `renewed_by: 'store'`) that changes plan (issue 55): its
 * renewals charge and deliver the new plan from then on. The subscription keeps its saved method and its schedule
 * (or the new paid end, when the change starts a new period); a promo of the plan before does not carry over.
 */

/** What a renewal charges and delivers, from a plan (the same fields an order copies from it). */
export type RenewedPlanTerms = Pick<
  SubscriptionRecord['metadata'],
  'plan_id' | 'plan_name' | 'plan_names' | 'price' | 'days' | 'data_limit' | 'locations' | 'device_limit'
>;

export const renewedTermsOf = (plan: PlanRecord): RenewedPlanTerms => ({
  plan_id: plan.id,
  plan_name: plan.name,
  plan_names: planNamesOf(plan.translations),
  price: plan.price,
  days: plan.days,
  data_limit: plan.dataLimitBytes,
  locations: plan.locations,
  device_limit: plan.deviceLimit,
});

/** Moves the account's store renewal (if it has one) to `terms`; `periodEnd`: its next charge is for the period that ends then. */
export async function moveStoreRenewal(
  deps: { billing: Pick<BillingRepo, 'renewingSubscriptionOf' | 'updateSubscription'> },
  accountId: string,
  terms: RenewedPlanTerms,
  now: Date,
  trx: Db,
  periodEnd?: Date,
): Promise<void> {
  const renewing = await deps.billing.renewingSubscriptionOf(accountId, trx);
  if (!renewing || renewing.metadata.renewed_by !== 'store') return;
  const { promo: _promo, bonus_days: _bonus, ...kept } = renewing.metadata;
  await deps.billing.updateSubscription(renewing.id, { metadata: { ...kept, ...terms }, ...(periodEnd ? { currentPeriodEnd: periodEnd } : {}) }, now, trx);
}
