import { z } from 'zod';
import type { StripeDriverSource } from '../provider-accounts/stripe-driver-source.js';
import { recurringPriceSpec } from './recurring-catalog.js';
import type { PlansRepo } from '../../plans/index.js';
import type { SettingsService } from '../../settings/index.js';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';

export const SYNC_PLAN_PRICE = 'sync_plan_price';

/** After a recurring plan is saved: its Stripe product and price are brought in step (retried while Stripe does not answer). */
export async function enqueuePlanPriceSync(jobs: JobsRepo, plan: { id: string; updatedAt: Date }, now: Date): Promise<void> {
  await jobs.enqueue(
    { type: SYNC_PLAN_PRICE, payload: { planId: plan.id }, dedupeKey: `${SYNC_PLAN_PRICE}:${plan.id}:${plan.updatedAt.getTime()}`, maxAttempts: 50 },
    now,
  );
}

const Payload = z.object({ planId: z.string().min(1) });

/**
 * Creates the plan's product (or renames it) and a price for its amount and interval when there is none
 * yet: a changed price becomes a new Price, and subscribers keep the one they signed up at. Without
 * card keys there is nothing to sync; the first checkout does it then. The price is in the store's currency
 * now (a new currency is a new Price too).
 */
export function createSyncPlanPriceHandler(deps: {
  plans: PlansRepo;
  settings: Pick<SettingsService, 'getAppSettings'>;
  cards: StripeDriverSource;
}): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad plan price payload');
    const plan = await deps.plans.findById(parsed.data.planId);
    const spec = plan?.status === 'active' ? recurringPriceSpec(plan, (await deps.settings.getAppSettings()).currency) : null;
    if (!spec) return;
    const driver = await deps.cards.current();
    if (!driver) return;
    await driver.ensureRecurringPrice(spec);
  };
}
