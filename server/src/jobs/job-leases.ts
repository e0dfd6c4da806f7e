import type { Clock } from '../lib/clock.js';
import type { Job, JobsRepo } from './jobs.repo.js';
import type { JobLogger } from './worker.js';

/**
 * The jobs a worker is running now, and their leases: while any runs, a timer (one that does not hold the process
 * open) renews their `locked_at`, so no other worker takes them back; the shutdown log names them when they hold it up.
 */
export function createLeaseKeeper(options: { repo: JobsRepo; clock: Clock; log: JobLogger; workerId: string; renewIntervalMs: number }) {
  const { repo, clock, log, workerId, renewIntervalMs } = options;
  const running = new Map<string, { type: string; startedAt: number }>();
  let leaseTimer: NodeJS.Timeout | undefined;

  /** Keeps the leases of the running jobs while any runs (a timer that does not hold the process open). */
  function renewLeases(): void {
    if (running.size === 0) return;
    repo
      .renewLeases(workerId, [...running.keys()], clock())
      .catch((err: unknown) => log.error({ err, workerId }, "job queue: could not renew the running jobs' leases"));
  }

  return {
    running,
    track(job: Job): void {
      running.set(job.id, { type: job.type, startedAt: Date.now() });
      if (!leaseTimer) {
        leaseTimer = setInterval(renewLeases, renewIntervalMs);
        leaseTimer.unref();
      }
    },
    untrack(job: Job): void {
      running.delete(job.id);
      if (running.size === 0 && leaseTimer) {
        clearInterval(leaseTimer);
        leaseTimer = undefined;
      }
    },
  };
}

export type LeaseKeeper = ReturnType<typeof createLeaseKeeper>;
