import type { StuckAccountsSweep } from './stuck-accounts.js';
import { addSeconds, type Clock } from '../../lib/clock.js';
import type { JobHandler } from '../../jobs/worker.js';

export const SWEEP_STUCK_ACCOUNTS = 'sweep_stuck_accounts';

/**
 * The periodic sweep of stuck accounts (modules/accounts/stuck-accounts.ts): one pass, then the same job
 * runs again after the interval (at once when a full batch was settled). Rows whose panel did not answer
 * are left as they are for the next pass; the job's last_error says which.
 */
export function createSweepStuckAccountsHandler(deps: { sweep: StuckAccountsSweep; clock: Clock; intervalSeconds: number }): JobHandler {
  return async () => {
    const result = await deps.sweep.sweep();
    const again = result.more && result.adopted + result.removed > 0 ? 0 : deps.intervalSeconds;
    return { runAgainAt: addSeconds(deps.clock(), again), note: result.deferred.length > 0 ? result.deferred.join('; ') : null };
  };
}
