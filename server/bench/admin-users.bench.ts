/**
 * `npx tsx server/bench/admin-users.bench.ts [--million] [--sqlite|--postgres]` (in `npm run bench`): the
 * admin's users list through the whole app (`buildApp()`, logging off, in a process of its own so its memory
 * is its own) on SQLite and on PostgreSQL (a schema of its own, see `openBenchDatabase`) at 10,000 and 100,000
 * users (10,000 and 1,000,000 with `--million` or BENCH_MILLION=1): pages, searches and filters, each with
 * autocannon (BENCH_CONNECTIONS, default 100) right after the trivial route (`GET /robots.txt`, which needs
 * the built site in dist/site), BENCH_DURATION s each (default 2), in BENCH_ROUNDS rounds (default 3) whose
 * median ratio counts: each ratio compares two figures taken under the same load of a shared machine.
 *
 * Target (issue 27): at the largest size every route within 20 % of its 10,000-user ratio to the trivial
 * route and at least 0.3; the server under 300 MB resident (its peak, VmHWM) through the run. Reported, not
 * fatal. Every route answers a full page at both sizes, so the sizes compare the same work.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, dialectOf, type Db, type Dialect } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createCodeCatcher, OPEN_RATE_LIMITS, openBenchDatabase } from './bench-kit.js';

const BASE_SECONDS = Date.UTC(2024, 0, 1) / 1000;
const CHUNK = 100_000;
const TARGET = { flat: 0.8, ratio: 0.3, rssMb: 300 };

export interface AdminUsersRouteResult {
  database: Dialect;
  users: number;
  route: string;
  reqPerSec: number;
  p99: number;
  /** Requests per second over the trivial route's in the same run. */
  ratio: number;
  /** This size's ratio over the smallest size's (1 = flat); undefined at the smallest size. */
  vsSmallest?: number;
  /** The server's CPU milliseconds per request. */
  cpuMs: number;
  /** The trivial route's CPU per request over this route's (the ratio the machine's other load moves least). */
  cpuRatio: number;
  cpuVsSmallest?: number;
}

export interface AdminUsersBenchResult {
  routes: AdminUsersRouteResult[];
  /** The most the server process held resident (its VmHWM), per database. */
  peakRssMb: Record<string, number>;
  /** Every route flat and at least 0.3 of the trivial route at the largest size, and the memory under its cap. */
  ok: boolean;
}

/**
 * Adds users `from`…`to - 1` in SQL (a million in seconds): random addresses (a two-letter prefix matches
 * about 1 in 256), one second apart; one in a hundred is an admin, every fifth has an active VPN account,
 * one in a hundred a past-due subscription. The accounts and subscriptions go in through the triggers
 * that keep the users' flags.
 */
export async function seedUsers(db: Db, from: number, to: number): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  const seq = pg ? `(extract(epoch from created_at)::bigint - ${BASE_SECONDS})` : `((created_at - ${BASE_SECONDS * 1000}) / 1000)`;
  const at = (seconds: string) => (pg ? `to_timestamp(${seconds})` : `(${seconds}) * 1000`);
  const randomId = pg ? 'gen_random_uuid()::text' : 'lower(hex(randomblob(16)))';
  for (let start = from; start < to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK);
    const numbers = pg
      ? `generate_series(${start}, ${end - 1}) AS n(i)`
      : `(WITH RECURSIVE s(i) AS (SELECT ${start} UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ${end}) SELECT i FROM s) AS n`;
    const inChunk = `created_at >= ${at(String(BASE_SECONDS + start))} AND created_at < ${at(String(BASE_SECONDS + end))}`;
    await db.transaction(async (trx) => {
      await trx.raw(`INSERT INTO user_profiles (id, email, role, trial_used, created_at, updated_at)
        SELECT ${randomId}, ${pg ? 'substr(md5(random()::text), 1, 10)' : 'lower(hex(randomblob(5)))'} || '.' || i || '@bench.example.com',
          CASE WHEN i % 100 = 50 THEN 'admin' ELSE 'user' END, ${pg ? 'false' : '0'}, ${at(`${BASE_SECONDS} + i`)}, ${at(String(BASE_SECONDS))}
        FROM ${numbers}`);
      await trx.raw(`INSERT INTO vpn_accounts (id, user_id, username, status, sub_token, metadata, created_at, updated_at)
        SELECT ${randomId}, id, 'u_' || replace(id, '-', ''), 'active', ${randomId}, '{}', created_at, created_at
        FROM user_profiles WHERE ${inChunk} AND ${seq} % 5 = 0`);
      await trx.raw(`INSERT INTO subscriptions (id, user_id, status, metadata, created_at, updated_at)
        SELECT ${randomId}, id, 'past_due', '{}', created_at, created_at
        FROM user_profiles WHERE ${inChunk} AND ${seq} % 100 = 0`);
    });
  }
  // As autovacuum would soon after such a load; SQLite gets none (an install never runs ANALYZE), so its plans must not need statistics.
  if (pg) await db.raw('ANALYZE user_profiles, vpn_accounts, subscriptions');
}

/** CPU seconds a process has used (Linux: user + system ticks of /proc/<pid>/stat; NaN elsewhere). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Requests per second, and the server process's CPU milliseconds per request: on a machine others load too,
 * the second moves much less than the first (on PostgreSQL it leaves out the database's own processes).
 */
async function measure(url: string, headers: Record<string, string>, duration: number, connections: number, pid: number) {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ url, connections, duration, headers });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return { reqPerSec: result.requests.average, p99: result.latency.p99, cpuMs: ((cpuSeconds(pid) - cpuBefore) * 1000) / result.requests.total };
}

/** The routes measured at one size, the trivial one first; the cursors are users found in the seeded data. */
async function routesAt(db: Db, size: number): Promise<Array<[name: string, path: string]>> {
  const newestFirst = [{ column: 'created_at', order: 'desc' as const }, { column: 'id', order: 'desc' as const }];
  const middle = await db('user_profiles').orderBy(newestFirst).offset(Math.floor(size / 2)).first('id');
  const middlePastDue = await db('user_profiles').where('past_due_subscriptions', '>', 0).orderBy(newestFirst).offset(Math.floor(size / 200)).first('id');
  const known = await db('user_profiles').where('email', 'like', 'ab%').orderBy('email').first('email');
  // Each filter's page is full at 10,000 users too (admins are 1 in 100, all of them with an active account).
  return [
    ['trivial: GET /robots.txt', '/robots.txt'],
    ['first page (50)', '/api/admin/users'],
    ['a page halfway down', `/api/admin/users?after=${middle.id}`],
    ['prefix search "a"', '/api/admin/users?q=a'],
    ['exact address', `/api/admin/users?q=${encodeURIComponent(known.email)}`],
    ['admins', '/api/admin/users?role=admin'],
    ['has an active account', '/api/admin/users?active=true'],
    ['payment past due', '/api/admin/users?pastDue=true'],
    ['past due, halfway down', `/api/admin/users?pastDue=true&after=${middlePastDue.id}`],
    ['active, prefix "a"', '/api/admin/users?active=true&q=a'],
    ['past due+active, users', '/api/admin/users?pastDue=true&active=true&role=user'],
    ['users, prefix "a"', '/api/admin/users?role=user&q=a'],
    ['active admins', '/api/admin/users?active=true&role=admin'],
  ];
}

/** A fresh database for the bench, and what its server process needs to open the same one. */
async function openDatabase(kind: Dialect): Promise<{ db: Db; drop: () => Promise<void>; url: string; schema: string }> {
  if (kind === 'postgres') {
    const { db, drop } = await openBenchDatabase();
    // The URL openBenchDatabase opened (knex keeps it parsed); the schema it made.
    const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    return { db, drop, url, schema: (db.client.config as { searchPath: string[] }).searchPath[0]! };
  }
  const dir = mkdtempSync(join(tmpdir(), 'vpn-admin-users-bench-'));
  const url = `sqlite:${join(dir, 'app.db')}`;
  const db = createDb(url);
  // The seeding connection's own page cache (the server keeps SQLite's default): a million rows load in seconds.
  await db.raw('PRAGMA cache_size = -262144');
  return { db, drop: async () => { await db.destroy(); rmSync(dir, { recursive: true, force: true }); }, url, schema: '' };
}

const SELF = fileURLToPath(import.meta.url);

/** The app on `url` (migrated) in this process, for `benchOn`'s child: it signs the admin in and tells its parent where to send load. */
async function serveForBench(url: string, schema: string): Promise<void> {
  const db = createDb(url, schema ? { searchPath: schema } : {});
  const codes = createCodeCatcher();
  const app = await buildApp({
    config: loadConfig({ NODE_ENV: 'production', APP_SECRET: 'bench-secret-bench-secret-bench-secret-00', SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn', ADMIN_EMAILS: 'admin@bench.example.com' }),
    db, mailer: codes.mailer, logger: false, rateLimits: OPEN_RATE_LIMITS,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  process.send!({ base, bearer: await codes.signIn(base, 'admin@bench.example.com') });
  process.on('disconnect', () => void app.close().then(() => db.destroy()).then(() => process.exit(0)));
}

/** A process's peak resident memory in MB (Linux; NaN elsewhere). */
function peakRssMb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

async function benchOn(kind: Dialect, sizes: number[], options: { duration: number; rounds: number; connections: number; log: (line: string) => void }) {
  const { log } = options;
  const { db, drop, url, schema } = await openDatabase(kind);
  await migrateToLatest(db);
  const server = fork(SELF, ['--serve', url, schema], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const results: AdminUsersRouteResult[] = [];
  let peak = Number.NaN;
  try {
    const { base, bearer } = await new Promise<{ base: string; bearer: Record<string, string> }>((resolve, reject) => {
      server.once('message', (message) => resolve(message as { base: string; bearer: Record<string, string> }));
      server.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
    });
    let seeded = 0;
    log(`\n${kind}: admin users list through buildApp() in its own process, ${options.connections} connections; ${options.rounds} rounds of the trivial route then the route, ${options.duration} s each: the median round's ratio`);
    for (const size of sizes) {
      const started = Date.now();
      await seedUsers(db, seeded, size);
      seeded = size;
      const routes = await routesAt(db, size);
      log(`\n${kind}, ${size.toLocaleString('en')} users (seeded in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
      // A cold process (or a freshly loaded table) answers its first seconds slowly: warm every route up first.
      for (const [, path] of routes) await measure(`${base}${path}`, path.startsWith('/api') ? bearer : {}, 2, options.connections, server.pid!);
      const [trivialName, trivialPath] = routes[0]!;
      const listRoutes = routes.slice(1);
      for (const [route, path] of listRoutes) {
        // Rounds of the trivial route then this one; the median round's figures (the machine's load moves between rounds).
        type Measured = Awaited<ReturnType<typeof measure>>;
        const rounds: Array<{ trivial: Measured; measured: Measured; ratio: number }> = [];
        for (let round = 0; round < options.rounds; round += 1) {
          const trivial = await measure(`${base}${trivialPath}`, {}, options.duration, options.connections, server.pid!);
          const measured = await measure(`${base}${path}`, bearer, options.duration, options.connections, server.pid!);
          rounds.push({ trivial, measured, ratio: measured.reqPerSec / trivial.reqPerSec });
        }
        const { trivial, measured, ratio } = rounds.sort((x, y) => x.ratio - y.ratio)[Math.floor(rounds.length / 2)]!;
        const cpuRatios = rounds.map((r) => r.trivial.cpuMs / r.measured.cpuMs).sort((x, y) => x - y);
        const cpuRatio = cpuRatios[Math.floor(cpuRatios.length / 2)]!;
        const smallest = results.find((r) => r.users === sizes[0] && r.route === route);
        const row: AdminUsersRouteResult = {
          database: kind, users: size, route, reqPerSec: measured.reqPerSec, p99: measured.p99, ratio, cpuMs: measured.cpuMs, cpuRatio,
          vsSmallest: smallest && size !== sizes[0] ? ratio / smallest.ratio : undefined,
          cpuVsSmallest: smallest && size !== sizes[0] ? cpuRatio / smallest.cpuRatio : undefined,
        };
        results.push(row);
        const verdict = row.vsSmallest === undefined ? '' : `  vs ${sizes[0]!.toLocaleString('en')}: ${row.vsSmallest.toFixed(2)} (CPU ${row.cpuVsSmallest!.toFixed(2)})`;
        const ok = ratio >= TARGET.ratio && (row.vsSmallest === undefined || row.vsSmallest >= TARGET.flat);
        log(`  ${route.padEnd(24)} ${row.reqPerSec.toFixed(0).padStart(6)} req/s  p99 ${String(row.p99).padStart(4)} ms  (${trivialName.split(':')[0]} ${trivial.reqPerSec.toFixed(0)})  ratio ${ratio.toFixed(2)}  CPU ${measured.cpuMs.toFixed(2)} ms/req, ratio ${cpuRatio.toFixed(2)}${verdict}${ok ? ' ok' : ' MISSES the target'}`);
      }
      peak = peakRssMb(server.pid!);
      log(`  server peak RSS so far ${peak.toFixed(0)} MB`);
    }
  } finally {
    server.disconnect();
    await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(null)));
    await drop();
  }
  return { results, peakRssMb: peak };
}

export async function benchAdminUsers(options: { million?: boolean; databases?: Dialect[]; duration?: number; rounds?: number; connections?: number; log?: (line: string) => void } = {}): Promise<AdminUsersBenchResult> {
  const sizes = options.million ? [10_000, 1_000_000] : [10_000, 100_000];
  const settings = { duration: options.duration ?? 2, rounds: options.rounds ?? 3, connections: options.connections ?? 100, log: options.log ?? ((line: string) => console.log(line)) };
  const routes: AdminUsersRouteResult[] = [];
  const peakRssMb: Record<string, number> = {};
  for (const kind of options.databases ?? ['sqlite', 'postgres']) {
    const run = await benchOn(kind, sizes, settings);
    routes.push(...run.results);
    peakRssMb[kind] = run.peakRssMb;
  }
  const largest = routes.filter((r) => r.users === sizes.at(-1));
  const ok = largest.every((r) => (r.vsSmallest ?? 1) >= TARGET.flat && r.ratio >= TARGET.ratio) && Object.values(peakRssMb).every((mb) => mb < TARGET.rssMb);
  return { routes, peakRssMb, ok };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === '--serve') {
  await serveForBench(process.argv[3]!, process.argv[4] ?? '');
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const only: Dialect[] | undefined = process.argv.includes('--sqlite') ? ['sqlite'] : process.argv.includes('--postgres') ? ['postgres'] : undefined;
  const result = await benchAdminUsers({
    million: process.argv.includes('--million') || process.env.BENCH_MILLION === '1',
    databases: only,
    duration: Number(process.env.BENCH_DURATION ?? 2),
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 100),
  });
  const memory = Object.entries(result.peakRssMb).map(([kind, mb]) => `${kind} ${mb.toFixed(0)} MB`).join(', ');
  console.log(`\nserver peak RSS: ${memory} (cap ${TARGET.rssMb} MB)`);
  console.log(result.ok ? 'every route within target' : 'some route MISSES the target (see above)');
}
