import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/knex.js';
import { addSeconds, type Clock } from '../../lib/clock.js';
import type { CardDriverSource } from '../../modules/billing/card-driver.js';
import type { RecurringPayments } from '../../modules/billing/recurring-payments.js';
import type { RenewalScheduleRepo } from '../../modules/billing/renewal-schedule.repo.js';
import type { JobsRepo } from '../jobs.repo.js';
import type { JobHandler } from '../worker.js';

export const RECONCILE_SUBSCRIPTIONS = 'reconcile_subscriptions';
/** Every 5 minutes, at most 50 subscriptions (2 or more provider calls each): a lost renewal webhook costs minutes, not a period. */
export const RECONCILE = { intervalSeconds: 300, batch: 50 } as const;

export async function scheduleSubscriptionReconcile(jobs: JobsRepo, now: Date): Promise<void> {
  await jobs.ensureRecurring({ type: RECONCILE_SUBSCRIPTIONS, payload: {}, dedupeKey: RECONCILE_SUBSCRIPTIONS, maxAttempts: 1000 }, now);
}

/**
 * Reads from the provider the recurring subscriptions that may have moved without a webhook reaching
 * us (a renewal due, a past_due one, one not started) and applies what it says, exactly as the webhooks
 * would: the same invoice applied twice changes nothing. A provider that does not answer is tried on the next pass.
 */
export function createReconcileSubscriptionsHandler(deps: {
  db: Db; schedule: RenewalScheduleRepo; cards: CardDriverSource; recurring: RecurringPayments; clock: Clock; log: FastifyBaseLogger;
}): JobHandler {
  return async () => {
    const next = () => addSeconds(deps.clock(), RECONCILE.intervalSeconds);
    const driver = await deps.cards.current();
    if (!driver) return { runAgainAt: next(), note: 'card payments are not configured' };
    const due = await deps.schedule.listToReconcile(deps.clock(), RECONCILE.batch);
    const failures: string[] = [];
    let applied = 0;
    for (const subscription of due) {
      try {
        const { subscription: state, invoices } = await driver.readSubscription(subscription.providerSubscriptionId!);
        await deps.db.transaction(async (trx) => {
          // Oldest invoice first, then the subscription's state as it is now.
          for (const invoice of [...invoices].reverse()) if (await deps.recurring.applyInvoice(invoice, trx)) applied += 1;
          await deps.recurring.applyState(state, trx);
        });
      } catch (err) {
        deps.log.warn({ err, subscriptionId: subscription.id }, 'reconcile: could not read a subscription from the provider');
        failures.push(`${subscription.id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (applied > 0) deps.log.warn({ applied }, 'reconcile: applied invoices no webhook had delivered');
    return { runAgainAt: next(), note: failures.length > 0 ? failures.slice(0, 5).join('; ') : null };
  };
}
