import type { FastifyBaseLogger } from 'fastify';
import { addSeconds, type Clock } from '../../lib/clock.js';
import type { JobHandler } from '../../jobs/worker.js';
import { listBackups, pruneBackups } from './backup-list.js';
import { takeBackup, type BackupConfig } from './take-backup.js';

export const TAKE_BACKUP = 'take_backup';
const DAY_SECONDS = 24 * 3600;

/** Today's (or, before it, yesterday's) BACKUP_TIME: the last time a scheduled backup was due at or before `now`. */
export function lastDueAt(time: string, now: Date): Date {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const due = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hours, minutes));
  return due.getTime() > now.getTime() ? addSeconds(due, -DAY_SECONDS) : due;
}

/** The next BACKUP_TIME after `now`. */
export function nextDueAt(time: string, now: Date): Date {
  return addSeconds(lastDueAt(time, now), DAY_SECONDS);
}

/**
 * The scheduled backup, a periodic job: when no backup was taken since BACKUP_TIME last came round (the server
 * was down then, or this is the first start), it takes one and keeps the newest BACKUP_KEEP; then it waits for the
 * next BACKUP_TIME. Without BACKUP_TIME it does nothing and looks again a day later. A failure retries with the
 * queue's back-off, and the System page warns once the last backup is a day old.
 */
export function createTakeBackupHandler(deps: { config: BackupConfig; clock: Clock; log: Pick<FastifyBaseLogger, 'info'> }): JobHandler {
  return async () => {
    const { time, dir, keep } = deps.config.backups;
    const now = deps.clock();
    if (!time) return { runAgainAt: addSeconds(now, DAY_SECONDS), note: 'BACKUP_TIME is not set: no scheduled backups' };
    const newest = (await listBackups(dir)).at(-1);
    if (!newest || newest.takenAt.getTime() < lastDueAt(time, now).getTime()) {
      const file = await takeBackup(deps.config, deps.clock);
      const pruned = await pruneBackups(dir, keep);
      deps.log.info({ file, pruned }, 'backup: took the scheduled backup');
    }
    return { runAgainAt: nextDueAt(time, deps.clock()), note: null };
  };
}
