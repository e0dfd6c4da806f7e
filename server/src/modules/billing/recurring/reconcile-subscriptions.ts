import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import { addSeconds, type Clock } from '../../../lib/clock.js';
import type { SubscriptionRecord } from '../billing.repo.js';
import { nextReadAfterSuccess, nextTryAfterFailure, READ_SCHEDULE } from './reconcile-policy.js';
import type { ReconcileScheduleRepo } from './reconcile-schedule.repo.js';
import type { RecurringPayments } from './recurring-payments.js';
import { PaymentProviderError, type PaymentDriver } from '../../../payments/payment-driver.js';
import type { JobHandler } from '../../../jobs/worker.js';

export const RECONCILE_SUBSCRIPTIONS = 'reconcile_subscriptions';
/**
 * Every 5 minutes, the subscriptions whose read is due (see reconcile-policy.ts), 50 at a time, at most
 * 200 (2 or more provider calls each) or 2 minutes a pass: a lost renewal webhook costs hours, not a period.
 */
export const RECONCILE = { intervalSeconds: 300, batch: 50, maxPerPass: 200, passBudgetMs: 120_000 } as const;

/** The provider's driver for one subscription (the account that took it), or null when there are no keys for it. */
export type DriverForSubscription = (subscription: SubscriptionRecord) => Promise<PaymentDriver | null>;

const describeError = (err: unknown) =>
  err instanceof PaymentProviderError && err.code ? `${err.message} (${err.code})` : err instanceof Error ? err.message : String(err);

/**
 * Reads live recurring subscriptions from their provider and applies what it says, exactly as the
 * webhooks would: the same invoice applied twice changes nothing. Each subscription is read when its
 * row is due: at least daily, sooner around its renewal; a read that fails backs off on its own row,
 * so subscriptions that always fail never fill a pass. Two passes at once each claim a row before reading it.
 */
export function createReconcileSubscriptionsHandler(deps: {
  db: Db;
  reads: ReconcileScheduleRepo;
  driverFor: DriverForSubscription;
  recurring: RecurringPayments;
  clock: Clock;
  log: FastifyBaseLogger;
}): JobHandler {
  /** Reads one subscription and applies its invoices (oldest first) and state: how many invoices changed something, and the subscription after. */
  async function reconcile(subscription: SubscriptionRecord): Promise<{ applied: number; after: SubscriptionRecord }> {
    const driver = await deps.driverFor(subscription);
    if (!driver) throw new Error('No payment provider keys to read this subscription with');
    const { subscription: state, invoices } = await driver.readSubscription(subscription.providerSubscriptionId!);
    return deps.db.transaction(async (trx) => {
      let applied = 0;
      for (const invoice of [...invoices].reverse()) if (await deps.recurring.applyInvoice(invoice, trx)) applied += 1;
      const after = (await deps.recurring.applyState(state, trx)) ?? subscription;
      return { applied, after };
    });
  }

  return async () => {
    const started = performance.now();
    const withinBudget = (tried: number) => tried < RECONCILE.maxPerPass && performance.now() - started < RECONCILE.passBudgetMs;
    await deps.reads.enrollNew(deps.clock());
    const seen = new Set<string>();
    const failures: string[] = [];
    let tried = 0;
    let applied = 0;
    while (withinBudget(tried)) {
      const due = (await deps.reads.listDue(deps.clock(), RECONCILE.batch)).filter((row) => !seen.has(row.subscription.id));
      if (due.length === 0) break;
      for (const { subscription } of due) {
        if (!withinBudget(tried)) break;
        seen.add(subscription.id);
        const now = deps.clock();
        if (!(await deps.reads.claim(subscription.id, now, addSeconds(now, READ_SCHEDULE.claimSeconds)))) continue;
        tried += 1;
        try {
          const outcome = await reconcile(subscription);
          applied += outcome.applied;
          const readAt = deps.clock();
          await deps.reads.recordRead(subscription.id, readAt, nextReadAfterSuccess(outcome.after, readAt));
        } catch (err) {
          const error = describeError(err);
          const failedAt = deps.clock();
          const inARow = await deps.reads.recordFailure(subscription.id, error, failedAt, (n) => nextTryAfterFailure(n, failedAt));
          deps.log.warn({ err, subscriptionId: subscription.id, failures: inARow }, 'reconcile: could not read a subscription from the provider');
          failures.push(`${subscription.id}: ${error}`);
        }
      }
    }
    if (applied > 0) deps.log.warn({ applied }, 'reconcile: applied invoices no webhook had delivered');
    const note = failures.length > 0 ? `${failures.length} of ${tried} could not be read; ${failures.slice(0, 3).join('; ')}` : null;
    return { runAgainAt: addSeconds(deps.clock(), RECONCILE.intervalSeconds), note };
  };
}
