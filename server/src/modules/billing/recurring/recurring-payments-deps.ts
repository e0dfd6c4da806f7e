import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import { accountSerialKey, type JobsRepo } from '../../../jobs/jobs.repo.js';
import type { Clock } from '../../../lib/clock.js';
import type { AccountsRepo } from '../../accounts/index.js';
import type { BillingRepo, SubscriptionRecord } from '../billing.repo.js';
import type { BillingNotices } from '../billing-notices.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import { SYNC_PAID_PERIOD } from '../ledger/sync-paid-period.js';
import type { PaymentReversals } from '../refunds/payment-reversals.js';
import type { TrialsRepo } from '../trials/trials.repo.js';

/** What the recurring payment use cases (recurring-invoices.ts, recurring-state.ts) work with, and the steps they share. */
export interface RecurringPaymentsDeps {
  billing: BillingRepo;
  periods: PaidPeriodsRepo;
  accounts: AccountsRepo;
  jobs: JobsRepo;
  reversals: Pick<PaymentReversals, 'applyKept'>;
  notices: BillingNotices;
  /** Whose trial is taken, and which account holds it: a plan bought within the trial goes to it (billing/trials). */
  trials: TrialsRepo;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** Puts the account's panel user in step (expiry with or without grace, enabled or paused), after the transaction. */
export async function syncAccount(deps: RecurringPaymentsDeps, subscription: SubscriptionRecord, reason: string, trx: Db): Promise<void> {
  if (!subscription.vpnAccountId || !subscription.metadata.fulfilled_at) return;
  await deps.jobs.enqueue(
    {
      type: SYNC_PAID_PERIOD,
      payload: { accountId: subscription.vpnAccountId },
      serialKey: accountSerialKey(subscription.vpnAccountId),
      dedupeKey: `${SYNC_PAID_PERIOD}:${subscription.vpnAccountId}:${reason}`,
      maxAttempts: 200,
    },
    deps.clock(),
    trx,
  );
}

/** Our subscription for a provider subscription (found by its reference or its order); the reference is saved on it the first time. */
export async function findRecurring(
  deps: RecurringPaymentsDeps,
  ref: { subscriptionRef: string; orderRef: string | null },
  trx: Db,
): Promise<SubscriptionRecord | undefined> {
  const { billing, clock, log } = deps;
  const subscription = await billing.findRecurring({ providerSubscriptionId: ref.subscriptionRef, orderRef: ref.orderRef }, trx);
  if (!subscription) {
    log.warn({ subscriptionRef: ref.subscriptionRef, orderRef: ref.orderRef }, 'recurring: a provider subscription with no subscription of ours; ignored');
    return undefined;
  }
  if (!subscription.providerSubscriptionId) {
    await billing.updateSubscription(subscription.id, { providerSubscriptionId: ref.subscriptionRef }, clock(), trx);
    subscription.providerSubscriptionId = ref.subscriptionRef;
  }
  return subscription;
}
