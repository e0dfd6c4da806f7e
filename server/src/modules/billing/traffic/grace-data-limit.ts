import { z } from 'zod';
import { DAY_MS } from '../../../../../shared/constants.js';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';
import { finishStep, panelTargetOf, type PlanTrafficDeps } from './plan-traffic-deps.js';

export const SET_GRACE_DATA_LIMIT = 'set_grace_data_limit';

const Payload = z.object({ accountId: z.string().min(1), paidEnd: z.iso.datetime() });

/** The step of the grace after one paid end (one per account and paid end). */
export const graceKey = (paidEnd: Date) => `grace:${paidEnd.toISOString()}`;

/**
 * The account's paid time ended and its plan gives data during the grace days: its panel limit becomes what it has
 * used plus the plan's grace data, once per paid end (the numbers are recorded before the panel is called, so a rerun
 * sets the same limit). It reads the database when it runs: paid again meanwhile (another paid end), renewed by a
 * subscription, or past the grace, it does nothing. A renewal later brings the normal limit back (deliver-renewal.ts).
 */
async function setGraceLimit(deps: PlanTrafficDeps, input: z.infer<typeof Payload>, jobId: string): Promise<void> {
  const target = await panelTargetOf(deps, input.accountId);
  if (!target) return;
  const rules = await deps.steps.rulesOfAccount(input.accountId);
  if (!rules || rules.graceDays < 1 || rules.graceDataBytes === null) return;
  const period = await deps.paidPeriods.of(input.accountId);
  const paidEnd = new Date(input.paidEnd);
  const now = deps.clock();
  if (period.renewing || period.paidEnd?.getTime() !== paidEnd.getTime()) return;
  if (now < paidEnd || now.getTime() >= paidEnd.getTime() + rules.graceDays * DAY_MS) return;
  const { account, driver } = target;
  const key = graceKey(paidEnd);
  let step = await deps.steps.findStep(account.id, key);
  if (!step) {
    const panel = await driver.getAccount(account.username);
    if (!panel) return;
    const claimed = {
      accountId: account.id,
      key,
      jobId,
      usedBefore: panel.usedTrafficBytes,
      carried: 0,
      dataLimit: panel.usedTrafficBytes + rules.graceDataBytes,
    };
    step = (await deps.steps.claimStep(claimed, now)).step;
  }
  if (step.doneAt || step.jobId !== jobId) return;
  const panel = await driver.extendAccount(account.username, { dataLimitBytes: step.dataLimit });
  await finishStep(deps, target, { key, logStep: 'grace_data_limit', panel, details: { paidEnd: input.paidEnd, graceDataBytes: rules.graceDataBytes } });
}

export function createGraceDataLimitHandler(deps: PlanTrafficDeps): JobHandler {
  return async (payload, job) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad grace data payload');
    await setGraceLimit(deps, parsed.data, job.id);
  };
}
