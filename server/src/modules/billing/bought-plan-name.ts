import { planNamesOf } from '../../../../shared/plan-translations.js';
import type { Locale } from '../../../../shared/locales.js';
import type { PlansRepo } from '../plans/index.js';
import type { SubscriptionMetadata } from './billing.repo.js';

/**
 * The name of the plan an order bought, in the customer's language: what the plan was called in it when it
 * was bought (a later rename does not change a sale), else the English name. `recorded` is the name a
 * transaction carries; a name other than the order's own (an order from before a rename) is kept as it is.
 */
export function boughtPlanName(
  metadata: Pick<SubscriptionMetadata, 'plan_name' | 'plan_names'>,
  locale: Locale,
  recorded: string = metadata.plan_name,
): string {
  if (locale === 'en' || recorded !== metadata.plan_name) return recorded;
  return metadata.plan_names?.[locale] || recorded;
}

/**
 * An order's metadata with the names its plan has now in the other languages, for an order from before
 * names were kept with orders (no `plan_names`) whose plan still has the name it was bought under: its
 * customers read the operator's translation from then on. A renamed or deleted plan adds none.
 */
export async function withPlanNames<T extends Pick<SubscriptionMetadata, 'plan_id' | 'plan_name' | 'plan_names'>>(
  metadata: T,
  plans: Pick<PlansRepo, 'findById'>,
): Promise<T> {
  if (metadata.plan_names || !metadata.plan_id) return metadata;
  const plan = await plans.findById(metadata.plan_id);
  return plan && plan.name === metadata.plan_name ? { ...metadata, plan_names: planNamesOf(plan.translations) } : metadata;
}
