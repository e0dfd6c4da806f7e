import type { FastifyBaseLogger } from 'fastify';
import { addSeconds, type Clock } from '../../lib/clock.js';
import type { RetentionPurge } from './retention-purge.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import type { JobHandler } from '../../jobs/worker.js';

export const PURGE_OLD_ROWS = 'purge_old_rows';
/** Once a day; a pass cut short by its time budget continues a minute later (other jobs run in between). */
export const PURGE = { intervalSeconds: 24 * 3600, continueAfterSeconds: 60 } as const;

/** Puts the daily purge in the queue, due now, unless it is there already (any instance may call this at start). */
export async function scheduleOldRowsPurge(jobs: JobsRepo, now: Date): Promise<void> {
  await jobs.ensureRecurring({ type: PURGE_OLD_ROWS, payload: {}, dedupeKey: PURGE_OLD_ROWS, maxAttempts: 1000 }, now);
}

/**
 * The daily purge of rows past their retention (modules/retention/retention-purge.ts): one pass, then
 * the same job again the next day, or in a minute when the pass ran out of time with rows left.
 */
export function createPurgeOldRowsHandler(deps: { purge: RetentionPurge; clock: Clock; log: Pick<FastifyBaseLogger, 'info'> }): JobHandler {
  return async () => {
    const { deleted, more } = await deps.purge.purge();
    if (Object.values(deleted).some((count) => count > 0)) deps.log.info({ deleted, more }, 'purge: deleted rows past their retention');
    return {
      runAgainAt: addSeconds(deps.clock(), more ? PURGE.continueAfterSeconds : PURGE.intervalSeconds),
      note: more ? 'time budget used up with rows left; continuing' : null,
    };
  };
}
