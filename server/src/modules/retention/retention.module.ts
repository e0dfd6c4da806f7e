import type { Configured } from '../settings/index.js';
import { defineModule } from '../module.js';
import { createPurgeOldRowsHandler, PURGE_OLD_ROWS } from './purge-old-rows.js';
import { createRetentionPurge } from './retention-purge.js';

/** The daily purge of rows past their retention (the periodic jobs' own rows are never purged). */
export const retentionModule = defineModule({
  name: 'retention',
  build: (_deps: Configured) => ({}),
  jobs: ({ db, settings, clock, log, periodicJobs }) => ({
    [PURGE_OLD_ROWS]: createPurgeOldRowsHandler({ purge: createRetentionPurge({ db, settings, clock, periodicJobKeys: periodicJobs }), clock, log }),
  }),
  periodicJobs: [PURGE_OLD_ROWS],
});
