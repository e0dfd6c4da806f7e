import { PermanentJobError } from '../../../jobs/worker.js';
import { crashPoint } from '../../../lib/crash-points.js';
import type { SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import { markFulfilled, type FulfilmentDeps } from './fulfilment-deps.js';
import { panelUsage } from '../../accounts/index.js';
import { createPlanTrafficRepo } from '../traffic/plan-traffic.repo.js';
import { renewalCarryOver } from '../traffic/renewal-carry-over.js';
import { movePlanServices } from './plan-services.js';

/** Delivers a renewal: the same panel user runs until the account's latest paid end (or the money goes back when the account is gone). */

/**
 * `conversion`: a plan bought within the trial, which the trial's account became when it was paid (billing/trials):
 * delivered as a plan change is (the plan's limits on the same panel user), with a fresh allowance as a renewal's.
 */
export async function deliverRenewal(
  deps: FulfilmentDeps,
  subscription: SubscriptionRecord,
  transaction: TransactionRecord,
  options: { conversion?: boolean } = {},
): Promise<void> {
  const { accounts, clock } = deps;
  const transactionId = transaction.id;
  const account = subscription.vpnAccountId ? await accounts.findById(subscription.vpnAccountId) : undefined;
  if (!account) {
    // Deleted while its renewal was being paid: nothing can be delivered, so the money goes back.
    await deps.refundUndeliverable(transactionId, 'The account was deleted before its renewal could be applied.');
    await deps.db.transaction(async (trx) => {
      await markFulfilled(deps, subscription, transaction, trx);
      await accounts.insertLog(
        {
          accountId: null,
          userId: subscription.userId,
          step: 'renewal_refunded',
          status: 'success',
          details: { transactionId, subscriptionId: subscription.id, reason: 'account deleted' },
          now: clock(),
        },
        trx,
      );
    });
    return;
  }
  const server = account.masterServerId ? await deps.servers.findServerRecord(account.masterServerId) : undefined;
  if (!server) throw new PermanentJobError(`The server of account ${account.id} no longer exists; its renewal cannot be applied.`);
  // Every paid period of this account counts, so renewals applied in any order end at the latest
  // (plus the grace period while a subscription renews it).
  const period = await deps.paidPeriods.of(account.id);
  const { expiresAt } = period;
  if (!expiresAt) throw new PermanentJobError(`Account ${account.id} has no paid period; renewal ${transactionId} cannot be applied`);
  const driver = deps.servers.driverFor(server);
  // A renewal bought for the plan a downgrade waits to switch to keeps this plan's limits until the switch (plan-change-jobs.ts).
  const laterPlan =
    (transaction.metadata.kind ?? subscription.metadata.kind) === 'renewal' &&
    account.nextPlan?.planId === subscription.metadata.plan_id &&
    account.planId !== account.nextPlan.planId;
  // The unused data of the period it follows, when the account's plan carries it over (billing/traffic). FulfilmentDeps
  // are built in checkout.module.ts: the rules' repository is made here from the database.
  // A plan change: its order's kind, or (a card subscription's change) the payment's.
  const change = subscription.metadata.kind === 'change' || transaction.metadata.kind === 'change';
  const carried =
    laterPlan || change || options.conversion
      ? 0
      : await renewalCarryOver({ steps: createPlanTrafficRepo(deps.db), periods: deps.periods, clock }, { account, transactionId, driver });
  // Traffic add-ons bought for good stay on top of every period's allowance.
  const forever = await deps.addOns.foreverTraffic(account.id, clock());
  const dataLimitBytes = laterPlan ? account.dataLimitBytes || null : subscription.metadata.data_limit + carried + forever;
  let panel = await driver.extendAccount(account.username, { expiresAt, dataLimitBytes });
  await crashPoint('renew:after-extend');
  // A plan change moves the panel user to the new plan's squads or groups on its server (asked again on a retry: it
  // sets them, it does not add).
  if (change || options.conversion) {
    const fromPlanId =
      subscription.metadata.converts_trial?.from_plan_id ?? subscription.metadata.change?.from_plan_id ?? transaction.metadata.plan_change?.from_plan_id;
    panel = (await movePlanServices(deps, { driver, server, username: account.username }, fromPlanId, account.planId)) ?? panel;
  }
  // A renewal starts a fresh data allowance; a plan change keeps what was used (only its limit changes).
  if (!change) panel = await driver.resetUsage(account.username);
  // Paused for non-payment (or by its period running out): paid again, it runs again, unless a payment of it is disputed.
  if (panel.status === 'disabled' && period.runs) panel = await driver.setEnabled(account.username, true);
  await deps.db.transaction(async (trx) => {
    const now = clock();
    await accounts.updateUsage(account.id, panelUsage(panel, account.links), now, trx);
    // Renewed onto the plan it was bought on: that plan's device limit (orders from before device limits leave it).
    if (subscription.metadata.device_limit !== undefined && !laterPlan) await accounts.setDeviceLimit(account.id, subscription.metadata.device_limit, now, trx);
    await markFulfilled(deps, subscription, transaction, trx);
    await accounts.insertLog(
      {
        accountId: account.id,
        userId: subscription.userId,
        step: 'account_renewed',
        status: 'success',
        details: { serverId: server.id, username: account.username, expiresAt: expiresAt.toISOString(), subscriptionId: subscription.id },
        now,
      },
      trx,
    );
  });
}
