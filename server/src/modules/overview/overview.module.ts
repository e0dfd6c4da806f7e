import type { Configured } from '../settings/index.js';
import { defineModule, route } from '../module.js';
import { createDailyStatsRepo } from './daily-stats.repo.js';
import { createOverviewRepo } from './overview.repo.js';
import { adminOverviewRoutes } from './overview.routes.js';
import { createOverviewService } from './overview.service.js';
import { createSnapshotDailyStatsHandler, SNAPSHOT_DAILY_STATS } from './snapshot-daily-stats.js';

/** The admin's overview: revenue, sign-ups and active accounts, with a snapshot of each day taken hourly. */
export const overviewModule = defineModule({
  name: 'overview',
  build({ db, clock, settings, commitToken }: Configured) {
    return { overview: createOverviewService({ repo: createOverviewRepo(db), stats: createDailyStatsRepo(db), settings, clock, commitToken }) };
  },
  routes: ({ overview }) => [route(adminOverviewRoutes, { overview })],
  jobs: ({ overview, clock }) => ({ [SNAPSHOT_DAILY_STATS]: createSnapshotDailyStatsHandler({ overview, clock }) }),
  periodicJobs: [SNAPSHOT_DAILY_STATS],
});
