/**
 * `npm run bench` (after `npm run build:web`): issue 27's targets, each as requests per second relative to
 * `GET /robots.txt` of the same server process, measured between two baseline runs (ratio = target over
 * the mean of the baselines either side), median of 3 rounds, at 10k and 1M users on SQLite and PostgreSQL.
 * The server runs in a child process (suite/serve.ts, production mode, rate limits open, no Redis); this
 * process seeds the databases and loads it with wrk when installed (else autocannon). Method and flags: docs/performance.md.
 *
 *   --quick               10k users, 1 round, short loads, a sample of the pages (a smoke test)
 *   --db=sqlite|postgres  one database only (PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else local)
 *   --sizes=10k,1M        user counts
 *   --write-docs          rewrite the table in README.md and docs/performance.md between their bench:table markers
 *   --no-renewals         skip server/bench/renewals.bench.ts (PostgreSQL)
 *   --no-local-payments   skip server/bench/local-payments.bench.ts (YooKassa, Crypto Pay and the wallet; PostgreSQL)
 *   --no-telegram         skip server/bench/telegram.bench.ts (bot updates by webhook, a broadcast to 10,000; PostgreSQL)
 *   --no-sub-paths        skip server/bench/sub-paths.bench.ts (`/sub` on a spare domain, apps counted without an
 *                         id, first fetches through a panel behind TLS; SQLite, in this process)
 *   --no-metrics          skip server/bench/metrics.bench.ts (the time of a `GET /metrics` scrape, on each seeded store)
 *   --no-backup           skip server/bench/backup.bench.ts (`npm run backup` of the largest SQLite store while `/sub` is loaded)
 *   --no-redaction        skip server/bench/redaction.bench.ts (`/sub` with the log redaction against without, on the largest SQLite store)
 *   --from-source         run the server from its TypeScript sources (through tsx) instead of building it first
 *   --only=a,b            only the targets whose name or path contains one of these words; `cold`, `pages`,
 *                         `pressure`, `renewals`, `local`, `metrics`, `backup` and `redaction` name the measurements that are not routes (a look at
 *                         a few targets while working on them; the docs table is then not written)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '../src/db/knex.js';
import { SITE_DIST_DIR } from '../src/lib/package-info.js';
import { randomToken } from '../src/lib/crypto.js';
import { benchRenewals, type RenewalsBenchResult } from './renewals.bench.js';
import { benchSubPaths, printSubPaths, type SubPathsBenchLine } from './sub-paths.bench.js';
import { benchMetricsScrape, printMetricsScrape, type MetricsBenchResult } from './metrics.bench.js';
import { BACKUP_GOAL_SECONDS, benchBackupOn, printBackup, SUB_DURING_BACKUP_GOAL, type BackupBenchResult } from './backup.bench.js';
import { benchRedactionOn, printRedaction, REDACTION_GOAL, type RedactionBenchResult } from './redaction.bench.js';
import { benchLocalPayments, LOCAL_PAYMENTS_GOAL_PER_SEC, printLocalPayments, type LocalPaymentsBenchResult } from './local-payments.bench.js';
import { benchTelegram, printTelegram, TELEGRAM_UPDATES_GOAL_PER_SEC, type TelegramBenchResult } from './telegram.bench.js';
import { renderMarkdownTable, replaceBetweenMarkers } from './suite/docs-table.js';
import { BASELINE, measureRounds, run, settle, type Load, type Measured, type Pace } from './suite/load.js';
import { BENCH_APP_SECRET, sampleRss, startPanelStub, startServer, type ServerProcess } from './suite/processes.js';
import { keepsRatio, median, ratiosBetweenBaselines } from './suite/ratios.js';
import { ADMIN_EMAIL, CUSTOMER_EMAIL, seedDatabase, seeded } from './suite/seed.js';
import { wrkAvailable } from './suite/wrk-load.js';

type DbKind = 'sqlite' | 'postgres';
/** Where `--write-docs` puts the table: the README's performance section and docs/performance.md (with its method). */
const DOCS = ['../../README.md', '../../docs/performance.md'].map((path) => fileURLToPath(new URL(path, import.meta.url)));
const BR = { 'accept-encoding': 'gzip, deflate, br' };
const CLIENT = { 'user-agent': 'v2rayNG/1.8.0' };
/** A config fetched within this long is still fresh: cold `/sub` asks for ones fetched longer ago. */
const FRESH_MS = 60_000;

const argv = process.argv.slice(2);
const flag = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = argv.includes('--quick');
const dbs: DbKind[] = flag('db') ? [flag('db') as DbKind] : ['sqlite', 'postgres'];
const sizes = (flag('sizes') ?? (quick ? '10k' : '10k,1M')).split(',').map(parseSize);
const settings = quick
  ? {
      rounds: 1,
      pace: { connections: 50, seconds: 1 },
      warm: { connections: 50, seconds: 0.5 },
      pagePace: { connections: 50, seconds: 0.5 },
      pageSample: 12,
      pageRounds: 1,
      pressure: 2,
    }
  : {
      rounds: 3,
      pace: { connections: 50, seconds: 2 },
      warm: { connections: 50, seconds: 1 },
      pagePace: { connections: 50, seconds: 1 },
      pageSample: 1,
      pageRounds: 1,
      pressure: 4,
    };
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const fromSource = argv.includes('--from-source');
const only = flag('only')
  ?.split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);
/** Whether a target is measured in this run: all of them unless `--only` names some. */
const wanted = (...names: string[]) => !only || only.some((w) => names.some((n) => n.toLowerCase().includes(w)));
const serverDir = fromSource ? join(ROOT, 'server/src') : join(ROOT, 'dist/server/src');
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function parseSize(text: string): number {
  const match = /^(\d+)([kM]?)$/.exec(text.trim());
  if (!match) throw new Error(`--sizes: ${text} is not a size such as 10k or 1M`);
  return Number(match[1]) * (match[2] === 'k' ? 1_000 : match[2] === 'M' ? 1_000_000 : 1);
}
const sizeName = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1_000 ? `${n / 1_000}k` : String(n));
const dbName = (db: DbKind) => (db === 'sqlite' ? 'SQLite' : 'PostgreSQL');

/** What one database at one size gave. */
interface ConfigResult {
  db: DbKind;
  users: number;
  seedSeconds: number;
  measured: Measured[];
  coldSub?: { ratio: number; reqPerSec: number; fresh: boolean };
  pressure?: { alone: number; loaded: number; overviews: number };
  maxRssMb: number;
  pages?: { count: number; min: number; minPath: string; below: string[] };
}

function routeLoads(users: number, customer: string, admin: string): Load[] {
  const q = (params: string) => `/api/admin/users${params}`;
  return [
    { name: '`GET /api/accounts` (3 accounts)', path: '/api/accounts', headers: { authorization: customer } },
    // As the dashboard asks in a browser: the answer (2 KB) is compressed per request (shown; the goal is the row above, as the issue measured it).
    { name: '`GET /api/accounts` (3 accounts, br)', path: '/api/accounts', headers: { authorization: customer, ...BR }, noGoal: true },
    // As browsers and the desktop app ask (accept-encoding), and as the suite asked before 2026-11-27 (without).
    { name: '`GET /api/plans` (br)', path: '/api/plans', headers: BR },
    { name: '`GET /api/plans` (no accept-encoding)', path: '/api/plans', noGoal: true },
    { name: '`GET /api/me`', path: '/api/me', headers: { authorization: customer } },
    { name: '`GET /api/config`', path: '/api/config' },
    { name: '`GET /pricing` (br)', path: '/pricing', headers: BR },
    {
      name: 'unknown-token `/sub` (a new token each request)',
      path: '/sub/x',
      headers: CLIENT,
      nextPath: () => `/sub/${randomToken(24)}`,
      luaPath: `'/sub/' .. token(32)`,
      status: 404,
    },
    { name: 'admin users: first page', path: q(''), headers: { authorization: admin } },
    { name: 'admin users: deep page (`after=` halfway)', path: q(`?after=${seeded.userId(Math.floor(users / 2))}`), headers: { authorization: admin } },
    { name: 'admin users: exact search', path: q(`?q=${encodeURIComponent(seeded.email(Math.floor(users / 3) + 1))}`), headers: { authorization: admin } },
    { name: 'admin users: prefix search `q=ab`', path: q('?q=ab'), headers: { authorization: admin } },
    { name: 'admin users: `active=true`', path: q('?active=true'), headers: { authorization: admin } },
    { name: 'admin users: `pastDue=true`', path: q('?pastDue=true'), headers: { authorization: admin } },
    { name: 'admin users: `role=admin`', path: q('?role=admin'), headers: { authorization: admin } },
    { name: 'admin overview `?days=90`', path: '/api/admin/overview?days=90', headers: { authorization: admin } },
    // The admin panel in a browser: the kept answers are compressed per request.
    { name: 'admin users: first page (br)', path: q(''), headers: { authorization: admin, ...BR }, noGoal: true },
    { name: 'admin overview `?days=90` (br)', path: '/api/admin/overview?days=90', headers: { authorization: admin, ...BR }, noGoal: true },
    // Pages are kept until the next commit: this one asks for a page after a random user each time, so almost
    // every request reads the database (what the list costs in a store whose database is written all the time).
    {
      name: 'admin users: a new page each request (`after=` a random user; not kept)',
      path: q(`?after=${seeded.userId(2)}`),
      headers: { authorization: admin },
      nextPath: () => q(`?after=${seeded.userId(2 + Math.floor(Math.random() * (users - 2)))}`),
      noGoal: true,
      // seeded.userId in Lua: the same zero-padded number after a fixed prefix.
      luaPath: `'${q('?after=')}${seeded.userId(0).slice(0, -12)}' .. string.format('%012d', math.random(2, ${users - 1}))`,
    },
  ];
}
const isAdminLoad = (load: Load) => load.path.startsWith('/api/admin/');

/** Checks each load answers as expected once, then loads it briefly (a cold process answers its first seconds slowly). */
async function warm(base: string, loads: Load[], pace: Pace): Promise<void> {
  for (const load of [BASELINE, ...loads]) {
    const res = await fetch(`${base}${load.paths?.[0] ?? load.nextPath?.() ?? load.path}`, { headers: load.headers });
    await res.arrayBuffer();
    if (res.status !== (load.status ?? 200)) throw new Error(`${load.name}: HTTP ${res.status}`);
    await run(base, load, pace);
  }
}

/** Fetches every token's `/sub` once, `concurrency` at a time. */
async function fetchEach(base: string, tokens: string[], concurrency = 20): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tokens.length) {
        const res = await fetch(`${base}/sub/${tokens[next++]}`, { headers: CLIENT });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`/sub warm-up: HTTP ${res.status}`);
      }
    }),
  );
}

/** `/api/me` p99 with 10 connections alone, then while another client asks for the overview in a loop. */
async function meUnderOverview(base: string, customer: string, admin: string, seconds: number) {
  const me: Load = { name: '/api/me', path: '/api/me', headers: { authorization: customer } };
  const pace = { connections: 10, seconds };
  await settle(base);
  const alone = (await run(base, me, pace)).p99;
  await settle(base);
  let stopped = false;
  let overviews = 0;
  const loop = (async () => {
    while (!stopped) {
      await (await fetch(`${base}/api/admin/overview?days=90`, { headers: { authorization: admin } })).arrayBuffer();
      overviews += 1;
    }
  })();
  const loaded = (await run(base, me, pace)).p99;
  stopped = true;
  await loop;
  return { alone, loaded, overviews };
}

/** A page whose screening measured under this is measured again as a target is (rounds of `settings.pace`). */
const PAGE_RECHECK_BELOW = 0.7;

/**
 * Every prerendered page (br), listed from the build's manifest, in two steps: each page once between baselines
 * (`settings.pagePace`, a screening: 108 pages as full targets would take 20 minutes), then every page that
 * screened under PAGE_RECHECK_BELOW measured again as every target is (median of `settings.rounds` rounds of
 * `settings.pace`), whose figure is the page's. A single 1 s measurement varies by ±0.15 here, so the lowest
 * of 108 of them was the run's noise more than any page's cost.
 */
async function measurePages(base: string) {
  const manifest = JSON.parse(readFileSync(join(SITE_DIST_DIR, 'manifest.json'), 'utf8')) as { pages: Array<{ path: string }> };
  const paths = manifest.pages.map((p) => p.path).filter((_, i) => i % settings.pageSample === 0);
  const loads = paths.map((path): Load => ({ name: path, path, headers: BR }));
  await warm(base, loads, { ...settings.pagePace, seconds: 0.3 });
  const screened = await measureRounds(base, loads, settings.pagePace, settings.pageRounds);
  const doubtful = screened.filter((m) => !(m.ratio >= PAGE_RECHECK_BELOW));
  const rechecked =
    doubtful.length > 0 && !quick
      ? await measureRounds(
          base,
          doubtful.map((m) => m.load),
          settings.pace,
          settings.rounds,
        )
      : [];
  if (rechecked.length > 0)
    console.log(
      `  ${rechecked.length} pages measured again: ${rechecked.map((m) => `${m.load.path} ${screened.find((s) => s.load === m.load)!.ratio.toFixed(2)} → ${m.ratio.toFixed(2)}`).join(', ')}`,
    );
  const measured = screened.map((m) => rechecked.find((r) => r.load === m.load) ?? m);
  const min = measured.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  return {
    count: paths.length,
    min: min.ratio,
    minPath: min.load.path,
    below: measured.filter((m) => m.ratio < 0.6).map((m) => `${m.load.path} ${m.ratio.toFixed(2)}`),
  };
}

/**
 * Accounts that warm a fresh process's `/sub` code before its cold burst, at most: each is one pass through
 * the cold path (the account's row and stored copy read, parsed, kept). A process that had run it 200 times
 * still ran much of it unoptimised: at a million users on PostgreSQL its cold bursts ran at 3,800–5,000
 * requests a second after 200 such accounts, 4,300–7,400 after 2,000 and 8,000–9,000 after 8,000 (2026-11-28).
 * A server in service runs that path all day: clients ask every 12 hours, so nearly every request of theirs
 * is for an account not fetched in the last minute.
 */
const COLD_WARM_MAX = 5000;
/** Warming accounts asked for again (twice), and unknown tokens asked for, before the rest warm each cold burst's process (at most; half the group at 10k). */
const WARM_AGAIN = 1000;
/** Accounts of a cold burst, at most (each asked for once). */
const COLD_BURST_MAX = 2000;
/** Bursts of `/robots.txt` each side of the cold one (their median is that side's baseline). */
const COLD_BASELINE_BURSTS = 3;

/** The accounts of the cold `/sub` measurement: a group to warm each fresh process, and the one each round asks for. */
interface ColdTokens {
  warm: string[];
  burst: string[];
}

/** Half the accounts for the burst (up to 2,000), the rest to warm with (up to 5,000): at 10k users 999 and 1,000. */
function coldTokens(users: number): ColdTokens {
  const withAccount = Math.floor((users - 1) / 5); // users 5, 10, … (seed.ts)
  const token = (k: number) => seeded.subToken(5 * (1 + k));
  const burst = Math.min(COLD_BURST_MAX, Math.floor(withAccount / 2));
  const warm = Math.min(COLD_WARM_MAX, withAccount - burst);
  return {
    warm: Array.from({ length: warm }, (_, k) => token(k)),
    burst: Array.from({ length: burst }, (_, k) => token(warm + k)),
  };
}

/** The link tokens of the accounts whose stored configuration was fetched after `since` (by a background refresh). */
async function refreshedSince(databaseUrl: string, since: Date): Promise<Set<string>> {
  const db = createDb(databaseUrl);
  try {
    const rows = await db('subscription_copies as c')
      .join('vpn_accounts as a', 'a.id', 'c.vpn_account_id')
      .where('c.fetched_at', '>', since)
      .pluck('a.sub_token');
    return new Set(rows as string[]);
  } finally {
    await db.destroy();
  }
}

/**
 * Cold `/sub`: accounts whose configuration was fetched once, over a minute ago, by an earlier process. Each
 * round restarts the server (empty memory), warms its `/sub` code on a group of other accounts, each asked for
 * once (a process that has served nothing compiles as it goes: that is a cold process, not a cold account),
 * then asks for every account of the burst group once, between bursts of `/robots.txt` of the same size (three
 * each side, the median of each side counted). The same group serves
 * every round (each round's process has never seen it), less the accounts a round's background refreshes
 * fetched again: those are no longer "fetched over a minute ago". One group of up to 2,000 rather than a
 * smaller one per round: a burst of 500 took about 0.1 s here, and its ratio varied from 0.46 to 0.91.
 */
async function measureColdSub(databaseUrl: string, tokens: ColdTokens, warmedAt: number, started: ServerProcess[]): Promise<ConfigResult['coldSub']> {
  const fresh = Date.now() - warmedAt < FRESH_MS;
  if (fresh && !quick) await new Promise((resolve) => setTimeout(resolve, FRESH_MS - (Date.now() - warmedAt)));
  const ratios: number[] = [];
  const rates: number[] = [];
  const coldLoad = (roundTokens: string[]): Load => ({
    name: 'cold /sub',
    path: '/sub/x',
    headers: CLIENT,
    amount: roundTokens.length,
    paths: roundTokens.map((token) => `/sub/${token}`),
  });
  let burst = tokens.burst;
  for (let round = 0; round < settings.rounds; round++) {
    await Promise.all(started.map((s) => s.stop()));
    if (round > 0) {
      const refreshed = await refreshedSince(databaseUrl, new Date(warmedAt));
      burst = burst.filter((token) => !refreshed.has(token));
    }
    const server = await startServer(databaseUrl, ADMIN_EMAIL, serverDir);
    started.push(server);
    await run(server.base, BASELINE, settings.warm);
    // First what a server in service runs beside first asks: accounts asked for again soon (kept in memory), and
    // again at once (the row reused), and unknown tokens; then the rest of the group, first asks. Warmed on first
    // asks alone, the process met those other paths only after V8 had compiled its `/sub` code for first asks:
    // it threw that code away at the first of them, and compiled it anew during the measured burst
    // (`--trace-opt --trace-deopt`, 2026-11-28: 16 optimisations within a burst at a million users, 7 with this order).
    const again = Math.min(WARM_AGAIN, Math.floor(tokens.warm.length / 2));
    const askedAgain = coldLoad(tokens.warm.slice(0, again));
    for (let ask = 0; ask < 3; ask++) await run(server.base, askedAgain, settings.warm);
    await run(
      server.base,
      {
        name: 'unknown /sub',
        path: '/sub/x',
        headers: CLIENT,
        status: 404,
        amount: again,
        paths: Array.from({ length: again }, () => `/sub/${randomToken(24)}`),
      },
      settings.warm,
    );
    await run(server.base, coldLoad(tokens.warm.slice(again)), settings.warm);
    await settle(server.base);
    // The baseline as a burst of the same size: a burst's rate includes opening its connections and waiting
    // for its last answer, which cost /robots.txt itself half its rate at 500 requests (a load of 2 s does not pay them).
    const baselineBurst: Load = { ...BASELINE, amount: burst.length };
    // The first burst of a fresh process ran at a third to half the rate of the next ones (why was not found):
    // one is sent and not counted, so it is not the baseline.
    await run(server.base, baselineBurst, settings.pace);
    const baselineSide = async () => {
      const rates: number[] = [];
      for (let i = 0; i < COLD_BASELINE_BURSTS; i++) {
        await settle(server.base);
        rates.push((await run(server.base, baselineBurst, settings.pace)).reqPerSec);
      }
      return median(rates);
    };
    const before = await baselineSide();
    await settle(server.base);
    const rate = (await run(server.base, coldLoad(burst), settings.pace)).reqPerSec;
    const after = await baselineSide();
    ratios.push(ratiosBetweenBaselines([before, after], [rate])[0]!);
    rates.push(rate);
  }
  return { ratio: median(ratios), reqPerSec: median(rates), fresh: fresh && quick };
}

async function measureConfig(db: DbKind, users: number, seedSeconds: number, databaseUrl: string, withPages: boolean): Promise<ConfigResult> {
  const started: ServerProcess[] = [];
  const server = await startServer(databaseUrl, ADMIN_EMAIL, serverDir);
  started.push(server);
  try {
    const [customer, admin] = [await server.signIn(CUSTOMER_EMAIL), await server.signIn(ADMIN_EMAIL)];
    const rss = sampleRss(server.pid);
    // Accounts for cold /sub, fetched once now by this process.
    const tokens = coldTokens(users);
    await fetchEach(server.base, [...tokens.warm, ...tokens.burst]);
    const warmedAt = Date.now();

    const loads = routeLoads(users, customer, admin).filter((load) => wanted(load.name, load.path));
    await warm(server.base, loads, settings.warm);
    const measured = await measureRounds(server.base, loads, settings.pace, settings.rounds);
    const pressure = wanted('pressure') ? await meUnderOverview(server.base, customer, admin, settings.pressure) : undefined;
    const maxRssMb = rss.stop();
    const pages = withPages && wanted('pages') ? await measurePages(server.base) : undefined;
    const coldSub = wanted('cold') ? await measureColdSub(databaseUrl, tokens, warmedAt, started) : undefined;
    return { db, users, seedSeconds, measured, coldSub, pressure, maxRssMb, pages };
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}

function printConfig(r: ConfigResult): void {
  console.log(
    `\n${dbName(r.db)}, ${r.users.toLocaleString('en')} users (seeded in ${r.seedSeconds.toFixed(1)} s)${r.measured[0] ? `, baseline ${r.measured[0].baseline.toFixed(0)} req/s` : ''}`,
  );
  for (const m of r.measured) {
    console.log(
      `  ${m.load.name.padEnd(52)} ${m.reqPerSec.toFixed(0).padStart(7)} req/s  p99 ${String(m.p99).padStart(4)} ms  ratio ${m.ratio.toFixed(2)} (rounds ${m.ratios.map((x) => x.toFixed(2)).join(', ')})`,
    );
  }
  if (r.coldSub)
    console.log(
      `  ${'cold /sub'.padEnd(52)} ${r.coldSub.reqPerSec.toFixed(0).padStart(7)} req/s  ratio ${r.coldSub.ratio.toFixed(2)}${r.coldSub.fresh ? ' (quick: fetched under a minute before)' : ''}`,
    );
  if (r.pressure)
    console.log(`  /api/me p99 alone ${r.pressure.alone} ms, with the overview in a loop ${r.pressure.loaded} ms (${r.pressure.overviews} overviews)`);
  console.log(`  server max RSS ${r.maxRssMb.toFixed(0)} MB`);
  if (r.pages)
    console.log(
      `  ${r.pages.count} prerendered pages (br): lowest ratio ${r.pages.min.toFixed(2)} (${r.pages.minPath})${r.pages.below.length ? `; below 0.6: ${r.pages.below.join(', ')}` : ''}`,
    );
}

/** The table: one row per target, one column per database and size, and whether every column meets it. */
function summaryTable(
  results: ConfigResult[],
  renewals: RenewalsBenchResult | undefined,
  local: LocalPaymentsBenchResult | undefined,
  subPaths?: SubPathsBenchLine[],
): string {
  const columns = results.map((r) => `${dbName(r.db)} ${sizeName(r.users)}`);
  const rows: string[][] = [];
  const row = (name: string, goal: string, cells: Array<{ text: string; ok: boolean | null }>) => {
    const judged = cells.filter((c) => c.ok !== null);
    rows.push([name, goal, ...cells.map((c) => c.text), judged.length === 0 ? '' : judged.every((c) => c.ok) ? 'ok' : 'BELOW']);
  };
  row(
    '`GET /robots.txt` (baseline, req/s)',
    '',
    results.map((r) => ({ text: r.measured[0]?.baseline.toFixed(0) ?? '–', ok: null })),
  );
  const smallest = (r: ConfigResult) =>
    results.find((s) => s.db === r.db && s.users === Math.min(...results.filter((x) => x.db === r.db).map((x) => x.users)))!;
  for (const [i, load] of results[0]!.measured.map((m) => m.load).entries()) {
    const admin = isAdminLoad(load);
    const min = admin ? 0.3 : 0.6;
    if (load.noGoal) {
      row(
        load.name,
        '',
        results.map((r) => ({ text: Number.isFinite(r.measured[i]!.ratio) ? r.measured[i]!.ratio.toFixed(2) : 'no ratio', ok: null })),
      );
      continue;
    }
    row(
      load.name,
      admin ? '≥ 0.3; 1M within 20 % of 10k' : `≥ ${min}`,
      results.map((r) => {
        const ratio = r.measured[i]!.ratio;
        const base = smallest(r).measured[i]!.ratio;
        const keeps = r === smallest(r) || keepsRatio(base, ratio);
        if (!Number.isFinite(ratio)) return { text: 'no ratio', ok: false }; // no answers in a target or baseline window, or an error
        return {
          text: `${ratio.toFixed(2)}${admin && r !== smallest(r) ? ` (${(ratio / base).toFixed(2)} of ${sizeName(smallest(r).users)})` : ''}`,
          ok: ratio >= min && keeps,
        };
      }),
    );
  }
  if (results.some((r) => r.coldSub)) {
    row(
      'cold `/sub` (fetched once, over a minute ago)',
      '≥ 0.5',
      results.map((r) =>
        r.coldSub ? { text: `${r.coldSub.ratio.toFixed(2)}${r.coldSub.fresh ? ' (fresh)' : ''}`, ok: r.coldSub.ratio >= 0.5 } : { text: '–', ok: null },
      ),
    );
  }
  const paged = results.find((r) => r.pages);
  if (paged?.pages) {
    row(
      `every prerendered page (${paged.pages.count}, br): lowest`,
      '≥ 0.6',
      results.map((r) => (r.pages ? { text: `${r.pages.min.toFixed(2)} (${r.pages.minPath})`, ok: r.pages.min >= 0.6 } : { text: '–', ok: null })),
    );
  }
  if (results.some((r) => r.pressure))
    row(
      '`/api/me` p99 rise with the overview in a loop (ms)',
      '< 20 ms at SQLite 1M',
      results.map((r) => {
        if (!r.pressure) return { text: '–', ok: null };
        const { alone, loaded } = r.pressure;
        const judged = r.db === 'sqlite' && r.users >= 1_000_000;
        // autocannon reports p99 0 when no request was answered in the window.
        if (alone === 0 || loaded === 0) return { text: 'no answers', ok: judged ? false : null };
        const rise = loaded - alone;
        // wrk reports p99 to the hundredth of a millisecond: the difference is rounded as they are.
        return { text: `${rise >= 0 ? '+' : '−'}${Math.abs(rise).toFixed(2)} (${alone} → ${loaded})`, ok: judged ? rise < 20 : null };
      }),
    );
  row(
    'server max RSS (MB)',
    '< 300 at 1M',
    results.map((r) => ({ text: r.maxRssMb.toFixed(0), ok: r.users >= 1_000_000 ? r.maxRssMb < 300 : null })),
  );
  row(
    'seeding (s)',
    '',
    results.map((r) => ({ text: r.seedSeconds.toFixed(1), ok: null })),
  );
  let table = renderMarkdownTable(['target', 'goal', ...columns, ''], rows);
  if (renewals) {
    const checks = renewals.checks.filter((c) => c.actual === c.expected).length;
    table +=
      `\n\nAuto-renewals (\`server/bench/renewals.bench.ts\`, ${renewals.database}, ${renewals.subscribers} subscribers, panel answering in ${renewals.panelDelayMs} ms): ` +
      `**${renewals.renewalsPerSec.toFixed(1)} renewals/s** (goal ≥ 20: ${renewals.renewalsPerSec >= 20 ? 'ok' : 'BELOW'}), exactly-once checks ${checks} of ${renewals.checks.length} passed.`;
  }
  if (local) {
    const checks = local.checks.filter((c) => c.actual === c.expected).length;
    const rate = (perSec: number) => `**${perSec.toFixed(0)}/s** (${perSec >= LOCAL_PAYMENTS_GOAL_PER_SEC ? 'ok' : 'BELOW'})`;
    table +=
      `\n\nYooKassa, Crypto Pay and the wallet (\`server/bench/local-payments.bench.ts\`, ${local.database}, goal ≥ ${LOCAL_PAYMENTS_GOAL_PER_SEC}/s each): ` +
      `${local.providers.map((p) => `${p.provider} notifications ${rate(p.perSec)}`).join(', ')}, wallet purchases with ${local.wallet.customers} customers at once ${rate(local.wallet.perSec)}; ` +
      `exactly-once checks ${checks} of ${local.checks.length} passed.`;
  }
  if (subPaths) {
    const targets = subPaths.filter((line) => line.target !== null);
    table +=
      `\n\n\`/sub\` paths (\`server/bench/sub-paths.bench.ts\`, SQLite): ` +
      targets
        .map((line) => `${line.name.trim()} **${line.ratio.toFixed(2)}** (goal ≥ ${line.target}: ${line.ratio >= line.target! ? 'ok' : 'BELOW'})`)
        .join('; ') +
      '.';
  }
  return table;
}

/** The commit being measured, read at start (a commit made while the suite runs is not what it measured). */
const COMMIT = (() => {
  try {
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return `${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}${dirty ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'unknown';
  }
})();

function describeRun(): string {
  const commit = COMMIT;
  return (
    `One run of \`npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}\` on ${new Date().toISOString().slice(0, 10)} (commit ${commit}); ` +
    `${settings.rounds} round(s), ${settings.pace.connections} connections, ${settings.pace.seconds} s per measurement, server ${fromSource ? 'from its sources (tsx)' : 'built'}, ` +
    `loaded by ${wrkAvailable() ? 'wrk (one thread; cold `/sub` and its baselines in bursts of a set number of requests)' : 'autocannon'}.`
  );
}

/** What issue 56's operations cost, measured on the seeded stores: the scrape on each, the rest on the largest SQLite one. */
const operations: {
  metrics: Array<MetricsBenchResult & { db: DbKind }>;
  backup?: BackupBenchResult;
  redaction?: RedactionBenchResult;
} = { metrics: [] };

const failed = (what: string) => (err: unknown) => {
  console.error(`  the ${what} benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return undefined;
};

/** `npm run backup` while `/sub` is loaded (backup.bench.ts), and `/sub` with and without the log redaction (redaction.bench.ts). */
async function measureOperations(databaseUrl: string, users: number, dir: string): Promise<void> {
  if (!argv.includes('--no-backup') && wanted('backup')) {
    console.log('\n`npm run backup` while /sub is loaded (server/bench/backup.bench.ts)…');
    operations.backup = await benchBackupOn(databaseUrl, users, { connections: settings.pace.connections, seconds: quick ? 1 : 5 }, dir).catch(
      failed('backup'),
    );
    if (operations.backup) printBackup(operations.backup);
  }
  if (!argv.includes('--no-redaction') && wanted('redaction')) {
    console.log('\n/sub with the log redaction and without (server/bench/redaction.bench.ts)…');
    operations.redaction = await benchRedactionOn(databaseUrl, users, settings.pace, quick ? 1 : 5).catch(failed('redaction'));
    if (operations.redaction) printRedaction(operations.redaction);
  }
}

/** The sentences under the table for the scrape, the backup and the redaction. */
function operationsLines(): string {
  const mark = (ok: boolean) => (ok ? 'ok' : 'BELOW');
  const lines: string[] = [];
  if (operations.metrics.length > 0)
    lines.push(
      `\`GET /metrics\` (\`server/bench/metrics.bench.ts\`, goal p95 < 50 ms): ` +
        operations.metrics
          .map((m) => `${dbName(m.db)} ${sizeName(m.users)} median ${m.medianMs.toFixed(1)} ms, p95 **${m.p95Ms.toFixed(1)} ms** (${mark(m.p95Ms < 50)})`)
          .join('; ') +
        '.',
    );
  const { backup, redaction } = operations;
  if (backup)
    lines.push(
      `\`npm run backup\` of SQLite ${sizeName(backup.users)} (${backup.databaseMb.toFixed(0)} MB, \`server/bench/backup.bench.ts\`): ` +
        `**${backup.backupSeconds.toFixed(1)} s** (goal < ${BACKUP_GOAL_SECONDS} s: ${mark(backup.backupSeconds < BACKUP_GOAL_SECONDS)}), \`/sub\` meanwhile at ` +
        `**${backup.ratio.toFixed(2)}** of its rate before and after (goal ≥ ${SUB_DURING_BACKUP_GOAL}: ${mark(backup.ratio >= SUB_DURING_BACKUP_GOAL)}).`,
    );
  if (redaction)
    lines.push(
      `\`/sub\` logging at info with the log redaction against without it (\`server/bench/redaction.bench.ts\`, SQLite ${sizeName(redaction.users)}): ` +
        `**${redaction.ratio.toFixed(2)}** (goal ≥ ${REDACTION_GOAL}: ${mark(redaction.ratio >= REDACTION_GOAL)}).`,
    );
  return lines.map((line) => `\n\n${line}`).join('');
}

async function main(): Promise<void> {
  if (only && argv.includes('--write-docs')) throw new Error('--write-docs writes the whole table: it cannot be combined with --only');
  if (!fromSource) {
    console.log('Building the server (tsc -p tsconfig.server.json)…');
    execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(ROOT, 'tsconfig.server.json')], { stdio: 'inherit' });
  }
  const dir = mkdtempSync(join(tmpdir(), 'vpn-perf-suite-'));
  const panel = await startPanelStub();
  const results: ConfigResult[] = [];
  try {
    for (const db of dbs) {
      for (const users of sizes) {
        console.log(`\nSeeding ${dbName(db)} with ${users.toLocaleString('en')} users…`);
        const data = await seedDatabase(db, users, { url: panel.url, appSecret: BENCH_APP_SECRET }, { dir, pgUrl });
        try {
          const result = await measureConfig(db, users, data.seconds, data.url, results.length === 0);
          printConfig(result);
          results.push(result);
          if (!argv.includes('--no-metrics') && wanted('metrics')) {
            // The Prometheus scrape on the same store (server/bench/metrics.bench.ts): its job queue is filled first.
            const scrape = await benchMetricsScrape({ databaseUrl: data.url, users }).catch(failed('/metrics'));
            if (scrape) {
              printMetricsScrape(scrape);
              operations.metrics.push({ db, ...scrape });
            }
          }
          if (db === 'sqlite' && users === Math.max(...sizes)) await measureOperations(data.url, users, dir);
        } finally {
          await data.drop();
        }
      }
    }
  } finally {
    await panel.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  let renewals: RenewalsBenchResult | undefined;
  if (!argv.includes('--no-renewals') && wanted('renewals') && dbs.includes('postgres')) {
    console.log('\nAuto-renewals (server/bench/renewals.bench.ts)…');
    renewals = await benchRenewals(quick ? { subscribers: 20 } : {}).catch((err: unknown) => {
      console.error(`  the renewals benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return undefined;
    });
    for (const check of renewals?.checks ?? [])
      console.log(
        `  ${check.actual === check.expected ? 'ok  ' : 'FAIL'} ${check.name}: ${check.actual}${check.actual === check.expected ? '' : ` (expected ${check.expected})`}`,
      );
  }
  let local: LocalPaymentsBenchResult | undefined;
  if (!argv.includes('--no-local-payments') && wanted('local', 'yookassa', 'cryptopay', 'wallet') && dbs.includes('postgres')) {
    console.log('\nYooKassa, Crypto Pay and the wallet (server/bench/local-payments.bench.ts)…');
    local = await benchLocalPayments(quick ? { notifications: 60, customers: 20, plansEach: 3 } : {}).catch((err: unknown) => {
      console.error(`  the local payments benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return undefined;
    });
    if (local) printLocalPayments(local);
  }
  let telegram: TelegramBenchResult | undefined;
  if (!argv.includes('--no-telegram') && wanted('telegram', 'broadcast') && dbs.includes('postgres')) {
    console.log('\nThe Telegram bot: updates by webhook, and a broadcast (server/bench/telegram.bench.ts)…');
    telegram = await benchTelegram(quick ? { updates: 200, broadcast: 200 } : {}).catch((err: unknown) => {
      console.error(`  the Telegram benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return undefined;
    });
    if (telegram) printTelegram(telegram);
  }
  let subPaths: SubPathsBenchLine[] | undefined;
  if (!argv.includes('--no-sub-paths') && wanted('sub-paths', 'spare', 'tls')) {
    console.log('\n/sub on a spare domain, apps counted without an id, first fetches through TLS (server/bench/sub-paths.bench.ts)…');
    subPaths = await benchSubPaths(quick ? { accounts: 6000, rounds: 1, durationSeconds: 1 } : {}).catch((err: unknown) => {
      console.error(`  the /sub paths benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return undefined;
    });
    if (subPaths) printSubPaths(subPaths);
  }
  const table = `${describeRun()}\n\n${summaryTable(results, renewals, local, subPaths)}${telegramLine(telegram)}${operationsLines()}`;
  console.log(`\n${table}`);
  if (argv.includes('--write-docs')) {
    for (const doc of DOCS) {
      writeFileSync(doc, replaceBetweenMarkers(readFileSync(doc, 'utf8'), table));
      console.log(`wrote the table into ${doc}`);
    }
  }
}

/** The Telegram bench's sentence under the table. */
function telegramLine(telegram: TelegramBenchResult | undefined): string {
  if (!telegram) return '';
  const checks = telegram.checks.filter((c) => c.actual === c.expected).length;
  const { updates, broadcast } = telegram;
  return (
    `\n\nThe Telegram bot (\`server/bench/telegram.bench.ts\`, PostgreSQL): updates by webhook answered with their reply at ` +
    `**${updates.perSec.toFixed(0)}/s** (goal ≥ ${TELEGRAM_UPDATES_GOAL_PER_SEC}: ${updates.perSec >= TELEGRAM_UPDATES_GOAL_PER_SEC ? 'ok' : 'BELOW'}); ` +
    `a broadcast to ${broadcast.recipients} people in ${broadcast.seconds.toFixed(0)} s, at most ${broadcast.busiestSecond} messages in any second (Telegram allows 30); ` +
    `exactly-once checks ${checks} of ${telegram.checks.length} passed.`
  );
}

await main();
