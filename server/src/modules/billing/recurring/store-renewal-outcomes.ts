import type { FastifyBaseLogger } from 'fastify';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import type { Clock } from '../../../lib/clock.js';
import type { CheckoutState } from '../../../payments/payment-driver.js';
import type { AccountsRepo } from '../../accounts/index.js';
import type { BillingRepo, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import type { BillingNotices } from '../billing-notices.js';
import { chargesOf, STORE_RENEWAL, tryDueAt } from './store-renewal-schedule.js';

/**
 * What a try of a renewal charge this server made comes to (store-renewals.ts makes the tries), applied in the
 * caller's database transaction whether the answer came back to the job or in the provider's notification.
 */
export function createStoreRenewalOutcomes(deps: {
  billing: BillingRepo;
  accounts: AccountsRepo;
  notices: BillingNotices;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  const { billing, clock, log } = deps;

  /**
   * A try declined (from its answer or its notification), once per try: the renewal and the plan are past due, the
   * customer is e-mailed in their language (with when it is tried again); after the last try the plan ends with the
   * period it paid for.
   */
  async function applyDecline(transaction: TransactionRecord, subscription: SubscriptionRecord, state: CheckoutState, trx: Db): Promise<void> {
    const now = clock();
    const current = (await billing.findTransactionForUpdate(transaction.id, trx))!;
    const tried = chargesOf(current).find((charge) => charge.payment_id === state.checkoutId);
    // A try this runner has not recorded yet (its answer is being written): it applies the decline itself.
    if (!tried || tried.outcome === 'declined') return;
    const charges = chargesOf(current).map((charge) =>
      charge === tried ? { ...charge, outcome: 'declined' as const, reason: state.declineReason ?? null } : charge,
    );
    await billing.setTransactionMetadata(current.id, { ...current.metadata, charges }, now, trx);
    await billing.markTransactionFailed(current.id, BILLING_MESSAGES.renewalFailed, now, trx);
    const last = tried.attempt >= STORE_RENEWAL.tries;
    const periodEnd = subscription.currentPeriodEnd;
    await billing.updateSubscription(
      subscription.id,
      {
        ...(last ? { event: 'ended' as const, canceledAt: now } : { event: 'renewal_failed' as const }),
        metadata: {
          ...subscription.metadata,
          past_due_since: subscription.metadata.past_due_since ?? now.toISOString(),
          ...(last ? { error: BILLING_MESSAGES.renewalFailed } : {}),
        },
      },
      now,
      trx,
    );
    const nextAttemptAt = !last && periodEnd ? tryDueAt(periodEnd, tried.attempt + 1).toISOString() : null;
    await deps.notices.notify({ kind: 'payment_failed', transactionId: current.id, nextAttemptAt }, `${current.id}:try:${tried.attempt}`, trx);
    await deps.accounts.insertLog(
      {
        accountId: subscription.vpnAccountId,
        userId: subscription.userId,
        step: 'renewal_failed',
        status: 'failure',
        details: { transactionId: current.id, attempt: tried.attempt, reason: state.declineReason ?? null, last, amount: current.amount },
        now,
      },
      trx,
    );
    log.warn(
      { transactionId: current.id, subscriptionId: subscription.id, attempt: tried.attempt, reason: state.declineReason },
      last ? 'renewal: the last try was declined; the plan ends with its period' : 'renewal: a try was declined; tried again tomorrow',
    );
  }

  /** A try's payment paid: its outcome is written on it (the period itself is confirmPaid's). */
  async function markPaid(transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<void> {
    const current = (await billing.findTransactionForUpdate(transaction.id, trx))!;
    const charges = chargesOf(current).map((charge) => (charge.payment_id === state.checkoutId ? { ...charge, outcome: 'paid' as const } : charge));
    await billing.setTransactionMetadata(current.id, { ...current.metadata, charges }, clock(), trx);
  }

  /** A try still being processed by the provider: the job comes back to it. */
  async function markPending(transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<void> {
    const current = (await billing.findTransactionForUpdate(transaction.id, trx))!;
    const charges = chargesOf(current).map((charge) =>
      charge.payment_id === state.checkoutId && !charge.outcome ? { ...charge, outcome: 'pending' as const } : charge,
    );
    await billing.setTransactionMetadata(current.id, { ...current.metadata, charges }, clock(), trx);
  }

  return { applyDecline, markPaid, markPending };
}

export type StoreRenewalOutcomes = ReturnType<typeof createStoreRenewalOutcomes>;
