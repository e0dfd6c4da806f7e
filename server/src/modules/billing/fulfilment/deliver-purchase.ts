import { randomUUID } from 'node:crypto';
import { PermanentJobError } from '../../../jobs/worker.js';
import { crashPoint } from '../../../lib/crash-points.js';
import { generateSubToken, generateUsername, provisionedFields } from '../../accounts/index.js';
import type { AccountRecord } from '../../accounts/index.js';
import type { SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import { markFulfilled, type FulfilmentDeps } from './fulfilment-deps.js';

/** Delivers a purchase: the panel user for the account waiting for it (a new waiting account when it was removed meanwhile). */

/** The purchase's waiting account; a new one when a failed-then-paid payment had it removed. */
async function waitingAccount(deps: FulfilmentDeps, subscription: SubscriptionRecord): Promise<AccountRecord> {
  const { accounts, billing, clock } = deps;
  const existing = subscription.vpnAccountId ? await accounts.findById(subscription.vpnAccountId) : undefined;
  if (existing) return existing;
  const id = randomUUID();
  await deps.db.transaction(async (trx) => {
    await accounts.insertPending(
      {
        id,
        userId: subscription.userId,
        planId: subscription.planId,
        username: generateUsername(),
        subToken: generateSubToken(),
        trialUserId: null,
        deviceLimit: subscription.metadata.device_limit ?? null,
      },
      clock(),
      trx,
    );
    await billing.updateSubscription(subscription.id, { vpnAccountId: id }, clock(), trx);
    // The period this payment bought was recorded with no account to go to: it is this one's.
    await deps.periods.assignAccount(subscription.id, id, clock(), trx);
  });
  return (await accounts.findById(id))!;
}

/**
 * The provisioner writes the server and username on the row before each panel call (intent before
 * side effect). A later attempt (after a crash or a failure) starts on that recorded server with that
 * username, so the user an earlier attempt created there is adopted (it carries our marker) rather
 * than created a second time; a cleanup job removes it if the account ends up elsewhere.
 */
export async function provisionPurchase(deps: FulfilmentDeps, subscription: SubscriptionRecord, transaction: TransactionRecord): Promise<void> {
  const { accounts, clock } = deps;
  const account = await waitingAccount(deps, subscription);
  if (account.status !== 'suspended' || account.subscriptionUrl !== null) {
    await deps.db.transaction((trx) => markFulfilled(deps, subscription, transaction, trx));
    return;
  }
  // The paid end in the ledger (a recurring plan's plus the grace period: the renewal is charged at the end).
  const { expiresAt } = await deps.paidPeriods.of(account.id);
  // Never an account without an end: a succeeded payment always has its period in the ledger.
  if (!expiresAt) throw new PermanentJobError(`Account ${account.id} has no paid period; transaction ${transaction.id} cannot be delivered`);
  const { metadata } = subscription;
  // Where the plan may put it now (the operator's servers for it), else (the plan gone) where its locations were.
  const plan = (await deps.plans.findById(metadata.plan_id)) ?? { locations: metadata.locations, servers: [] };
  const candidates = await deps.provisioner.candidateServers(plan);
  await crashPoint('fulfil:before-provision');
  // Throws while no panel answers: the job tries again later, with the same username and marker.
  const result = await deps.provisioner.provision(
    {
      accountId: account.id,
      userId: subscription.userId,
      username: account.username,
      dataLimitBytes: metadata.data_limit,
      expiresAt,
      planServers: plan.servers,
      resumeServerId: account.provisioningServerId,
    },
    candidates,
  );
  const saved = await deps.db.transaction(async (trx) => {
    const now = clock();
    if (!(await accounts.markProvisioned(account.id, provisionedFields(result), now, trx))) return false;
    await markFulfilled(deps, subscription, transaction, trx);
    await accounts.insertLog(
      {
        accountId: account.id,
        userId: subscription.userId,
        step: 'account_created',
        status: 'success',
        details: { serverId: result.server.id, username: result.username, subscriptionId: subscription.id },
        now,
      },
      trx,
    );
    return true;
  });
  if (!saved) {
    // The row stopped waiting meanwhile (a payment failure removed it): this user is nobody's.
    await deps.provisioner.releaseCreated(account.id, result);
    throw new Error(`The account ${account.id} stopped waiting while its panel user was created; trying again`);
  }
  await crashPoint('fulfil:after-save');
}
