import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createDb, sqliteFileOf } from '../../db/knex.js';
import { SQLITE_FILE_MODE } from '../../db/sqlite-file.js';
import { appSecretFile } from '../../lib/app-secret.js';
import { BackupError, openBackupFile, readBackupHeader, type BackupHeader } from './backup-file.js';
import { restorePostgres } from './database-copy.js';
import type { BackupConfig } from './take-backup.js';

export interface Restored {
  header: BackupHeader;
  /** Where the database went: the SQLite file, or "PostgreSQL". */
  database: string;
  /** The app secret file written into DATA_DIR, or null when APP_SECRET (the same secret) is set. */
  secretFile: string | null;
}

const hasBytes = (path: string) => existsSync(path) && statSync(path).size > 0;

/** Why the target already holds a store (a refusal), or null when it holds none. */
async function existingStore(config: BackupConfig, sqliteFile: string | null): Promise<string | null> {
  if (sqliteFile !== null) {
    if (hasBytes(sqliteFile) || hasBytes(`${sqliteFile}-wal`)) return `a database already exists at ${sqliteFile}`;
  } else {
    const db = createDb(config.databaseUrl, { preparedStatements: false });
    try {
      const tables = await db('information_schema.tables').whereNotIn('table_schema', ['pg_catalog', 'information_schema']).count({ n: '*' }).first();
      if (Number(tables?.n ?? 0) > 0) return 'the PostgreSQL database DATABASE_URL names already has tables';
    } catch (err) {
      throw new BackupError(`Cannot reach the PostgreSQL database DATABASE_URL names: ${(err as Error).message}`);
    } finally {
      await db.destroy();
    }
  }
  if (existsSync(appSecretFile(config))) return `the data folder already has an app secret (${appSecretFile(config)})`;
  return null;
}

/**
 * Restores a backup into DATA_DIR / DATABASE_URL, only when they hold no store yet (no database or an empty one,
 * no app secret file); refuses otherwise, or with a wrong passphrase, before anything is written.
 */
export async function restoreBackup(config: BackupConfig, file: string): Promise<Restored> {
  const passphrase = config.backups.passphrase;
  if (!passphrase) throw new BackupError('BACKUP_PASSPHRASE is not set: give the passphrase the backup was taken with.');
  const { header } = await readBackupHeader(file);
  const sqliteFile = sqliteFileOf(config.databaseUrl);
  if (sqliteFile === ':memory:') throw new BackupError('DATABASE_URL is sqlite::memory:, which cannot be restored into.');
  const kind = sqliteFile !== null ? 'sqlite' : 'postgres';
  if (header.database !== kind) {
    throw new BackupError(
      `This backup is of a ${header.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'} store, but DATABASE_URL names ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}.`,
    );
  }
  const existing = await existingStore(config, sqliteFile);
  if (existing) throw new BackupError(`Refusing to restore: ${existing}. Restore only into an empty DATA_DIR and database (see docs/backups.md).`);

  const workDir = sqliteFile !== null ? dirname(sqliteFile) : tmpdir();
  mkdirSync(workDir, { recursive: true, mode: 0o700 });
  const payload = join(workDir, `.restoring-${randomBytes(6).toString('hex')}`);
  try {
    const { secret } = await openBackupFile(file, passphrase, payload);
    if (config.appSecret && config.appSecret !== secret) {
      throw new BackupError(
        'APP_SECRET is set to another secret than the backup was taken with: unset it (the backup brings its own) or set it to the old one.',
      );
    }
    if (sqliteFile !== null) {
      for (const suffix of ['', '-wal', '-shm', '-journal']) await rm(`${sqliteFile}${suffix}`, { force: true });
      await rename(payload, sqliteFile);
      chmodSync(sqliteFile, SQLITE_FILE_MODE);
    } else {
      await restorePostgres(config.databaseUrl, payload);
    }
    let secretFile: string | null = null;
    if (!config.appSecret) {
      secretFile = appSecretFile(config);
      mkdirSync(dirname(secretFile), { recursive: true, mode: 0o700 });
      writeFileSync(secretFile, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    }
    return { header, database: sqliteFile ?? 'PostgreSQL', secretFile };
  } finally {
    await rm(payload, { force: true });
  }
}
