import { z } from 'zod';
import type { AccountsRepo } from '../../accounts/index.js';
import type { BillingNotices } from '../billing-notices.js';
import type { PaidPeriods } from './paid-period.js';
import type { ServersService } from '../../servers/index.js';
import type { Clock } from '../../../lib/clock.js';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';
import { panelUsage } from '../../accounts/index.js';
import type { PlansRepo } from '../../plans/index.js';
import { movePlanServices } from '../fulfilment/plan-services.js';

/** Puts an account's panel user in step with what is paid for it (see createSyncPaidPeriodHandler). */
export const SYNC_PAID_PERIOD = 'sync_paid_period';

const Payload = z.object({
  accountId: z.string().min(1),
  paidUntilIfNone: z.iso.datetime().optional(),
  /** A plan change taken back: the data limit it had before (null = unlimited). */
  dataLimitBytes: z.number().int().positive().nullable().optional(),
  /** A plan change taken back: the plan it had moved the account to (the squads or groups of the plan it is on again). */
  planMovedFrom: z.string().min(1).optional(),
});

/**
 * Sets the account's panel user to what is paid for it now, after a refund, a dispute, a failed
 * renewal charge or a change of auto-renew. Its expiry becomes the end of its latest paid period (plus
 * the grace period while a subscription renews it; with nothing paid, where the refunded period began),
 * and it runs only while that is in the future and no payment of it is disputed. While a past_due
 * subscription's grace runs, the job comes back when it ends, and pauses the account then unless it
 * was paid meanwhile. It reads the database when it runs (not what the event said), so jobs from events
 * in any order, or run twice, end in the same state.
 */
export function createSyncPaidPeriodHandler(deps: {
  accounts: AccountsRepo;
  servers: ServersService;
  plans: Pick<PlansRepo, 'findById'>;
  paidPeriods: PaidPeriods;
  notices: BillingNotices;
  clock: Clock;
}): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad paid-period payload');
    const account = await deps.accounts.findById(parsed.data.accountId);
    // Gone, or never made on a panel: nothing runs that could be stopped.
    if (!account?.masterServerId || account.subscriptionUrl === null) return;
    const server = await deps.servers.findServerRecord(account.masterServerId);
    if (!server) return;
    const now = deps.clock();
    const paidUntilIfNone = parsed.data.paidUntilIfNone ? new Date(parsed.data.paidUntilIfNone) : null;
    const period = await deps.paidPeriods.of(account.id, { paidUntilIfNone });
    const { expiresAt, runs } = period;
    const driver = deps.servers.driverFor(server);
    const { dataLimitBytes } = parsed.data;
    if (expiresAt || dataLimitBytes !== undefined)
      await driver.extendAccount(account.username, { ...(expiresAt ? { expiresAt } : {}), ...(dataLimitBytes !== undefined ? { dataLimitBytes } : {}) });
    if (parsed.data.planMovedFrom) await movePlanServices(deps, { driver, server, username: account.username }, parsed.data.planMovedFrom, account.planId);
    const panel = await driver.setEnabled(account.username, runs);
    await deps.accounts.updateUsage(account.id, panelUsage(panel, account.links), now);
    const unpaid = period.renewing?.status === 'past_due' ? period.renewing : null;
    await deps.accounts.insertLog({
      accountId: account.id,
      userId: account.userId,
      step: runs ? 'paid_period_synced' : unpaid ? 'account_paused_unpaid' : 'account_paused',
      status: 'success',
      details: { serverId: server.id, username: account.username, expiresAt: expiresAt?.toISOString() ?? null, enabled: runs },
      now,
    });
    if (!unpaid) return;
    if (!runs) {
      await deps.notices.notify({ kind: 'account_paused', subscriptionId: unpaid.id }, `${unpaid.id}:${period.paidEnd?.toISOString() ?? 'none'}`);
      return;
    }
    // Grace is running: look again when it ends (a payment meanwhile ends past_due, and this finds it running).
    const graceEnd = Math.min(period.graceEndsAt?.getTime() ?? Infinity, expiresAt!.getTime());
    return { runAgainAt: new Date(graceEnd + 1000), note: 'past_due: waiting for the grace period to end' };
  };
}
