/**
 * `npm run bench:overview` (needs `npm run build:web` for the trivial route): the admin's overview
 * (`GET /api/admin/overview?days=90`) through the real app listening on 127.0.0.1 (`buildApp()`, logging
 * off), at 10,000 and 1,000,000 users (BENCH_USERS="10000,1000000" to change them), on SQLite and on
 * PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server; BENCH_SKIP_POSTGRES=1 or
 * BENCH_SKIP_SQLITE=1 to skip one). Users are spread over 90 days, each with a VPN account (3 in 5 active, 1 in 10 a trial), 3 in 10
 * with a payment (1 in 20 of them refunded), and 90 days of daily stats (active accounts, traffic of 5
 * servers); they are inserted by the database from a number series (a recursive CTE on SQLite,
 * generate_series on PostgreSQL), so the counters' triggers see them as any insert.
 *
 * Measured with autocannon (BENCH_CONNECTIONS, default 10): the overview's requests per second next to a
 * trivial route (`GET /robots.txt`) in the same run, BENCH_ROUNDS (5) rounds of BENCH_DURATION (2) seconds
 * each, alternately, as the median of the rounds' ratios;
 * the ratio at the largest size to the ratio at the smallest; and on SQLite at the largest size, the p99
 * of `GET /api/me` alone and while one client asks for the overview in a loop (SQLite has one connection:
 * a slow overview query would hold every request up).
 *
 * Targets (issue 27): ratio ≥ 0.3 at every size on both databases, the largest size within 20 % of the
 * smallest, and `/api/me`'s p99 up by less than 20 ms under the overview loop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, dialectOf, type Db } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createCodeCatcher, OPEN_RATE_LIMITS, openBenchDatabase } from './bench-kit.js';

const SIZES = (process.env.BENCH_USERS ?? '10000,1000000').split(',').map(Number);
/** Seconds per measurement: each route is measured ROUNDS times, alternately. */
const DURATION = Number(process.env.BENCH_DURATION ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DAYS = 90;
const SERVERS = 5;
const DAY_MS = 24 * 3600_000;
const ADMIN = 'admin@bench.example.com';
const CUSTOMER = 'customer@bench.example.com';
const TARGETS = { ratio: 0.3, largestToSmallest: 0.8, meP99RiseMs: 20 } as const;

export interface OverviewRun {
  database: string;
  users: number;
  seedSeconds: number;
  overview: { reqPerSec: number; p99: number };
  trivial: { reqPerSec: number; p99: number };
  /** The overview's requests per second over the trivial route's (the median of the rounds); req/s are means, p99 the worst round's. */
  ratio: number;
  totals: { users: number; activeAccounts: number; revenue: number; signups: number; trials: number };
  /** SQLite, largest size: `/api/me`'s p99 alone and while the overview is asked for in a loop. */
  meP99?: { alone: number; underOverviewLoop: number; overviewsDuring: number };
}

export interface OverviewBenchResult {
  runs: OverviewRun[];
  /** Per database: the ratio at the largest size over the ratio at the smallest. */
  largestToSmallest: Array<{ database: string; value: number }>;
}

/**
 * Inserts `users` users (and their accounts, subscriptions and payments) in one transaction, each table by
 * one INSERT … SELECT over a number series. Ids are UUID-shaped from the row number.
 */
export async function seed(db: Db, users: number, now: Date, serverIds: string[]): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  const start = now.getTime() - DAYS * DAY_MS;
  const span = DAYS * DAY_MS;
  const series = pg ? 'generate_series(0, ? - 1) AS s(n)' : '(WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ? - 1) SELECT n FROM s) s';
  const hex = (n: string) => (pg ? `lpad(to_hex(${n}), 12, '0')` : `printf('%012x', ${n})`);
  const id = (prefix: string, n = 's.n') => `'${prefix}-0000-4000-8000-' || ${hex(n)}`;
  const msAt = `(${start} + s.n * ${span} / ${users})`;
  const time = pg ? `to_timestamp(${msAt}::bigint / 1000.0)` : msAt;
  const server = pg ? `(ARRAY[${serverIds.map((s) => `'${s}'`).join(', ')}])[s.n % ${SERVERS} + 1]` : `CASE s.n % ${SERVERS} ${serverIds.map((s, i) => `WHEN ${i} THEN '${s}'`).join(' ')} END`;
  const bool = (value: boolean) => (pg ? String(value) : value ? '1' : '0');
  await db.transaction(async (trx) => {
    await trx('masterservers').insert(serverIds.map((serverId, i) => ({
      id: serverId, name: `Server ${i + 1}`, url: `https://panel${i + 1}.bench.example.com`, username: 'admin', password_encrypted: 'not-used', service_id: '1',
      status: 'disabled', created_at: now, updated_at: now,
    })));
    await trx.raw(`INSERT INTO user_profiles (id, email, role, trial_used, created_at, updated_at)
      SELECT ${id('00000001')}, 'u' || s.n || '@bench.example.com', 'user', ${bool(false)}, ${time}, ${time} FROM ${series}`, [users]);
    await trx.raw(`INSERT INTO vpn_accounts (id, user_id, master_server_id, username, status, sub_token, metadata, trial_user_id, created_at, updated_at)
      SELECT ${id('00000002')}, ${id('00000001')}, ${server}, 'u_' || s.n, CASE WHEN s.n % 5 < 3 THEN 'active' ELSE 'expired' END, ${id('00000003')}, '{}',
        CASE WHEN s.n % 10 = 0 THEN ${id('00000001')} END, ${time}, ${time} FROM ${series}`, [users]);
    const payers = `${series} WHERE s.n % 10 < 3`;
    await trx.raw(`INSERT INTO subscriptions (id, user_id, status, metadata, created_at, updated_at)
      SELECT ${id('00000004')}, ${id('00000001')}, 'active', '{}', ${time}, ${time} FROM ${payers}`, [users]);
    await trx.raw(`INSERT INTO transactions (id, subscription_id, user_id, status, amount, amount_refunded, currency, metadata, created_at, updated_at)
      SELECT ${id('00000005')}, ${id('00000004')}, ${id('00000001')}, CASE WHEN s.n % 200 = 0 THEN 'refunded' ELSE 'succeeded' END, 999,
        CASE WHEN s.n % 200 = 0 THEN 999 ELSE 0 END, 'usd', '{}', ${time}, ${time} FROM ${payers}`, [users]);
    const days = Array.from({ length: DAYS }, (_, back) => new Date(now.getTime() - (back + 1) * DAY_MS).toISOString().slice(0, 10));
    const stats = days.flatMap((day, back) => [
      { metric: 'active_accounts', day, server_id: '', value: Math.round((users * 0.6 * (DAYS - back)) / DAYS), updated_at: now },
      ...serverIds.map((serverId) => ({ metric: 'traffic_bytes', day, server_id: serverId, value: 50 * 1024 ** 3, updated_at: now })),
    ]);
    for (let i = 0; i < stats.length; i += 100) await trx('daily_stats').insert(stats.slice(i, i + 100));
  });
  if (pg) {
    for (const table of ['user_profiles', 'vpn_accounts', 'subscriptions', 'transactions', 'daily_stats', 'overview_counts']) await db.raw('VACUUM ANALYZE ??', [table]);
  } else {
    await db.raw('ANALYZE');
  }
}

interface Measured {
  reqPerSec: number;
  p99: number;
}

async function load(url: string, headers: Record<string, string>, duration = DURATION, connections = CONNECTIONS): Promise<Measured> {
  const result = await autocannon({ url, headers, connections, duration });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers out of ${result.requests.total}`);
  return { reqPerSec: result.requests.average, p99: result.latency.p99 };
}

/** `/api/me`'s p99 while one client asks for the overview again and again. */
async function meUnderOverviewLoop(base: string, me: Record<string, string>, admin: Record<string, string>) {
  let running = true;
  let overviews = 0;
  const loop = (async () => {
    while (running) {
      const res = await fetch(`${base}/api/admin/overview?days=90`, { headers: admin });
      if (!res.ok) throw new Error(`overview: HTTP ${res.status}`);
      await res.arrayBuffer();
      overviews += 1;
    }
  })();
  try {
    const { p99 } = await load(`${base}/api/me`, me, DURATION * ROUNDS);
    return { p99, overviews };
  } finally {
    running = false;
    await loop;
  }
}

async function runOne(db: Db, users: number, measureMe: boolean): Promise<OverviewRun> {
  await migrateToLatest(db);
  const codes = createCodeCatcher();
  const app = await buildApp({
    config: loadConfig({ NODE_ENV: 'production', APP_SECRET: 'bench-secret-bench-secret-bench-secret-00', SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn', ADMIN_EMAILS: ADMIN }),
    db, mailer: codes.mailer, logger: false, rateLimits: OPEN_RATE_LIMITS,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const started = performance.now();
    await seed(db, users, new Date(), Array.from({ length: SERVERS }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`));
    const seedSeconds = (performance.now() - started) / 1000;
    await app.services.overview.takeSnapshot(); // as the hourly job has
    const admin = await codes.signIn(base, ADMIN);
    const customer = await codes.signIn(base, CUSTOMER);
    const overviewUrl = `${base}/api/admin/overview?days=90`;
    const first = await fetch(overviewUrl, { headers: admin });
    if (!first.ok) throw new Error(`overview: HTTP ${first.status} ${await first.text()}`);
    const { totals } = (await first.json()) as { totals: OverviewRun['totals'] };
    // A cold process answers its first seconds slowly (JIT, buffers): load both routes briefly before measuring.
    await load(`${base}/robots.txt`, {}, 2);
    await load(overviewUrl, admin, 2);
    // Rounds that alternate the two routes, so a machine busy with something else slows both alike.
    const rounds: Array<{ trivial: Measured; overview: Measured }> = [];
    for (let round = 0; round < ROUNDS; round += 1) rounds.push({ trivial: await load(`${base}/robots.txt`, {}), overview: await load(overviewUrl, admin) });
    const mean = (pick: (round: (typeof rounds)[number]) => Measured) => ({
      reqPerSec: rounds.reduce((total, round) => total + pick(round).reqPerSec, 0) / ROUNDS,
      p99: Math.max(...rounds.map((round) => pick(round).p99)),
    });
    const ratios = rounds.map((round) => round.overview.reqPerSec / round.trivial.reqPerSec).sort((a, b) => a - b);
    let meP99: OverviewRun['meP99'];
    if (measureMe) {
      const alone = await load(`${base}/api/me`, customer, DURATION * ROUNDS);
      const loaded = await meUnderOverviewLoop(base, customer, admin);
      meP99 = { alone: alone.p99, underOverviewLoop: loaded.p99, overviewsDuring: loaded.overviews };
    }
    return { database: dialectOf(db), users, seedSeconds, overview: mean((round) => round.overview), trivial: mean((round) => round.trivial), ratio: ratios[Math.floor(ROUNDS / 2)]!, totals, meP99 };
  } finally {
    await app.close();
  }
}

export async function benchOverview(options: { sizes?: number[]; postgres?: boolean; sqlite?: boolean; onRun?: (run: OverviewRun) => void } = {}): Promise<OverviewBenchResult> {
  const sizes = options.sizes ?? SIZES;
  const postgres = options.postgres ?? process.env.BENCH_SKIP_POSTGRES !== '1';
  const sqliteToo = options.sqlite ?? process.env.BENCH_SKIP_SQLITE !== '1';
  const largest = Math.max(...sizes);
  const runs: OverviewRun[] = [];
  for (const users of sqliteToo ? sizes : []) {
    const dir = mkdtempSync(join(tmpdir(), 'vpn-overview-bench-'));
    const sqlite = createDb(`sqlite:${join(dir, 'app.db')}`);
    try {
      runs.push(await runOne(sqlite, users, users === largest));
      options.onRun?.(runs.at(-1)!);
    } finally {
      await sqlite.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (postgres) {
    for (const users of sizes) {
      const pg = await openBenchDatabase();
      try {
        runs.push(await runOne(pg.db, users, false));
        options.onRun?.(runs.at(-1)!);
      } finally {
        await pg.drop();
      }
    }
  }
  const largestToSmallest = [...new Set(runs.map((run) => run.database))].map((database) => {
    const of = runs.filter((run) => run.database === database).sort((a, b) => a.users - b.users);
    return { database, value: of.at(-1)!.ratio / of[0]!.ratio };
  });
  return { runs, largestToSmallest };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`GET /api/admin/overview?days=90 through buildApp() on 127.0.0.1, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s alternating with GET /robots.txt; ratio: the median round's`);
  let ok = true;
  const print = (run: OverviewRun) => {
    const good = run.ratio >= TARGETS.ratio;
    ok &&= good;
    console.log(`  ${run.database.padEnd(8)} ${run.users.toLocaleString('en').padStart(9)} users (seeded in ${run.seedSeconds.toFixed(1)} s): overview ${run.overview.reqPerSec.toFixed(0).padStart(6)} req/s p99 ${String(run.overview.p99).padStart(3)} ms; /robots.txt ${run.trivial.reqPerSec.toFixed(0).padStart(6)} req/s; ratio ${run.ratio.toFixed(2)} ${good ? 'ok' : `BELOW ${TARGETS.ratio}`}`);
    console.log(`  ${''.padEnd(18)} totals: ${run.totals.users.toLocaleString('en')} users, ${run.totals.activeAccounts.toLocaleString('en')} active accounts, ${run.totals.signups.toLocaleString('en')} signups, ${run.totals.trials.toLocaleString('en')} trials, revenue ${(run.totals.revenue / 100).toFixed(2)} in 90 days`);
    if (run.meP99) {
      const rise = run.meP99.underOverviewLoop - run.meP99.alone;
      ok &&= rise < TARGETS.meP99RiseMs;
      console.log(`  ${''.padEnd(18)} /api/me p99 ${run.meP99.alone} ms alone, ${run.meP99.underOverviewLoop} ms while the overview was asked for in a loop (${run.meP99.overviewsDuring} times): +${rise} ms ${rise < TARGETS.meP99RiseMs ? 'ok' : `OVER ${TARGETS.meP99RiseMs} ms`}`);
    }
  };
  const { largestToSmallest } = await benchOverview({ onRun: print });
  for (const { database, value } of largestToSmallest) {
    ok &&= value >= TARGETS.largestToSmallest;
    console.log(`  ${database}: ratio at ${Math.max(...SIZES).toLocaleString('en')} users / at ${Math.min(...SIZES).toLocaleString('en')} = ${value.toFixed(2)} ${value >= TARGETS.largestToSmallest ? 'ok' : `BELOW ${TARGETS.largestToSmallest}`}`);
  }
  if (!ok) process.exitCode = 1;
}
