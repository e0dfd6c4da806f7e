import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../../db/knex.js';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';
import type { Clock } from '../../../lib/clock.js';
import { PaymentProviderError, PROVIDER_CANNOT } from '../../../payments/payment-driver.js';
import type { BillingRepo } from '../billing.repo.js';
import type { DriverForSubscription } from './reconcile-subscriptions.js';
import type { RecurringPayments } from './recurring-payments.js';

export const DEFER_RENEWAL = 'defer_renewal';

/**
 * The intent to move a subscription's next charge to `until`, written in the transaction that gave the account
 * those days (a referral's extra days on a first period): the job tells the provider, as often as it takes.
 */
export async function enqueueDeferRenewal(jobs: JobsRepo, subscriptionId: string, until: Date, now: Date, trx: Db): Promise<void> {
  await jobs.enqueue(
    {
      type: DEFER_RENEWAL,
      payload: { subscriptionId, until: until.toISOString() },
      dedupeKey: `${DEFER_RENEWAL}:${subscriptionId}:${until.getTime()}`,
      maxAttempts: 200,
    },
    now,
    trx,
  );
}

const Payload = z.object({ subscriptionId: z.string().min(1), until: z.string().datetime() });

/**
 * Moves the provider's next charge to the end of the days given, so the customer is not charged for them: the
 * provider's answer is applied like any state of the subscription. Nothing is asked of the provider once the
 * subscription has ended or a later period was already charged (the days then stay on our side alone), and a
 * provider that cannot move a charge (Telegram Stars) is not asked again.
 */
export function createDeferRenewalHandler(deps: {
  db: Db;
  billing: BillingRepo;
  driverFor: DriverForSubscription;
  recurring: RecurringPayments;
  clock: Clock;
  log: FastifyBaseLogger;
}): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad defer-renewal payload');
    const until = new Date(parsed.data.until);
    const subscription = await deps.billing.findSubscription(parsed.data.subscriptionId);
    if (!subscription?.providerSubscriptionId || subscription.status === 'canceled') return;
    if (until <= deps.clock() || (subscription.currentPeriodEnd && subscription.currentPeriodEnd > until)) {
      deps.log.warn({ subscriptionId: subscription.id, until }, 'recurring: too late to move the next charge; the days given stay ours alone');
      return;
    }
    const driver = await deps.driverFor(subscription);
    if (!driver) throw new Error('No payment provider keys for this subscription');
    let state;
    try {
      state = await driver.deferNextCharge(subscription.providerSubscriptionId, until);
    } catch (err) {
      if (!(err instanceof PaymentProviderError && err.rejected && err.code === PROVIDER_CANNOT)) throw err;
      deps.log.warn(
        { subscriptionId: subscription.id, until, reason: err.message },
        'recurring: the provider cannot move the next charge; the days given stay ours alone',
      );
      return;
    }
    await deps.db.transaction((trx) => deps.recurring.applyState(state, trx));
    deps.log.info({ subscriptionId: subscription.id, until }, 'recurring: next charge moved after the days given');
  };
}
