/**
 * `npx tsx server/bench/backup.bench.ts`: `npm run backup` of the million-user SQLite store (suite/seed.ts,
 * BENCH_USERS users, default 1,000,000) while `GET /sub/<token>` is loaded, against the server in a child process
 * (suite/processes.ts: the build in dist/ when there is one, else the sources through tsx). Reports how long the
 * backup took and /sub's rate while it ran against its rate just before and just after it. Targets (issue 56): the
 * backup in under 60 s, and /sub at ≥ 0.8 of its rate without it. A miss is reported; the command still succeeds.
 * `npm run bench` runs it too (benchBackupOn), on the suite's largest SQLite store (`--no-backup` skips it).
 *
 * BENCH_SECONDS (default 5) is the length of each /sub measurement; BENCH_CONNECTIONS (default 50) its load.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT_DIR } from '../src/lib/package-info.js';
import { run, settle, type Load, type Pace } from './suite/load.js';
import { BENCH_APP_SECRET, startPanelStub, startServer } from './suite/processes.js';
import { ADMIN_EMAIL, seedDatabase, seeded } from './suite/seed.js';

export const BACKUP_GOAL_SECONDS = 60;
export const SUB_DURING_BACKUP_GOAL = 0.8;
const CLIENT = { 'user-agent': 'v2rayNG/1.8.0' };

export interface BackupBenchResult {
  users: number;
  databaseMb: number;
  backupSeconds: number;
  backupMb: number;
  subBefore: number;
  subDuring: number;
  ratio: number;
}

/** Runs `npm run backup` (its script, as a process of its own); resolves with its seconds and the file it printed. */
function runBackup(env: Record<string, string>): Promise<{ seconds: number; file: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT_DIR, 'server', 'src', 'cli', 'backup.ts')], {
    cwd: ROOT_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0
        ? resolve({ seconds: (performance.now() - started) / 1000, file: out.trim().split('\n').at(-1)! })
        : reject(new Error(`backup failed: ${err}`)),
    ),
  );
}

/** The server's code: the build in dist/ when there is one, else the sources (through tsx). */
const serverDir = () => {
  const built = join(ROOT_DIR, 'dist', 'server', 'src');
  return existsSync(join(built, 'app.js')) ? built : join(ROOT_DIR, 'server', 'src');
};

/**
 * `npm run backup` of the SQLite store `databaseUrl` (seeded by suite/seed.ts, its panel running) while `/sub` is
 * loaded, on a server of its own: /sub's rate in 1 s windows while the backup runs, against the mean of a
 * measurement just before it and one just after it (a machine that slows during the run moves both sides).
 */
export async function benchBackupOn(databaseUrl: string, users: number, pace: Pace, dir: string): Promise<BackupBenchResult> {
  const server = await startServer(databaseUrl, ADMIN_EMAIL, serverDir());
  try {
    const tokens: string[] = [];
    for (let i = 5; tokens.length < 1000 && i < users; i += 1) if (seeded.hasAccount(i)) tokens.push(seeded.subToken(i));
    const sub: Load = { name: 'GET /sub (cached)', path: '/sub/x', headers: CLIENT, paths: tokens.map((token) => `/sub/${token}`) };
    await run(server.base, sub, { connections: pace.connections, seconds: 2 }); // warm: every link read once, in the cache
    await settle(server.base);
    const before = await run(server.base, sub, pace);
    const backupEnv = {
      DATABASE_URL: databaseUrl,
      APP_SECRET: BENCH_APP_SECRET,
      DATA_DIR: dir,
      BACKUP_DIR: join(dir, 'backups'),
      BACKUP_PASSPHRASE: 'bench passphrase 0123',
    };
    const backup = runBackup(backupEnv);
    let done = false;
    void backup.then(
      () => (done = true),
      () => (done = true),
    );
    const during: number[] = [];
    while (!done) during.push((await run(server.base, sub, { connections: pace.connections, seconds: 1 })).reqPerSec);
    const { seconds, file } = await backup;
    await settle(server.base);
    const after = await run(server.base, sub, pace);
    const subBefore = (before.reqPerSec + after.reqPerSec) / 2;
    const subDuring = during.reduce((sum, rate) => sum + rate, 0) / Math.max(1, during.length);
    const mb = (path: string) => statSync(path).size / 1024 ** 2;
    const result = {
      users,
      databaseMb: mb(databaseUrl.slice('sqlite:'.length)),
      backupSeconds: seconds,
      backupMb: mb(file),
      subBefore,
      subDuring,
      ratio: subDuring / subBefore,
    };
    rmSync(file, { force: true });
    return result;
  } finally {
    await server.stop();
  }
}

/** Seeds a SQLite store of `users` users (with the panel it names) and runs benchBackupOn on it. */
export async function benchBackup(users: number, pace: Pace): Promise<BackupBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'vpn-bench-backup-'));
  const panel = await startPanelStub();
  try {
    const seededDb = await seedDatabase('sqlite', users, { url: panel.url, appSecret: BENCH_APP_SECRET }, { dir, pgUrl: '' });
    return await benchBackupOn(seededDb.url, users, pace, dir);
  } finally {
    await panel.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printBackup(result: BackupBenchResult): void {
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  console.log(`backup of ${result.users.toLocaleString('en')} users (SQLite, ${result.databaseMb.toFixed(0)} MB) while /sub is loaded:`);
  console.log(
    `  backup: ${result.backupSeconds.toFixed(1)} s, ${result.backupMb.toFixed(0)} MB (target < ${BACKUP_GOAL_SECONDS} s: ${mark(result.backupSeconds < BACKUP_GOAL_SECONDS)})`,
  );
  console.log(
    `  /sub: ${result.subBefore.toFixed(0)} req/s before and after (mean), ${result.subDuring.toFixed(0)} req/s during = ${result.ratio.toFixed(2)} ` +
      `(target ≥ ${SUB_DURING_BACKUP_GOAL}: ${mark(result.ratio >= SUB_DURING_BACKUP_GOAL)})`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const users = Number(process.env.BENCH_USERS ?? 1_000_000);
  const pace = { connections: Number(process.env.BENCH_CONNECTIONS ?? 50), seconds: Number(process.env.BENCH_SECONDS ?? 5) };
  printBackup(await benchBackup(users, pace));
}
