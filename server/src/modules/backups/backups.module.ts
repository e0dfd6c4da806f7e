import type { Core } from '../module.js';
import { defineModule } from '../module.js';
import { createTakeBackupHandler, TAKE_BACKUP } from './backup-schedule.js';
import { createBackupStatus } from './backup-status.js';

/** Backups (docs/backups.md): the daily one at BACKUP_TIME, run by the job queue, and the last one's age for System. */
export const backupsModule = defineModule({
  name: 'backups',
  build: ({ config, clock }: Pick<Core, 'config' | 'clock' | 'log'>) => ({ backupStatus: createBackupStatus({ config, clock }) }),
  jobs: ({ config, clock, log }) => ({ [TAKE_BACKUP]: createTakeBackupHandler({ config, clock, log }) }),
  periodicJobs: [TAKE_BACKUP],
});
