import type { Db } from '../../../db/knex.js';
import type { Clock } from '../../../lib/clock.js';
import { generateSubToken, generateUsername, type AccountsRepo } from '../../accounts/index.js';
import type { BillingRepo, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import { trialEndOf, trialToConvert } from './trial-rules.js';
import type { TrialsRepo } from './trials.repo.js';
import { randomUUID } from 'node:crypto';

/**
 * A trial order's payment confirmed (payments.md, Trials), in the transaction that records it: a paid trial taken by
 * the person for good, and a plan bought within the trial given to the trial's own account. Both are decided again
 * here under a row lock: what held when the order was made may not hold any more.
 */

export interface TrialConfirmationDeps {
  billing: BillingRepo;
  accounts: AccountsRepo;
  periods: PaidPeriodsRepo;
  trials: TrialsRepo;
  clock: Clock;
}

/**
 * A paid trial paid: the trial is the person's (`trial_used`, in this transaction, with the period it bought). Its
 * waiting account has held the trial since the order was made; one removed meanwhile (the order closed unpaid and was
 * paid late) is made again holding it. False when the person's trial was taken meanwhile (another order of it paid
 * first, or the free trial claimed): nothing is delivered then, and the payment goes back (confirmRefusedTrial).
 */
export async function claimPaidTrial(deps: TrialConfirmationDeps, subscription: SubscriptionRecord, trx: Db): Promise<boolean> {
  const { trials, accounts, billing } = deps;
  const { userId } = subscription;
  const now = deps.clock();
  await trials.lockPerson(userId, trx);
  const waiting = subscription.vpnAccountId;
  if (waiting && (await trials.holdsTrial(waiting, userId, trx))) {
    await trials.markUsed(userId, now, trx);
    return true;
  }
  const standing = await trials.standingOf(userId, trx);
  if (standing.used || standing.account) return false;
  if (waiting) await accounts.removeIfSuspended(waiting, trx);
  const id = randomUUID();
  await accounts.insertPending(
    {
      id,
      userId,
      planId: subscription.planId,
      username: generateUsername(),
      subToken: generateSubToken(),
      trialUserId: userId,
      deviceLimit: subscription.metadata.device_limit ?? null,
    },
    now,
    trx,
  );
  await billing.updateSubscription(subscription.id, { vpnAccountId: id }, now, trx);
  await trials.markUsed(userId, now, trx);
  return true;
}

/**
 * A purchase made within the trial (its order's `converts_trial`) paid: `trialToConvert` asked again, with the trial as
 * it was when the order was made, under the trial account's lock. Still the trial: the account is on the plan bought
 * from now (its device limit too; the fulfilment gives the same panel user the plan's data limit and expiry), the
 * order says it converted, and the paid time goes after the trial's (`trialEnd`) — or, for a provider's subscription
 * whose period is the provider's, the trial's paid time ends where that period starts (`cutAt`; a refund gives it back).
 * Not any more (deleted, converted by another order): the order makes a new account as any purchase does, its
 * account left to the fulfilment. Returns the account the period goes to.
 */
export async function convertTrial(
  deps: TrialConfirmationDeps,
  subscription: SubscriptionRecord,
  transaction: TransactionRecord,
  trx: Db,
  how: { cutAt?: Date } = {},
): Promise<{ accountId: string | null; trialEnd: Date | null }> {
  const { billing, accounts, clock } = deps;
  const { metadata } = subscription;
  const recorded = metadata.converts_trial!;
  const now = clock();
  await billing.lockAccount(recorded.account_id, trx);
  const account = await trialToConvert(
    deps,
    {
      userId: subscription.userId,
      plan: { id: metadata.plan_id, locations: metadata.locations },
      at: transaction.createdAt,
      isTrialPlan: (candidate) => candidate.planId === recorded.from_plan_id,
    },
    trx,
  );
  if (account?.id !== recorded.account_id) {
    const { converts_trial: _gone, ...rest } = metadata;
    await billing.updateSubscription(subscription.id, { vpnAccountId: null, metadata: rest }, now, trx);
    await logStep(deps, subscription, transaction, null, 'trial_not_converted', trx);
    return { accountId: null, trialEnd: null };
  }
  const trialEnd = trialEndOf(account);
  if (how.cutAt) await deps.periods.cutAt(account.id, how.cutAt, transaction.id, now, trx);
  await accounts.setPlan(account.id, { planId: metadata.plan_id, deviceLimit: metadata.device_limit ?? null }, now, trx);
  await billing.updateSubscription(subscription.id, { metadata: { ...metadata, converts_trial: { ...recorded, converted_at: now.toISOString() } } }, now, trx);
  await logStep(deps, subscription, transaction, account.id, 'trial_converted', trx);
  return { accountId: account.id, trialEnd: how.cutAt ? null : trialEnd };
}

async function logStep(
  deps: TrialConfirmationDeps,
  subscription: SubscriptionRecord,
  transaction: TransactionRecord,
  accountId: string | null,
  step: string,
  trx: Db,
): Promise<void> {
  const recorded = subscription.metadata.converts_trial!;
  await deps.accounts.insertLog(
    {
      accountId,
      userId: subscription.userId,
      step,
      status: 'success',
      details: { transactionId: transaction.id, trialAccountId: recorded.account_id, from: recorded.from_plan_id, to: subscription.metadata.plan_id },
      now: deps.clock(),
    },
    trx,
  );
}
