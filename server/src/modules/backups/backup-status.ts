import type { BackupStatus } from '../../../../shared/accounts.js';
import { DAY_MS } from '../../../../shared/constants.js';
import type { Clock } from '../../lib/clock.js';
import { listBackups } from './backup-list.js';
import type { BackupConfig } from './take-backup.js';

/**
 * The backups as the admin's System page shows them: the schedule, and the newest backup in BACKUP_DIR (by the
 * time in its name). An alert when it is more than a day old, or when backups are scheduled and there is none.
 */
export function createBackupStatus(deps: { config: Pick<BackupConfig, 'backups'>; clock: Clock }) {
  return {
    async status(): Promise<BackupStatus> {
      const { time, keep } = deps.config.backups;
      const backups = await listBackups(deps.config.backups.dir).catch(() => []);
      const newest = backups.at(-1);
      const now = deps.clock().getTime();
      const ageSeconds = newest ? Math.max(0, Math.floor((now - newest.takenAt.getTime()) / 1000)) : null;
      return {
        scheduledAt: time,
        keep,
        count: backups.length,
        last: newest ? { takenAt: newest.takenAt.toISOString(), ageSeconds: ageSeconds!, bytes: newest.bytes, name: newest.name } : null,
        alert: newest ? now - newest.takenAt.getTime() > DAY_MS : time !== null,
      };
    },
  };
}

export type BackupStatusReader = ReturnType<typeof createBackupStatus>;
