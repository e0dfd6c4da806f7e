import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import { sqliteFileOf } from '../../db/knex.js';
import { readExistingAppSecret } from '../../lib/app-secret.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { APP_VERSION } from '../../lib/package-info.js';
import { BackupError, writeBackupFile } from './backup-file.js';
import { backupName } from './backup-list.js';
import { copySqliteDatabase, dumpPostgres } from './database-copy.js';

export type BackupConfig = Pick<Config, 'databaseUrl' | 'dataDir' | 'appSecret' | 'backups'>;

/** A name in `dir` no backup has yet (a second backup within one second gets `-2`). */
function freeName(dir: string, at: Date): string {
  for (let n = 1; ; n += 1) {
    const name = backupName(at, n);
    if (!existsSync(join(dir, name)) && !existsSync(join(dir, `${name}.partial`))) return name;
  }
}

/**
 * Takes one backup while the site runs: a consistent copy of the database (SQLite's online backup, or pg_dump)
 * and the app secret, sealed with BACKUP_PASSPHRASE into one file in BACKUP_DIR. Returns the file's path.
 */
export async function takeBackup(config: BackupConfig, clock: Clock = systemClock): Promise<string> {
  const passphrase = config.backups.passphrase;
  if (!passphrase) throw new BackupError('BACKUP_PASSPHRASE is not set: backups are encrypted with it (at least 12 characters). See docs/backups.md.');
  const secret = readExistingAppSecret(config);
  if (!secret)
    throw new BackupError(`No app secret: APP_SECRET is not set and ${join(config.dataDir, 'app-secret')} does not exist (has the server ever started?).`);
  const sqliteFile = sqliteFileOf(config.databaseUrl);
  if (sqliteFile === ':memory:') throw new BackupError('DATABASE_URL is sqlite::memory:, which keeps nothing to back up.');
  if (sqliteFile !== null && !existsSync(sqliteFile)) throw new BackupError(`No database at ${sqliteFile} (DATABASE_URL): nothing to back up.`);

  const dir = config.backups.dir;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const takenAt = clock();
  const copy = join(dir, `.copy-${randomBytes(6).toString('hex')}.tmp`);
  try {
    if (sqliteFile !== null) await copySqliteDatabase(sqliteFile, copy);
    else await dumpPostgres(config.databaseUrl, copy);
    const target = join(dir, freeName(dir, takenAt));
    await writeBackupFile({
      target,
      payloadPath: copy,
      secret,
      passphrase,
      facts: {
        createdAt: takenAt.toISOString(),
        appVersion: APP_VERSION,
        database: sqliteFile !== null ? 'sqlite' : 'postgres',
        payload: sqliteFile !== null ? 'sqlite-file' : 'pg_dump-custom',
      },
    });
    return target;
  } finally {
    await rm(copy, { force: true });
    for (const suffix of ['-wal', '-shm', '-journal']) await rm(`${copy}${suffix}`, { force: true });
  }
}
