import { PermanentJobError } from '../../../jobs/worker.js';
import { panelUsage, type AccountRecord } from '../../accounts/index.js';
import type { SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import type { AddOnGrant } from '../add-ons/add-ons.repo.js';
import { markFulfilled, type FulfilmentDeps } from './fulfilment-deps.js';

/**
 * A paid add-on on the panel. Devices need nothing there (`/sub` counts them from the account's row); traffic raises
 * the panel user's data limit by exactly its amount, resetting nothing, and re-enables a user the panel had limited
 * for data. The limit it sets is written on the grant before the panel is asked, so a retry after a crash sets the
 * same absolute limit instead of adding twice; its refund lowers it the same way (`revokeTrafficAddOn`).
 */

/** The panel user of the account, and its driver (null: not on a panel, nothing to change there). */
async function panelOf(deps: FulfilmentDeps, account: AccountRecord) {
  if (!account.masterServerId || account.subscriptionUrl === null) return null;
  const server = await deps.servers.findServerRecord(account.masterServerId);
  return server ? deps.servers.driverFor(server) : null;
}

/** Sets the panel data limit the grant has written (the column given), computing it once from the panel's limit now. */
async function setTrafficLimit(
  deps: FulfilmentDeps,
  account: AccountRecord,
  grant: AddOnGrant,
  column: 'panel_data_limit' | 'panel_data_limit_after_revoke',
  change: number,
): Promise<void> {
  const driver = await panelOf(deps, account);
  if (!driver) return;
  let target = column === 'panel_data_limit' ? grant.panelDataLimit : grant.panelDataLimitAfterRevoke;
  if (target === null) {
    const current = await driver.getAccount(account.username);
    if (!current) throw new PermanentJobError(`The panel user of account ${account.id} is gone; its add-on cannot be applied`);
    // Unlimited data has no limit to raise or lower.
    if (current.dataLimitBytes === null) return;
    target = Math.max(1, current.dataLimitBytes + change);
    await deps.addOns.setPanelTarget(grant.id, column, target, deps.clock());
  }
  let panel = await driver.extendAccount(account.username, { dataLimitBytes: target });
  // A user the panel stopped for data runs again once it has more (as long as what is paid for it runs).
  if (change > 0 && (panel.status === 'limited' || panel.status === 'disabled') && (await deps.paidPeriods.of(account.id)).runs)
    panel = await driver.setEnabled(account.username, true);
  await deps.accounts.updateUsage(account.id, panelUsage(panel, account.links), deps.clock());
}

export async function deliverAddOn(deps: FulfilmentDeps, subscription: SubscriptionRecord, transaction: TransactionRecord): Promise<void> {
  const grant = await deps.addOns.grantOf(transaction.id);
  const account = subscription.vpnAccountId ? await deps.accounts.findById(subscription.vpnAccountId) : undefined;
  if (grant && account && !grant.revokedAt && grant.kind === 'traffic') await setTrafficLimit(deps, account, grant, 'panel_data_limit', grant.amount);
  await deps.db.transaction(async (trx) => {
    const now = deps.clock();
    if (grant) await deps.addOns.markApplied(grant.id, now, trx);
    await markFulfilled(deps, subscription, transaction, trx);
    await deps.accounts.insertLog(
      {
        accountId: subscription.vpnAccountId,
        userId: subscription.userId,
        step: 'add_on_applied',
        status: 'success',
        details: { transactionId: transaction.id, kind: grant?.kind ?? null, amount: grant?.amount ?? null },
        now,
      },
      trx,
    );
  });
}

/** A traffic add-on refunded: the panel data limit comes down by its amount (once, whatever the retries). */
export async function revokeTrafficAddOn(deps: FulfilmentDeps, transactionId: string): Promise<void> {
  const grant = await deps.addOns.grantOf(transactionId);
  if (!grant?.revokedAt || grant.kind !== 'traffic' || grant.appliedAt === null) return;
  const account = await deps.accounts.findById(grant.accountId);
  if (!account) return;
  await setTrafficLimit(deps, account, grant, 'panel_data_limit_after_revoke', -grant.amount);
}
