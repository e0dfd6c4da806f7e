import { addSeconds, type Clock } from '../../lib/clock.js';
import type { OverviewService } from './overview.service.js';
import type { JobHandler } from '../../jobs/worker.js';

export const SNAPSHOT_DAILY_STATS = 'snapshot_daily_stats';
/** Hourly: a past day keeps the snapshot taken in its last hour. */
export const DAILY_SNAPSHOT = { intervalSeconds: 3600 } as const;

/** Writes today's active accounts to `daily_stats` (the admin's overview), then again an hour later. */
export function createSnapshotDailyStatsHandler(deps: { overview: OverviewService; clock: Clock }): JobHandler {
  return async () => {
    const snapshot = await deps.overview.takeSnapshot();
    return {
      runAgainAt: addSeconds(deps.clock(), DAILY_SNAPSHOT.intervalSeconds),
      note: `${snapshot.activeAccounts} active accounts, ${snapshot.users} users`,
    };
  };
}
