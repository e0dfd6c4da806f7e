import { z } from 'zod';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';
import { createAddOnsRepo } from '../add-ons/add-ons.repo.js';
import type { PaidPeriodRecord } from '../ledger/paid-periods.repo.js';
import { finishStep, panelTargetOf, unusedOf, type PanelTarget, type PlanTrafficDeps } from './plan-traffic-deps.js';
import type { PlanTrafficRules, TrafficStep } from './plan-traffic.repo.js';
import { monthIndexAt } from './traffic-months.js';

export const RESET_MONTHLY_TRAFFIC = 'reset_monthly_traffic';

const Payload = z.object({ accountId: z.string().min(1), periodId: z.string().min(1), month: z.number().int().min(1) });

/** The step of month `month` of a paid period (one per account, period and month). */
export const monthlyResetKey = (periodId: string, month: number) => `reset:${periodId}:${month}`;

/**
 * The allowance a month starts with: the period's own (what its order bought), or the plan's when the order has none,
 * and the traffic of the account's add-ons that still count (bought for good, or for this period).
 */
async function allowanceOf(deps: PlanTrafficDeps, accountId: string, period: PaidPeriodRecord, rules: PlanTrafficRules): Promise<number> {
  const subscription = await deps.billing.findSubscription(period.subscriptionId);
  const addOns = await createAddOnsRepo(deps.db).liveTraffic(accountId, deps.clock());
  return (subscription?.metadata.data_limit ?? rules.dataLimitBytes) + addOns;
}

/**
 * The month's step, recorded with its numbers before the panel is touched: the data used so far, what carries over
 * (the month's unused data when the plan says so) and the new limit. Null when there is no panel user to reset.
 */
async function claimMonth(
  deps: PlanTrafficDeps,
  target: PanelTarget,
  input: { key: string; period: PaidPeriodRecord; rules: PlanTrafficRules; jobId: string },
): Promise<{ step: TrafficStep; claimed: boolean } | null> {
  const { account, driver } = target;
  const existing = await deps.steps.findStep(account.id, input.key);
  if (existing) return { step: existing, claimed: false };
  const panel = await driver.getAccount(account.username);
  if (!panel) return null;
  const carried = input.rules.trafficCarryOver ? unusedOf(panel) : 0;
  const allowance = await allowanceOf(deps, account.id, input.period, input.rules);
  const step = { accountId: account.id, key: input.key, jobId: input.jobId, usedBefore: panel.usedTrafficBytes, carried, dataLimit: allowance + carried };
  return deps.steps.claimStep(step, deps.clock());
}

/** A step claimed by an earlier attempt of this job: did its reset reach the panel before it stopped (less is used now)? */
async function resetReached(target: PanelTarget, step: TrafficStep): Promise<boolean> {
  if (!step.usedBefore) return false;
  const panel = await target.driver.getAccount(target.account.username);
  return panel !== null && panel.usedTrafficBytes < step.usedBefore;
}

/**
 * Month `month` of a paid period has begun: the account's used data goes back to 0 on its panel (`resetUsage`, once for
 * the month however often or wherever this runs), and its limit becomes the period's allowance, plus the month's unused
 * data when the plan carries it over; a user the panel had limited for data runs again. It reads the database when it
 * runs: a period voided, ended or moved on to a later month since it was queued, or a plan no longer reset monthly,
 * is left alone (a later month has its own job).
 */
async function resetMonth(deps: PlanTrafficDeps, input: z.infer<typeof Payload>, jobId: string): Promise<void> {
  const target = await panelTargetOf(deps, input.accountId);
  if (!target) return;
  const rules = await deps.steps.rulesOfAccount(input.accountId);
  if (rules?.trafficReset !== 'monthly') return;
  const period = (await deps.periods.listForAccount(input.accountId)).find((p) => p.id === input.periodId && !p.voidedAt);
  if (!period || monthIndexAt(period, deps.clock()) !== input.month) return;
  const key = monthlyResetKey(period.id, input.month);
  const claim = await claimMonth(deps, target, { key, period, rules, jobId });
  // Done already, or another runner's (only one job exists per month: this is a safeguard).
  if (!claim || claim.step.doneAt || claim.step.jobId !== jobId) return;
  const { step } = claim;
  const { driver, account } = target;
  if (claim.claimed || !(await resetReached(target, step))) await driver.resetUsage(account.username);
  const panel = await driver.extendAccount(account.username, { dataLimitBytes: step.dataLimit });
  await finishStep(deps, target, {
    key,
    logStep: 'traffic_reset_monthly',
    panel,
    details: { month: input.month, periodId: period.id, usedBefore: step.usedBefore, carriedBytes: step.carried },
  });
}

export function createResetMonthlyTrafficHandler(deps: PlanTrafficDeps): JobHandler {
  return async (payload, job) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad monthly traffic reset payload');
    await resetMonth(deps, parsed.data, job.id);
  };
}
