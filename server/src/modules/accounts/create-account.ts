import { randomUUID } from 'node:crypto';
import { ACCOUNT_MESSAGES, type AdminCreateAccountBody, type VpnAccount } from '../../../../shared/accounts.js';
import { BILLING_MESSAGES } from '../../../../shared/billing.js';
import { BYTES_PER_GB } from '../../../../shared/constants.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError, notFound, validationFailed } from '../../errors.js';
import { crashPoint } from '../../lib/crash-points.js';
import { isTrialPlan } from '../plans/index.js';
import type { UserProfile } from '../users/index.js';
import { expiryAfterDays, generateSubToken, generateUsername } from './account-values.js';
import type { AccountsServiceDeps } from './accounts-deps.js';
import type { AccountRecord } from './accounts.repo.js';
import { AccountNoLongerWaiting, provisionedFields, type Provisioned, type Provisioner } from './provisioning.js';
import { shownSettings, toVpnAccount } from './vpn-account.js';
import type { PlanServer } from '../../../../shared/plan-servers.js';

/**
 * Making an account on a panel: a customer claiming a free plan or the trial, or the admin's custom account on a
 * chosen server. The row is reserved first, and nothing is left behind when the panel or the save fails.
 */

/**
 * Saves what the panel created, and for a trial marks the trial used, together. A row that no longer
 * waits was taken over by the sweep of stuck accounts (this request had stalled past its threshold):
 * fine if it adopted this very user, otherwise the user is not ours to keep.
 */
async function completeProvisioning(deps: AccountsServiceDeps, accountId: string, result: Provisioned, trialUser: UserProfile | null): Promise<AccountRecord> {
  const { accounts } = deps;
  const now = deps.clock();
  const saved = await deps.db.transaction(async (trx) => {
    if (!(await accounts.markProvisioned(accountId, provisionedFields(result), now, trx))) return false;
    if (trialUser) await trx('user_profiles').where({ id: trialUser.id }).update({ trial_used: true, updated_at: now });
    return true;
  });
  const account = await accounts.findById(accountId);
  if (!saved && !(account?.masterServerId === result.server.id && account.username === result.username)) throw new AccountNoLongerWaiting(accountId);
  if (saved && trialUser) deps.userChanged(trialUser.id);
  if (saved)
    await accounts.insertLog({
      accountId,
      userId: trialUser?.id ?? null,
      step: 'account_created',
      status: 'success',
      details: { serverId: result.server.id, username: result.username },
      now,
    });
  return account!;
}

/**
 * After a failure: a panel user that was created is handed to a cleanup job, and the row, if it still
 * waits, goes (a trial's claim with it). If even that fails (the database is down), the row keeps its
 * intent and the sweep of stuck accounts finishes the job later.
 */
async function abandon(deps: AccountsServiceDeps, accountId: string, created: Provisioned | undefined): Promise<void> {
  try {
    if (created) await deps.provisioner.releaseCreated(accountId, created);
    await deps.accounts.removeIfSuspended(accountId);
  } catch (err) {
    deps.log.error({ accountId, err: err instanceof Error ? err.message : err }, 'could not undo a failed account creation; the sweep of stuck accounts will');
  }
}

/**
 * Reserves the row, creates the panel user (the row records where, first), saves the result; on a
 * failure nothing is left behind, and after a crash the sweep of stuck accounts adopts or removes it.
 */
async function createAccount(
  deps: AccountsServiceDeps,
  owner: UserProfile,
  input: {
    planId: string | null;
    trial: boolean;
    dataLimitBytes: number | null;
    expiresAt: Date | null;
    deviceLimit: number | null;
    candidates: Awaited<ReturnType<Provisioner['candidateServers']>>;
    /** The plan's servers and their squads or groups (none: each server's own). */
    planServers?: PlanServer[];
  },
) {
  const id = randomUUID();
  const username = generateUsername();
  try {
    await deps.accounts.insertPending(
      {
        id,
        userId: owner.id,
        planId: input.planId,
        username,
        subToken: generateSubToken(),
        trialUserId: input.trial ? owner.id : null,
        deviceLimit: input.deviceLimit,
      },
      deps.clock(),
    );
  } catch (err) {
    if (input.trial && isUniqueViolation(err)) throw new AppError(409, 'trial_used', ACCOUNT_MESSAGES.trialUsed);
    throw err;
  }
  await crashPoint('account:after-insert');
  let created: Provisioned | undefined;
  let saved: AccountRecord;
  try {
    created = await deps.provisioner.provision(
      { accountId: id, userId: owner.id, username, dataLimitBytes: input.dataLimitBytes, expiresAt: input.expiresAt, planServers: input.planServers },
      input.candidates,
    );
    saved = await completeProvisioning(deps, id, created, input.trial ? owner : null);
  } catch (err) {
    await abandon(deps, id, created);
    if (err instanceof AccountNoLongerWaiting) throw new AppError(503, 'service_unavailable', ACCOUNT_MESSAGES.serviceUnavailable);
    throw err;
  }
  await crashPoint('account:after-save');
  return toVpnAccount(saved, await shownSettings(deps));
}

/** A free plan or a free trial; a paid plan (or a trial with a price) needs checkout. */
export async function claimPlan(deps: AccountsServiceDeps, user: UserProfile, planId: string): Promise<VpnAccount> {
  const plan = await deps.plans.findById(planId);
  if (!plan || plan.status !== 'active') throw notFound('Plan not found');
  const trial = isTrialPlan(plan, (await deps.settings.getAppSettings()).trialPlanId);
  if (!trial && plan.price > 0) throw new AppError(402, 'payment_required', 'This plan is paid: buy it by card.');
  // A trial with a price is bought (POST /api/checkout), never claimed: its once per person is decided there.
  if (trial && plan.price > 0) throw new AppError(402, 'payment_required', BILLING_MESSAGES.trialPaid);
  if (trial && user.trialUsed) throw new AppError(409, 'trial_used', ACCOUNT_MESSAGES.trialUsed);
  const candidates = await deps.provisioner.candidateServers(plan);
  return createAccount(deps, user, {
    planId: plan.id,
    trial,
    dataLimitBytes: plan.dataLimitBytes,
    expiresAt: expiryAfterDays(deps.clock(), plan.days),
    deviceLimit: plan.deviceLimit,
    candidates,
    planServers: plan.servers,
  });
}

/** The admin's custom account on a chosen server, for the admin unless another user is named. */
export async function createCustomAccount(deps: AccountsServiceDeps, admin: UserProfile, body: AdminCreateAccountBody): Promise<VpnAccount> {
  const owner = body.userId ? await deps.users.findById(body.userId) : admin;
  if (!owner) throw validationFailed({ userId: 'User not found' }, 'User not found');
  const server = await deps.servers.findServerRecord(body.serverId);
  if (!server || server.status !== 'active') throw validationFailed({ serverId: 'Select an active server' }, 'Select an active server');
  return createAccount(deps, owner, {
    planId: null,
    trial: false,
    dataLimitBytes: body.dataLimitGb * BYTES_PER_GB,
    expiresAt: expiryAfterDays(deps.clock(), body.expireDays),
    deviceLimit: null,
    candidates: [server],
  });
}
