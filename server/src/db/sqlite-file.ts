import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** The database and the files SQLite keeps beside it hold sessions, tokens and sealed secrets: owner only. */
export const SQLITE_FILE_MODE = 0o600;
const SQLITE_DIR_MODE = 0o700;
const COMPANION_SUFFIXES = ['-wal', '-shm', '-journal'];

/**
 * Makes sure the SQLite file exists with mode 0600 before better-sqlite3 opens it. SQLite gives its
 * -wal and -shm files the mode of the database file, so they follow; a file (or companion) left
 * readable by an older version is tightened. A directory this creates is 0700.
 */
export function prepareSqliteFile(filename: string): void {
  mkdirSync(dirname(filename), { recursive: true, mode: SQLITE_DIR_MODE });
  if (!existsSync(filename)) closeSync(openSync(filename, 'a', SQLITE_FILE_MODE));
  for (const path of [filename, ...COMPANION_SUFFIXES.map((suffix) => `${filename}${suffix}`)]) tighten(path);
}

function tighten(path: string): void {
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return; // not there: nothing to tighten
  }
  if ((mode & ~SQLITE_FILE_MODE) === 0) return;
  try {
    chmodSync(path, SQLITE_FILE_MODE);
  } catch (err) {
    // Owned by another user (a volume mounted in): leave it rather than refuse to start.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  }
}
