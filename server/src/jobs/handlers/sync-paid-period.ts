import { z } from 'zod';
import type { AccountsRepo } from '../../modules/accounts/accounts.repo.js';
import type { BillingRepo } from '../../modules/billing/billing.repo.js';
import type { ServersService } from '../../modules/servers/servers.service.js';
import type { Clock } from '../../lib/clock.js';
import { PermanentJobError, type JobHandler } from '../worker.js';

const Payload = z.object({ accountId: z.string().min(1), paidUntilIfNone: z.iso.datetime().optional() });

/**
 * After a refund or a dispute: sets the account's panel user to what is paid for it now. Its expiry
 * becomes the end of its latest paid period (or, with none left, where the refunded one began), and it
 * runs only while that is in the future and no payment of it is disputed. It reads the database when it runs (not what the event said), so jobs
 * from events in any order, or run twice, end in the same state.
 */
export function createSyncPaidPeriodHandler(deps: { billing: BillingRepo; accounts: AccountsRepo; servers: ServersService; clock: Clock }): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad paid-period payload');
    const account = await deps.accounts.findById(parsed.data.accountId);
    // Gone, or never made on a panel: nothing runs that could be stopped.
    if (!account?.masterServerId || account.subscriptionUrl === null) return;
    const server = await deps.servers.findServerRecord(account.masterServerId);
    if (!server) return;
    const now = deps.clock();
    const fallback = parsed.data.paidUntilIfNone ? new Date(parsed.data.paidUntilIfNone) : null;
    const paidEnd = (await deps.billing.latestPaidPeriodEnd(account.id)) ?? fallback;
    const runs = paidEnd !== null && paidEnd > now && !(await deps.billing.hasOpenDispute(account.id));
    const driver = deps.servers.driverFor(server);
    if (paidEnd) await driver.extendAccount(account.username, { expiresAt: paidEnd });
    const panel = await driver.setEnabled(account.username, runs);
    await deps.accounts.updateUsage(account.id, {
      status: panel.status, usedTrafficBytes: panel.usedTrafficBytes, expireDate: panel.expiresAt,
      dataLimitBytes: panel.dataLimitBytes ?? 0, links: panel.links ?? account.links,
    }, now);
    await deps.accounts.insertLog({
      accountId: account.id, userId: account.userId, step: runs ? 'paid_period_synced' : 'account_paused', status: 'success',
      details: { serverId: server.id, username: account.username, expiresAt: paidEnd?.toISOString() ?? null, enabled: runs }, now,
    });
  };
}
