import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** A backup's name: `backup-YYYYMMDD-HHMMSSZ.vpnbackup` (UTC, when it was taken), `-2`… when one second held two. */
const NAME = /^backup-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})Z(?:-(\d+))?\.vpnbackup$/;

export interface BackupListing {
  file: string;
  name: string;
  takenAt: Date;
  bytes: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The name of a backup taken at `at` (its UTC time to the second). */
export function backupName(at: Date, n = 1): string {
  const stamp =
    `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}-` +
    `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}Z`;
  return `backup-${stamp}${n > 1 ? `-${n}` : ''}.vpnbackup`;
}

/** The backups in `dir` (complete ones: a backup being written is `.partial`), oldest first; none when there is no folder. */
export async function listBackups(dir: string): Promise<BackupListing[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const found: BackupListing[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m) continue;
    const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = m.slice(1, 7).map(Number);
    const file = join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) continue;
    found.push({ file, name, takenAt: new Date(Date.UTC(y, mo - 1, d, h, mi, s)), bytes: info.size });
  }
  const order = (a: BackupListing, b: BackupListing) =>
    a.takenAt.getTime() - b.takenAt.getTime() || a.name.length - b.name.length || a.name.localeCompare(b.name);
  return found.sort(order);
}

/** Deletes all but the newest `keep` backups in `dir`; returns the names it deleted. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const backups = await listBackups(dir);
  const old = backups.slice(0, Math.max(0, backups.length - keep));
  for (const backup of old) await rm(backup.file, { force: true });
  return old.map((backup) => backup.name);
}
