import type { Db } from '../../../db/knex.js';
import { accountSerialKey } from '../../../jobs/jobs.repo.js';
import { REVOKE_ADD_ON } from '../fulfilment/paid-account-jobs.js';
import type { SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import { convertedTrial } from '../trials/trial-rules.js';
import type { PeriodVoidReason } from '../ledger/paid-periods.repo.js';
import { END_REFUNDED_SUBSCRIPTION, FOLLOW_UP_MAX_ATTEMPTS, type PaymentReversalsDeps } from './payment-reversals-deps.js';

/** What a payment refunded in full (or a dispute lost) bought, taken back: its period, its subscription, an undelivered account. */

/**
 * The period a refunded (or lost) payment bought is taken off its account: its ledger row is voided,
 * and the account's later periods that were chained after it move back by its length, so the account's
 * paid end goes back by exactly that period. Its subscription ends; a recurring one ends here at once
 * and at the provider by a job (no further charge): money given back in full ends what it paid for.
 * The account runs to what is still paid, without grace.
 */
export async function takeBackPeriod(
  deps: PaymentReversalsDeps,
  transaction: TransactionRecord,
  reason: PeriodVoidReason,
  trx: Db,
): Promise<{ accountId: string | null; periodStart?: Date; dataLimitBytes?: number | null; planMovedFrom?: string }> {
  const { billing, clock } = deps;
  const subscription = await billing.findSubscription(transaction.subscriptionId, trx);
  if (!subscription) return { accountId: null };
  const now = clock();
  if (subscription.vpnAccountId) await billing.lockAccount(subscription.vpnAccountId, trx);
  const voided = await deps.periods.void(transaction.id, reason, now, trx);
  let length = voided ? voided.endsAt.getTime() - voided.startsAt.getTime() : 0;
  // A plan change taken back: the account is on its plan before, with the time the change had credited (the periods
  // after move by what that leaves, back or on); a card subscription's change (its proration invoice) likewise, and the
  // subscription ends below, so the new price is never charged. A plan bought within the trial: the trial again.
  const cardChange = transaction.metadata.plan_change;
  const before =
    subscription.metadata.kind === 'change'
      ? (subscription.metadata.change ?? { from_plan_id: null })
      : cardChange
        ? cardChange
        : convertedTrial(subscription, transaction)
          ? subscription.metadata.converts_trial!
          : null;
  const reverted = voided && before ? await revertPlanChange(deps, subscription, before, transaction, now, trx) : null;
  if (subscription.metadata.kind === 'add_on') await takeBackAddOn(deps, subscription, transaction, now, trx);
  if (reverted) length -= reverted.restoredMs;
  if (voided?.vpnAccountId) {
    for (const moved of await deps.periods.moveBack(voided.vpnAccountId, voided.endsAt, length, now, trx)) {
      // A one-off subscription shows the one period it paid for: it shows it where it is now.
      if (moved.billing === 'one_off')
        await billing.updateSubscription(moved.subscriptionId, { currentPeriodStart: moved.startsAt, currentPeriodEnd: moved.endsAt }, now, trx);
    }
  }
  if (subscription.billing === 'one_off') {
    await billing.updateSubscription(subscription.id, { event: 'ended', canceledAt: now }, now, trx);
  } else if (!(transaction.status === 'needs_review' && transaction.metadata.review?.reason === 'period_already_paid')) {
    // (A renewal held because a one-off payment had paid its days bought nothing: giving it back ends nothing.)
    await endRecurring(deps, subscription, `refund:${transaction.id}`, now, trx);
    // The subscription's shown period (the provider's, for display) loses what was given back, as the account did.
    if (voided && subscription.currentPeriodEnd) {
      await billing.updateSubscription(subscription.id, { currentPeriodEnd: new Date(subscription.currentPeriodEnd.getTime() - length) }, now, trx);
    }
  }
  return {
    accountId: await withoutUndelivered(deps, subscription, trx),
    periodStart: voided?.startsAt,
    ...(reverted ? { dataLimitBytes: reverted.dataLimitBytes, planMovedFrom: cardChange?.to.plan_id ?? subscription.metadata.plan_id } : {}),
  };
}

/** An add-on refunded (or its dispute lost): it stops counting at once, and a job lowers a traffic add-on's panel limit. */
async function takeBackAddOn(deps: PaymentReversalsDeps, subscription: SubscriptionRecord, transaction: TransactionRecord, now: Date, trx: Db) {
  const grant = await deps.addOns.revokeGrant(transaction.id, now, trx);
  if (!grant) return;
  if (grant.kind === 'devices') {
    await deps.addOns.refreshExtraDevices(grant.accountId, now, trx);
    await deps.addOns.trimDevices(grant.accountId, trx);
  }
  if (grant.kind === 'traffic')
    await deps.jobs.enqueue(
      {
        type: REVOKE_ADD_ON,
        payload: { transactionId: transaction.id },
        serialKey: accountSerialKey(grant.accountId),
        dedupeKey: `${REVOKE_ADD_ON}:${transaction.id}`,
        maxAttempts: FOLLOW_UP_MAX_ATTEMPTS,
      },
      now,
      trx,
    );
  await deps.accounts.insertLog(
    {
      accountId: grant.accountId,
      userId: subscription.userId,
      step: 'add_on_taken_back',
      status: 'success',
      details: { transactionId: transaction.id, kind: grant.kind },
      now,
    },
    trx,
  );
}

/**
 * A plan change (or a plan bought within the trial) refunded, or its dispute lost: the periods it cut count again, and
 * the account is back on its plan before (`change`: what the order kept of it).
 */
async function revertPlanChange(
  deps: PaymentReversalsDeps,
  subscription: SubscriptionRecord,
  change: { from_plan_id: string | null; from_data_limit?: number; from_device_limit?: number | null },
  transaction: TransactionRecord,
  now: Date,
  trx: Db,
) {
  const restoredMs = await deps.periods.restoreCut(transaction.id, now, trx);
  if (subscription.vpnAccountId && change.from_plan_id)
    await deps.accounts.setPlan(subscription.vpnAccountId, { planId: change.from_plan_id, deviceLimit: change.from_device_limit ?? null }, now, trx);
  // The panel's data limit as it was (0: unlimited); unknown on an order from before it was kept.
  const dataLimitBytes = change.from_data_limit === undefined ? undefined : change.from_data_limit || null;
  return { restoredMs, dataLimitBytes };
}

/**
 * A purchase taken back before it was delivered (the refund overtook the payment's confirmation): its
 * waiting account is removed, as for a payment that failed. Returns the account left to sync, if any.
 */
async function withoutUndelivered(deps: PaymentReversalsDeps, subscription: SubscriptionRecord, trx: Db): Promise<string | null> {
  const { billing, accounts, clock } = deps;
  if (!subscription.vpnAccountId || subscription.metadata.kind !== 'purchase' || subscription.metadata.fulfilled_at) return subscription.vpnAccountId;
  if (!(await accounts.removeIfSuspended(subscription.vpnAccountId, trx))) return subscription.vpnAccountId;
  await billing.updateSubscription(subscription.id, { vpnAccountId: null }, clock(), trx);
  return null;
}

async function endRecurring(deps: PaymentReversalsDeps, subscription: SubscriptionRecord, reason: string, now: Date, trx: Db): Promise<void> {
  const { billing, accounts, jobs } = deps;
  if (subscription.status === 'canceled') return;
  await billing.updateSubscription(subscription.id, { event: 'ended', canceledAt: now, cancelAtPeriodEnd: false }, now, trx);
  // A plan this server renews has nothing at the provider to end: canceled here, it is never charged again.
  if (subscription.metadata.renewed_by !== 'store') {
    await jobs.enqueue(
      {
        type: END_REFUNDED_SUBSCRIPTION,
        payload: { subscriptionId: subscription.id },
        dedupeKey: `${END_REFUNDED_SUBSCRIPTION}:${subscription.id}`,
        maxAttempts: FOLLOW_UP_MAX_ATTEMPTS,
      },
      now,
      trx,
    );
  }
  await accounts.insertLog(
    {
      accountId: subscription.vpnAccountId,
      userId: subscription.userId,
      step: 'subscription_canceled',
      status: 'success',
      details: { subscriptionId: subscription.id, atPeriodEnd: false, byAdmin: false, reason },
      now,
    },
    trx,
  );
}
