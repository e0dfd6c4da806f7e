import type { Clock } from '../../../lib/clock.js';
import type { PanelDriver } from '../../../panels/index.js';
import type { AccountRecord } from '../../accounts/index.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import { unusedOf } from './plan-traffic-deps.js';
import type { PlanTrafficRepo } from './plan-traffic.repo.js';

/** A renewal's period follows the one before without a gap when it starts where that ended (a second's leeway). */
const CHAINED_LEEWAY_MS = 1000;

/**
 * The data a renewal adds to its new allowance: the unused data of the period it follows, when the account's plan
 * carries it over (its current rules) and the renewal continues that period without a gap (bought before its end, or
 * a subscription's next invoice). A renewal after the paid time ran out starts afresh: what was left of it, or of its
 * grace data, is not carried. The amount is recorded once per renewal payment (`renewal:<transaction>`) before the
 * panel is changed, so a delivery tried again after a crash (the limit set, the usage not reset yet) carries the same.
 */
export async function renewalCarryOver(
  deps: { steps: PlanTrafficRepo; periods: PaidPeriodsRepo; clock: Clock },
  input: { account: AccountRecord; transactionId: string; driver: PanelDriver },
): Promise<number> {
  const { account } = input;
  const key = `renewal:${input.transactionId}`;
  const recorded = await deps.steps.findStep(account.id, key);
  if (recorded) return recorded.carried;
  if (!(await deps.steps.rulesOfAccount(account.id))?.trafficCarryOver) return 0;
  const periods = (await deps.periods.listForAccount(account.id)).filter((period) => !period.voidedAt);
  const own = periods.find((period) => period.transactionId === input.transactionId);
  if (!own) return 0;
  const previousEnd = Math.max(...periods.filter((period) => period.startsAt < own.startsAt).map((period) => period.endsAt.getTime()));
  // Nothing before it, or a gap: the paid time had run out.
  if (!Number.isFinite(previousEnd) || own.startsAt.getTime() > previousEnd + CHAINED_LEEWAY_MS) return 0;
  const panel = await input.driver.getAccount(account.username);
  if (!panel) return 0;
  const step = { accountId: account.id, key, jobId: null, usedBefore: panel.usedTrafficBytes, carried: unusedOf(panel), dataLimit: null };
  return (await deps.steps.claimStep(step, deps.clock())).step.carried;
}
