import type { Db } from '../../../db/knex.js';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import type { Clock } from '../../../lib/clock.js';
import type { PanelAccount, PanelDriver } from '../../../panels/index.js';
import { panelUsage, type AccountRecord, type AccountsRepo } from '../../accounts/index.js';
import type { ServersService } from '../../servers/index.js';
import type { BillingRepo } from '../billing.repo.js';
import type { PaidPeriods } from '../ledger/paid-period.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import type { PlanTrafficRepo } from './plan-traffic.repo.js';

/** What the traffic rules' jobs (the scan, the monthly reset, the grace limit) work with. */
export interface PlanTrafficDeps {
  db: Db;
  steps: PlanTrafficRepo;
  accounts: AccountsRepo;
  servers: ServersService;
  billing: BillingRepo;
  periods: PaidPeriodsRepo;
  paidPeriods: PaidPeriods;
  jobs: JobsRepo;
  clock: Clock;
}

/** An account with its panel user, which the store can change. */
export interface PanelTarget {
  account: AccountRecord;
  serverId: string;
  driver: PanelDriver;
}

/** The account's panel user, or null when there is none to change (gone, never made, suspended, its server removed). */
export async function panelTargetOf(deps: Pick<PlanTrafficDeps, 'accounts' | 'servers'>, accountId: string): Promise<PanelTarget | null> {
  const account = await deps.accounts.findById(accountId);
  if (!account?.masterServerId || account.subscriptionUrl === null || account.status === 'suspended') return null;
  const server = await deps.servers.findServerRecord(account.masterServerId);
  return server ? { account, serverId: server.id, driver: deps.servers.driverFor(server) } : null;
}

/** Unused data of an allowance as the panel counts it (none when it is unlimited, or used up). */
export const unusedOf = (panel: PanelAccount): number => (panel.dataLimitBytes === null ? 0 : Math.max(0, panel.dataLimitBytes - panel.usedTrafficBytes));

/**
 * The step's limit is set; a user the panel had `limited` for data runs again (unless nothing paid makes it run), and
 * the account's row, its log and the step record it, together.
 */
export async function finishStep(
  deps: PlanTrafficDeps,
  target: PanelTarget,
  done: { key: string; logStep: string; panel: PanelAccount; details: Record<string, unknown> },
): Promise<void> {
  const { account, driver } = target;
  let panel = done.panel;
  if (panel.status === 'limited' && (await deps.paidPeriods.of(account.id)).runs) panel = await driver.setEnabled(account.username, true);
  await deps.db.transaction(async (trx) => {
    const now = deps.clock();
    await deps.accounts.updateUsage(account.id, panelUsage(panel, account.links), now, trx);
    await deps.accounts.insertLog(
      {
        accountId: account.id,
        userId: account.userId,
        step: done.logStep,
        status: 'success',
        details: { serverId: target.serverId, username: account.username, dataLimitBytes: panel.dataLimitBytes, ...done.details },
        now,
      },
      trx,
    );
    await deps.steps.markDone(account.id, done.key, now, trx);
  });
}
