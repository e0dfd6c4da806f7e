import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import type { JobHandler } from '../../../jobs/worker.js';
import { addSeconds, type Clock } from '../../../lib/clock.js';
import type { AccountsRepo } from '../../accounts/index.js';
import type { PlansRepo } from '../../plans/index.js';
import type { ServersService } from '../../servers/index.js';
import { movePlanServices } from '../fulfilment/plan-services.js';

export const APPLY_WAITING_PLAN_CHANGES = 'apply_waiting_plan_changes';
/** Every 10 minutes, up to this many accounts a pass. */
export const WAITING_PLAN_CHANGES = { intervalSeconds: 600, perPass: 200 } as const;

export interface PlanChangeJobDeps {
  db: Db;
  accounts: AccountsRepo;
  plans: PlansRepo;
  servers: ServersService;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * A downgrade the operator lets wait for the paid end (start-plan-change.ts), made when it is due: its panel user gets
 * the new plan's data limit first (the expiry is what was paid, as it is), then the account is on the new plan, with
 * its device limit. A panel that does not answer leaves it due, for the next pass; a plan gone since is dropped.
 */
async function applyWaitingChange(deps: PlanChangeJobDeps, due: { id: string; planId: string }): Promise<void> {
  const account = await deps.accounts.findById(due.id);
  if (!account?.nextPlan || account.nextPlan.planId !== due.planId) return;
  const plan = await deps.plans.findById(due.planId);
  const now = deps.clock();
  if (!plan) {
    await deps.accounts.setNextPlan(account.id, null, now);
    return;
  }
  const server = account.masterServerId ? await deps.servers.findServerRecord(account.masterServerId) : undefined;
  if (server && account.subscriptionUrl) {
    const driver = deps.servers.driverFor(server);
    await driver.extendAccount(account.username, { dataLimitBytes: plan.dataLimitBytes });
    await movePlanServices(deps, { driver, server, username: account.username }, account.planId, plan.id);
  }
  await deps.db.transaction(async (trx) => {
    await deps.accounts.setPlan(account.id, { planId: plan.id, deviceLimit: plan.deviceLimit }, now, trx);
    await deps.accounts.insertLog(
      {
        accountId: account.id,
        userId: account.userId,
        step: 'plan_changed',
        status: 'success',
        details: { from: account.planId, to: plan.id, waited: true },
        now,
      },
      trx,
    );
  });
}

export function createApplyWaitingPlanChangesHandler(deps: PlanChangeJobDeps): JobHandler {
  return async () => {
    const due = await deps.accounts.listNextPlansDue(deps.clock(), WAITING_PLAN_CHANGES.perPass);
    let applied = 0;
    for (const change of due) {
      try {
        await applyWaitingChange(deps, change);
        applied += 1;
      } catch (err) {
        deps.log.warn({ err, accountId: change.id }, 'plan change: the waiting change could not be made; the next pass tries again');
      }
    }
    return { runAgainAt: addSeconds(deps.clock(), WAITING_PLAN_CHANGES.intervalSeconds), note: due.length ? `${applied} of ${due.length} made` : null };
  };
}
