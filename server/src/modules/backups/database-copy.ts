import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { BackupError } from './backup-file.js';

/**
 * SQLite's online backup (better-sqlite3's `backup()`) from a connection of its own, in a worker thread so the
 * server's requests go on while it copies. All pages are copied in one step: one read of the database as it was at
 * that moment (WAL: writers are not held up), never restarted by a write the site makes meanwhile. The thread runs
 * at the lowest CPU priority (Linux: the nice value of this thread only): on a busy machine the requests come first.
 */
const SQLITE_COPY_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
try { require('node:os').setPriority(19); } catch {}
const Database = require(workerData.driver);
const source = new Database(workerData.source, { fileMustExist: true });
source.pragma('busy_timeout = 5000');
source.backup(workerData.target, { progress: () => 0x7fffffff }).then(
  () => { source.close(); parentPort.postMessage({ ok: true }); },
  (err) => { source.close(); parentPort.postMessage({ ok: false, message: String((err && err.message) || err) }); },
);
`;

export function copySqliteDatabase(source: string, target: string): Promise<void> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve, reject) => {
    const worker = new Worker(SQLITE_COPY_WORKER, { eval: true, workerData: { driver, source, target } });
    worker.once('message', (answer: { ok: boolean; message?: string }) =>
      answer.ok ? resolve() : reject(new BackupError(`The SQLite copy failed: ${answer.message}`)),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new BackupError(`The SQLite copy stopped (exit ${code}).`));
    });
  });
}

/** libpq's connection settings from a DATABASE_URL, the password moved to the environment (not shown in `ps`). */
function libpqConnection(databaseUrl: string): { dbname: string; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: password ? { PGPASSWORD: password } : {} };
}

const MISSING_CLIENT = (tool: string) =>
  `${tool} was not found. Backups of a PostgreSQL store use the PostgreSQL client tools: install them (Debian/Ubuntu: ` +
  `apt-get install postgresql-client; the same major version as the server or newer), or put ${tool} on PATH. See docs/backups.md.`;

/** Runs a PostgreSQL client tool; resolves when it exits 0, else a BackupError with what it printed. */
function runClientTool(tool: string, args: string[], databaseUrl: string): Promise<void> {
  const { dbname, env } = libpqConnection(databaseUrl);
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${dbname}`], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('error', (err: NodeJS.ErrnoException) => reject(new BackupError(err.code === 'ENOENT' ? MISSING_CLIENT(tool) : err.message)));
    child.once('close', (code) => (code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit ${code}): ${errors.trim()}`))));
  });
}

/** `pg_dump --format=custom` of the whole database DATABASE_URL names: consistent (one snapshot), and the site keeps running. */
export function dumpPostgres(databaseUrl: string, target: string): Promise<void> {
  return runClientTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${target}`], databaseUrl);
}

/** Reads a `pg_dump` archive into the (empty) database DATABASE_URL names, all or nothing. */
export function restorePostgres(databaseUrl: string, archive: string): Promise<void> {
  return runClientTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', archive], databaseUrl);
}
