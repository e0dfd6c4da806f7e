import { RetryJobLater } from '../../../jobs/worker.js';
import type { StoreCharge, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import { chargesOf, STORE_RENEWAL, tryDueAt } from './store-renewal-schedule.js';
import { claimResend, renewalOf, rereadTry, sendTry, startTry } from './store-renewal-tries.js';
import type { StoreRenewalsDeps } from './store-renewals-deps.js';

/** The job for one period's renewal of a plan this server renews: which try is due, and what happens to it. */

/**
 * The account is paid past this period by another payment (a renewal by hand after a declined try): this period
 * is not charged, and the plan stops renewing, so that no period is paid twice.
 */
async function paidBeyond(deps: StoreRenewalsDeps, subscription: SubscriptionRecord, periodEnd: Date): Promise<boolean> {
  const { billing, clock } = deps;
  if (!subscription.vpnAccountId) return false;
  const paidEnd = await deps.periods.latestEnd(subscription.vpnAccountId);
  if (!paidEnd || paidEnd <= periodEnd) return false;
  await deps.db.transaction(async (trx) => {
    const current = await billing.findSubscriptionForUpdate(subscription.id, trx);
    if (!current || current.cancelAtPeriodEnd) return;
    const { error: _cleared, past_due_since: _since, ...metadata } = current.metadata;
    await billing.updateSubscription(current.id, { event: 'paid', cancelAtPeriodEnd: true, metadata }, clock(), trx);
  });
  return true;
}

/** A try whose answer was lost, sent again with its key once no other runner can still be sending it. */
async function resendTry(deps: StoreRenewalsDeps, subscription: SubscriptionRecord, transaction: TransactionRecord, last: StoreCharge) {
  const claimed = await claimResend(deps, transaction, last.attempt);
  if ('waitSeconds' in claimed) throw new RetryJobLater('another runner is sending this try', claimed.waitSeconds);
  return sendTry(deps, subscription, transaction, claimed.charge);
}

/** The job for one period's renewal: the try due now, the open one again, or the wait until the next is due. */
export async function chargeStoreRenewal(deps: StoreRenewalsDeps, subscriptionId: string, periodEnd: Date): Promise<{ runAgainAt: Date; note: string } | void> {
  const { billing, clock } = deps;
  const subscription = await billing.findSubscription(subscriptionId);
  const live = subscription && (subscription.status === 'active' || subscription.status === 'past_due') && subscription.savedMethodId;
  // Ended, or renewed already (its period moved on): nothing to charge.
  if (!live || subscription.currentPeriodEnd?.getTime() !== periodEnd.getTime()) return;
  const method = await deps.savedMethods.findById(subscription.savedMethodId!);
  if (!method || method.removedAt) return;
  // Auto-renew off: nothing is charged unless the customer turns it back on before the period ends.
  if (subscription.cancelAtPeriodEnd && periodEnd > clock()) {
    const later = new Date(Math.min(periodEnd.getTime(), clock().getTime() + STORE_RENEWAL.offRecheckSeconds * 1000));
    return { runAgainAt: later, note: 'auto-renew is off' };
  }
  const transaction = await renewalOf(deps, subscription, periodEnd);
  if (transaction && transaction.status !== 'pending' && transaction.status !== 'failed') return;
  const last = transaction ? chargesOf(transaction).at(-1) : undefined;
  if (transaction && last && (!last.outcome || last.outcome === 'pending')) {
    // A try still being processed is read again; one whose answer was lost is sent again with its key (the
    // provider answers with the payment it made, if it did, and makes none twice).
    const state = last.payment_id ? await rereadTry(deps, subscription, transaction, last) : await resendTry(deps, subscription, transaction, last);
    if (state.outcome === 'open') throw new RetryJobLater('the renewal charge is still being processed', STORE_RENEWAL.pendingRecheckSeconds);
    return state.outcome === 'paid' || last.attempt >= STORE_RENEWAL.tries
      ? undefined
      : { runAgainAt: tryDueAt(periodEnd, last.attempt + 1), note: `try ${last.attempt} was declined` };
  }
  if (last?.outcome === 'paid') return;
  const attempt = (last?.attempt ?? 0) + 1;
  if (attempt > STORE_RENEWAL.tries) return;
  const due = tryDueAt(periodEnd, attempt);
  const now = clock();
  // A job run late (the server was down): a period that has ended is not charged for any more.
  if (periodEnd <= now || subscription.cancelAtPeriodEnd) return;
  if (due > now) return { runAgainAt: due, note: `try ${attempt} is due at ${due.toISOString()}` };
  // Renewed by hand after a declined try (a one-off period after this one): nothing more to charge; auto-renew goes off.
  if (await paidBeyond(deps, subscription, periodEnd)) return;
  const started = await startTry(deps, subscription, periodEnd, attempt);
  if (!started) throw new RetryJobLater('another runner is making this try', 60);
  const state = await sendTry(deps, subscription, started.transaction, started.charge);
  if (state.outcome === 'open') throw new RetryJobLater('the renewal charge is still being processed', STORE_RENEWAL.pendingRecheckSeconds);
  if (state.outcome !== 'paid' && attempt < STORE_RENEWAL.tries) return { runAgainAt: tryDueAt(periodEnd, attempt + 1), note: `try ${attempt} was declined` };
}
