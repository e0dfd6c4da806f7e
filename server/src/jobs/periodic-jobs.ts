import type { JobsRepo } from './jobs.repo.js';

/** A periodic job's failed passes retry with the worker's back-off; a good pass starts the count again. */
const PERIODIC_MAX_ATTEMPTS = 1000;

/**
 * Puts a periodic job in the queue, due now, unless it is there already: one row for all instances (its type is
 * its dedupe key), so any instance may call this at start. Its handler says when it runs next.
 */
export async function schedulePeriodicJob(jobs: JobsRepo, type: string, now: Date): Promise<void> {
  await jobs.ensureRecurring({ type, payload: {}, dedupeKey: type, maxAttempts: PERIODIC_MAX_ATTEMPTS }, now);
}

export async function schedulePeriodicJobs(jobs: JobsRepo, types: readonly string[], now: Date): Promise<void> {
  for (const type of types) await schedulePeriodicJob(jobs, type, now);
}
