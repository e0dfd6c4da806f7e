import { ACCOUNT_MESSAGES } from '../../../../../shared/accounts.js';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { planAllowsServer, type PlanServer, type ServerPlacement } from '../../../../../shared/plan-servers.js';
import type { Db } from '../../../db/knex.js';
import { AppError } from '../../../errors.js';
import type { AccountRecord, AccountsRepo } from '../../accounts/index.js';
import type { PlanRecord } from '../../plans/index.js';
import type { TrialConversion } from '../billing.repo.js';
import type { TrialsRepo } from './trials.repo.js';

/**
 * The trial's rules (payments.md, Trials): a trial with a price is bought once per person, and a plan bought while the
 * trial runs goes to the trial's own account. Decided here only: checkout asks before anything is written, and again
 * when the order is written and when it is paid.
 */

/**
 * Refuses an order of the trial (409) when the person has had it (`trial_used`: the flag, or an account holding it) or
 * an order of it waits for its payment (`trial_in_progress`). Read in `trx` when given: the order's transaction, after
 * `lockPerson`, so that two orders at once make one.
 */
export async function assertTrialFree(trials: TrialsRepo, userId: string, trx?: Db): Promise<void> {
  const standing = await trials.standingOf(userId, trx);
  if (standing.used) throw new AppError(409, 'trial_used', ACCOUNT_MESSAGES.trialUsed);
  if (standing.account?.waiting && !standing.account.paymentConfirmed) throw new AppError(409, 'trial_in_progress', BILLING_MESSAGES.trialInProgress);
  if (standing.account) throw new AppError(409, 'trial_used', ACCOUNT_MESSAGES.trialUsed);
}

/** What is asked of `trialToConvert`. */
export interface TrialConversionAsk {
  userId: string;
  /** The plan bought (not a trial: the caller asks only for a paid plan); with the servers it lists, when they are known. */
  plan: Pick<PlanRecord, 'id' | 'locations'> & { servers?: PlanServer[] };
  /**
   * The servers (read when needed), when the plan's may be checked (at checkout start): a plan that may not use the trial's server (it lists
   * others, or the trial is on a premium one it does not list) converts nothing, and is a new account where it may be.
   */
  servers?: () => Promise<ServerPlacement[]>;
  /** When the order was made: the trial must still run then. */
  at: Date;
  /** Whether the account's plan is the trial: at checkout the plan's flag or the settings' trial; when paid, the plan the order recorded. */
  isTrialPlan: (account: AccountRecord) => boolean;
}

/**
 * The trial account an order of `plan` converts, or null (a new account is made, as for anyone): the account that holds
 * the person's trial, on its panel already, still on the trial plan (not converted by an earlier order) and running
 * at `at` (its paid end for a paid trial, else its expiry). The one place this is decided: at checkout start, and again
 * when the payment is confirmed (with `at` the order's start and the trial plan it recorded). A rule about the plan
 * (a server the plan may not use, say) belongs here, so both see it.
 */
export async function trialToConvert(deps: { trials: TrialsRepo; accounts: AccountsRepo }, ask: TrialConversionAsk, trx?: Db): Promise<AccountRecord | null> {
  const accountId = await deps.trials.trialAccountId(ask.userId, trx);
  if (!accountId) return null;
  const account = await deps.accounts.findById(accountId, trx);
  if (!account || account.userId !== ask.userId || account.subscriptionUrl === null || account.planId === null) return null;
  if (account.planId === ask.plan.id || !ask.isTrialPlan(account)) return null;
  const trialEnd = trialEndOf(account);
  if (!trialEnd || trialEnd <= ask.at) return null;
  // Read only for a customer with a running trial to convert (most checkouts have none).
  const server = ask.servers && (await ask.servers()).find((candidate) => candidate.id === account.masterServerId);
  if (server && ask.plan.servers && !planAllowsServer({ locations: ask.plan.locations, servers: ask.plan.servers }, server)) return null;
  return account;
}

/** Where the trial account's time ends: what was paid for it (a paid trial), else its expiry. */
export const trialEndOf = (account: Pick<AccountRecord, 'paidUntil' | 'expireDate'>): Date | null => account.paidUntil ?? account.expireDate;

/** What the order keeps of the trial account it converts (its plan and limits now, for a refund to put back). */
export const conversionOf = (account: AccountRecord): TrialConversion => ({
  account_id: account.id,
  from_plan_id: account.planId!,
  from_data_limit: account.dataLimitBytes,
  from_device_limit: account.deviceLimit === null ? null : account.deviceLimit - account.extraDevices,
});

/** The order converted its trial account, and `transaction` is its own payment (not a later renewal of its subscription). */
export const convertedTrial = (
  subscription: { vpnAccountId: string | null; metadata: { kind: string; converts_trial?: TrialConversion } },
  transaction: { metadata: { kind?: string } },
): boolean =>
  Boolean(subscription.metadata.converts_trial?.converted_at) &&
  subscription.vpnAccountId === subscription.metadata.converts_trial!.account_id &&
  (transaction.metadata.kind ?? subscription.metadata.kind) === 'purchase';
