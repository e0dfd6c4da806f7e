import type { SubscriptionStatus } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import type { RecurringState } from '../../../payments/payment-driver.js';
import type { SubscriptionRecord } from '../billing.repo.js';
import { subscriptionStatusAfter, type SubscriptionEvent } from '../../orders/index.js';
import { findRecurring, syncAccount, type RecurringPaymentsDeps } from './recurring-payments-deps.js';

/**
 * A recurring subscription's own state (status, auto-renew, the end), as the provider reports it or as this server
 * changes it for a plan it renews itself; the customer is told when auto-renew goes off or comes back on.
 */

/** It will be charged again: the grace period applies to its account (see paid-period.ts). */
const renews = (sub: { status: SubscriptionStatus; cancelAtPeriodEnd: boolean }) =>
  (sub.status === 'active' || sub.status === 'past_due') && !sub.cancelAtPeriodEnd;

/**
 * What the provider's status says happened: ended, a renewal declined, or current again (an incomplete one changes
 * only when its first invoice is paid, recurring-invoices.ts).
 */
const REPORTED: Record<RecurringState['status'], SubscriptionEvent | null> = {
  canceled: 'ended',
  past_due: 'renewal_failed',
  active: 'renewal_recovered',
  incomplete: null,
};

/**
 * Mirrors the provider's status, cancel_at_period_end and canceled_at. An older state never
 * overwrites a newer one; `canceled` is final; only a paid invoice makes an incomplete subscription active.
 */
export async function applyState(
  deps: RecurringPaymentsDeps,
  state: RecurringState,
  trx: Db,
  options: { byAdmin?: boolean } = {},
): Promise<SubscriptionRecord | undefined> {
  const subscription = await findRecurring(deps, state, trx);
  if (!subscription) return undefined;
  return applyStateTo(deps, subscription, state, trx, options);
}

/** The same for a subscription already found (and locked): a plan this server renews changes here, with no provider to ask. */
export async function applyStateTo(
  deps: RecurringPaymentsDeps,
  subscription: SubscriptionRecord,
  state: Pick<RecurringState, 'status' | 'cancelAtPeriodEnd' | 'canceledAt' | 'observedAt'>,
  trx: Db,
  options: { byAdmin?: boolean } = {},
): Promise<SubscriptionRecord> {
  const { billing, accounts, notices, clock } = deps;
  const seen = subscription.metadata.provider_observed_at;
  // The end is final whenever it is heard of; anything else older than what was applied is stale.
  if (subscription.status === 'canceled' || (state.status !== 'canceled' && seen && state.observedAt < new Date(seen))) return subscription;
  const now = clock();
  const event = REPORTED[state.status];
  const status = event ? subscriptionStatusAfter(subscription.status, event) : subscription.status;
  // A provider that cannot say whether auto-renew is on (Telegram Stars) leaves ours as it is.
  const cancelAtPeriodEnd = state.cancelAtPeriodEnd ?? subscription.cancelAtPeriodEnd;
  const next = { ...subscription, status, cancelAtPeriodEnd, canceledAt: state.canceledAt };
  await billing.updateSubscription(
    subscription.id,
    {
      ...(event ? { event } : {}),
      cancelAtPeriodEnd,
      canceledAt: state.canceledAt,
      metadata: { ...subscription.metadata, provider_observed_at: state.observedAt.toISOString() },
    },
    now,
    trx,
  );
  if (renews(subscription) !== renews(next)) await syncAccount(deps, next, `renewing:${subscription.id}:${state.observedAt.getTime()}`, trx);
  const wasEnding = subscription.cancelAtPeriodEnd;
  const ending = next.cancelAtPeriodEnd || next.status === 'canceled';
  if (!wasEnding && ending && subscription.metadata.fulfilled_at) {
    await notices.notify(
      { kind: 'subscription_canceled', subscriptionId: subscription.id, byAdmin: options.byAdmin ?? false },
      `${subscription.id}:${state.observedAt.getTime()}`,
      trx,
    );
    await accounts.insertLog(
      {
        accountId: subscription.vpnAccountId,
        userId: subscription.userId,
        step: 'subscription_canceled',
        status: 'success',
        details: { subscriptionId: subscription.id, atPeriodEnd: next.status !== 'canceled', byAdmin: options.byAdmin ?? false },
        now,
      },
      trx,
    );
  }
  // Turned back on (Resume, or at the provider's billing page): the customer is told, as when it was turned off.
  if (wasEnding && !ending && subscription.metadata.fulfilled_at) {
    await notices.notify({ kind: 'subscription_resumed', subscriptionId: subscription.id }, `${subscription.id}:${state.observedAt.getTime()}`, trx);
  }
  return { ...next, metadata: { ...subscription.metadata, provider_observed_at: state.observedAt.toISOString() } };
}
