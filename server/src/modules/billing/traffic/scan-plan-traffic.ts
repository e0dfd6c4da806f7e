import { DAY_MS } from '../../../../../shared/constants.js';
import { accountSerialKey } from '../../../jobs/jobs.repo.js';
import type { JobHandler } from '../../../jobs/worker.js';
import { addSeconds } from '../../../lib/clock.js';
import { graceKey, SET_GRACE_DATA_LIMIT } from './grace-data-limit.js';
import type { PlanTrafficDeps } from './plan-traffic-deps.js';
import { monthlyResetKey, RESET_MONTHLY_TRAFFIC } from './reset-monthly-traffic.js';
import type { MonthlyCandidate } from './plan-traffic.repo.js';
import { monthIndexAt, monthStart } from './traffic-months.js';

export const SCAN_PLAN_TRAFFIC = 'scan_plan_traffic';

/**
 * How often the scan looks (it queues the jobs of what happens before it looks again, due at that moment: a month's
 * reset when the month begins, a grace limit at the paid end), how many accounts it reads at a time, and how long a
 * job keeps trying while a panel does not answer (about two days).
 */
export const PLAN_TRAFFIC_SCAN = { intervalSeconds: 900, pageSize: 500, maxAttempts: 300 } as const;

/** A job for one account's step, queued once: its dedupe key is the step's, so two scans (or instances) queue one. */
interface StepJob {
  accountId: string;
  key: string;
  type: string;
  payload: object;
  /** When it is due (now when it is due already). */
  runAt: Date;
}

/** Queues the jobs of the steps not taken yet. */
async function enqueueMissing(deps: PlanTrafficDeps, jobs: StepJob[], now: Date): Promise<number> {
  const taken = await deps.steps.takenSteps(
    [...new Set(jobs.map((job) => job.accountId))],
    jobs.map((job) => job.key),
  );
  const missing = jobs.filter((job) => !taken.has(`${job.accountId}|${job.key}`));
  for (const job of missing) {
    await deps.jobs.enqueue(
      {
        type: job.type,
        payload: job.payload,
        dedupeKey: `${job.type}:${job.accountId}:${job.key}`,
        serialKey: accountSerialKey(job.accountId),
        maxAttempts: PLAN_TRAFFIC_SCAN.maxAttempts,
        runAt: job.runAt,
      },
      now,
    );
  }
  return missing.length;
}

/** The resets of a period: its current month (1 or later) if not done, and the next one if it begins before the next scan. */
function monthJobs(candidate: MonthlyCandidate, now: Date, until: Date): StepJob[] {
  const current = monthIndexAt(candidate, now);
  if (current === null) return [];
  const job = (month: number, runAt: Date): StepJob => ({
    accountId: candidate.accountId,
    key: monthlyResetKey(candidate.periodId, month),
    type: RESET_MONTHLY_TRAFFIC,
    payload: { accountId: candidate.accountId, periodId: candidate.periodId, month },
    runAt,
  });
  const next = monthStart(candidate.startsAt, current + 1);
  return [...(current > 0 ? [job(current, now)] : []), ...(next <= until && next < candidate.endsAt ? [job(current + 1, next)] : [])];
}

/** Accounts on a monthly-reset plan whose month of their paid period has begun (or begins before the next scan) without its reset. */
async function queueMonthlyResets(deps: PlanTrafficDeps, now: Date): Promise<number> {
  const until = addSeconds(now, PLAN_TRAFFIC_SCAN.intervalSeconds);
  let queued = 0;
  for (let after = ''; ;) {
    const page = await deps.steps.listMonthlyCandidates(now, after, PLAN_TRAFFIC_SCAN.pageSize);
    if (page.length === 0) return queued;
    // One period holds `now` per account (the ledger refuses overlaps of one kind with the other); the latest begun wins.
    const current = new Map(page.map((candidate) => [candidate.accountId, candidate]));
    const jobs = [...current.values()].flatMap((candidate) => monthJobs(candidate, now, until));
    queued += await enqueueMissing(deps, jobs, now);
    if (page.length < PLAN_TRAFFIC_SCAN.pageSize) return queued;
    after = page[page.length - 1]!.accountId;
  }
}

/** Accounts past their paid end (or reaching it before the next scan), within their plan's grace days, without their grace limit. */
async function queueGraceLimits(deps: PlanTrafficDeps, now: Date): Promise<number> {
  const until = addSeconds(now, PLAN_TRAFFIC_SCAN.intervalSeconds);
  let queued = 0;
  for (let after = ''; ;) {
    const page = await deps.steps.listGraceCandidates(now, until, after, PLAN_TRAFFIC_SCAN.pageSize);
    if (page.length === 0) return queued;
    const jobs = page
      .filter((candidate) => now.getTime() < candidate.paidEnd.getTime() + candidate.graceDays * DAY_MS)
      .map((candidate) => ({
        accountId: candidate.accountId,
        key: graceKey(candidate.paidEnd),
        type: SET_GRACE_DATA_LIMIT,
        payload: { accountId: candidate.accountId, paidEnd: candidate.paidEnd.toISOString() },
        runAt: candidate.paidEnd > now ? candidate.paidEnd : now,
      }));
    queued += await enqueueMissing(deps, jobs, now);
    if (page.length < PLAN_TRAFFIC_SCAN.pageSize) return queued;
    after = page[page.length - 1]!.accountId;
  }
}

/**
 * The periodic scan of the plans' traffic rules: every month of a paid period on a monthly-reset plan, and every paid
 * end whose plan gives grace data, gets its job (reset-monthly-traffic.ts, grace-data-limit.ts), once, due when the
 * month begins or the paid time ends (a scan that comes late queues it due at once).
 */
export async function scanPlanTraffic(deps: PlanTrafficDeps): Promise<{ resets: number; graceLimits: number }> {
  const now = deps.clock();
  return { resets: await queueMonthlyResets(deps, now), graceLimits: await queueGraceLimits(deps, now) };
}

export function createScanPlanTrafficHandler(deps: PlanTrafficDeps): JobHandler {
  return async () => {
    const { resets, graceLimits } = await scanPlanTraffic(deps);
    return { runAgainAt: addSeconds(deps.clock(), PLAN_TRAFFIC_SCAN.intervalSeconds), note: `${resets} monthly resets and ${graceLimits} grace limits queued` };
  };
}
