import type { FastifyBaseLogger } from 'fastify';
import { addSeconds, type Clock } from '../../lib/clock.js';
import type { RetentionPurge } from './retention-purge.js';
import type { JobHandler } from '../../jobs/worker.js';

export const PURGE_OLD_ROWS = 'purge_old_rows';
/** Once a day; a pass cut short by its time budget continues a minute later (other jobs run in between). */
export const PURGE = { intervalSeconds: 24 * 3600, continueAfterSeconds: 60 } as const;

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
