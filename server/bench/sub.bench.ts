/**
 * `npx tsx server/bench/sub.bench.ts`: our subscription link `GET /sub/<token>` through the whole app
 * (`buildApp()`, SQLite, or PostgreSQL with `BENCH_DB=postgres` in a schema of its own (bench-kit.ts);
 * request logging off, the per-address limit open) next to a trivial route
 * (`GET /robots.txt`) in the same process, against a fake Marzneshin that answers in 200 ms (issue 27):
 *
 * - cached: one account, its configuration in this instance's memory (target ≥ 0.9 of the trivial route);
 *   and from a known device (`x-hwid`) of an account with a device limit (target ≥ 0.8 of cached);
 * - cold: BENCH_ACCOUNTS accounts (default 40 000), each fetched once by another instance an hour ago,
 *   asked for once each on a fresh instance over the same database: served from the stored copy while
 *   one background refresh per account asks the panel (target ≥ 0.5);
 * - unknown token: a new token on every request, answered 404 (target ≥ 0.6).
 *
 * The routes take turns in BENCH_ROUNDS rounds (default 3) of BENCH_DURATION seconds each (default 2), so a
 * machine whose load moves skews every ratio alike; BENCH_CONNECTIONS (default 100) changes the load. A
 * route below its target is reported; the command still succeeds, so `npm run bench` runs the others after it.
 * BENCH_ROUTES (e.g. `trivialOnSecond,cold`) runs only those, for a CPU profile of one route (`node --cpu-prof`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createMarzneshinDriver } from '../src/panels/marzneshin.js';
import { startFakeMarzneshin } from '../test/fake-panels/marzneshin.js';
import { openBenchDatabase, writeMinimalSite } from './bench-kit.js';

export const ON_POSTGRES = process.env.BENCH_DB === 'postgres';

export interface SubscriptionBenchLine {
  name: string;
  reqPerSec: number;
  p99: number;
  /** To the trivial route (x-hwid: to cached /sub). */
  ratio: number;
  target: number | null;
}

export const USER_AGENT = 'v2rayNG/1.8.0';
/** What Happ sends: its device id and what it says of the device. */
export const DEVICE_HEADERS = {
  'user-agent': 'Happ/3.2.1',
  'x-hwid': 'bench-device-0001',
  'x-device-os': 'Android',
  'x-ver-os': '14',
  'x-device-model': 'Pixel 8',
};
const PANEL_DELAY_MS = 200;

export interface Load {
  path: string | (() => string);
  headers?: Record<string, string>;
  connections: number;
  /** Seconds; or `amount` requests. */
  duration?: number;
  amount?: number;
  /** The status every answer must have. */
  status?: number;
}

export async function load(base: string, run: Load) {
  const next = typeof run.path === 'string' ? () => run.path as string : run.path;
  const result = await autocannon({
    url: base,
    connections: run.connections,
    ...(run.amount ? { amount: run.amount } : { duration: run.duration }),
    headers: run.headers ?? { 'user-agent': USER_AGENT },
    requests: [{ setupRequest: (request) => ({ ...request, path: next() }) }],
  });
  const wrong = (run.status ?? 200) === 200 ? result.non2xx : result.requests.total - result['4xx'];
  if (result.errors > 0 || wrong > 0)
    throw new Error(
      `${next()}: ${result.errors} errors (${result.timeouts} timeouts, max latency ${result.latency.max} ms, p99 ${result.latency.p99}), ${wrong} unexpected answers out of ${result.requests.total}: ${JSON.stringify(result.statusCodeStats)}`,
    );
  return { reqPerSec: result.requests.average, p99: result.latency.p99, total: result.requests.total, seconds: result.duration };
}

/** A fresh database of the kind asked for, and how to get rid of it. */
export async function openDatabase(dir: string): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (ON_POSTGRES) return openBenchDatabase();
  const db = createDb(`sqlite:${join(dir, 'app.db')}`);
  return { db, drop: () => db.destroy() };
}

export async function startInstance(db: Db, dir: string): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp({
    config: loadConfig({
      NODE_ENV: 'production',
      APP_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      SMTP_URL: 'smtp://127.0.0.1:1',
      PUBLIC_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'warn',
      // What an operator on PostgreSQL sets (the app is handed the open database all the same).
      ...(ON_POSTGRES ? { DATABASE_URL: 'postgres://127.0.0.1/bench' } : {}),
    }),
    db,
    logger: false,
    siteDir: writeMinimalSite(mkdtempSync(join(dir, 'instance-'))),
    webDir: join(dir, 'no-web'),
    rateLimits: { subPerIp: { max: 1_000_000_000, windowSeconds: 60 } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

export async function benchSubscription(
  options: { durationSeconds?: number; rounds?: number; connections?: number; accounts?: number } = {},
): Promise<SubscriptionBenchLine[]> {
  const duration = options.durationSeconds ?? Number(process.env.BENCH_DURATION ?? 2);
  const rounds = options.rounds ?? Number(process.env.BENCH_ROUNDS ?? 3);
  const connections = options.connections ?? Number(process.env.BENCH_CONNECTIONS ?? 100);
  const accountCount = options.accounts ?? Number(process.env.BENCH_ACCOUNTS ?? 40_000);

  const dir = mkdtempSync(join(tmpdir(), 'vpn-sub-bench-'));
  const { db, drop } = await openDatabase(dir);
  const panel = await startFakeMarzneshin();
  const instances: FastifyInstance[] = [];
  try {
    await migrateToLatest(db);

    // The panel users: accounts share a few (the panel's answer is the same size either way).
    const driver = createMarzneshinDriver({ url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: '1' });
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    const panelUsers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => driver.createAccount({ username: `user_bench${i}`, dataLimitBytes: 50 * 1024 ** 3, expiresAt, note: 'bench' })),
    );
    const now = new Date();
    await db('user_profiles').insert({ id: 'bench-user', email: 'bench@example.com', role: 'user', trial_used: false, created_at: now, updated_at: now });
    await db('masterservers').insert({
      id: 'bench-server',
      kind: 'marzneshin',
      name: 'Bench',
      url: panel.url,
      username: panel.admin.username,
      password_encrypted: 'unused',
      service_id: '1',
      locations: 'all',
      status: 'active',
      created_at: now,
      updated_at: now,
    });
    const tokens = Array.from({ length: accountCount + 1 }, () => randomBytes(24).toString('base64url'));
    const rows = tokens.map((token, i) => ({
      id: i === 0 ? 'bench-account' : randomUUID(),
      user_id: 'bench-user',
      master_server_id: 'bench-server',
      username: `bench_${i}`,
      status: 'active',
      expire_date: expiresAt,
      data_limit: 50 * 1024 ** 3,
      sub_token: token,
      subscription_url: panelUsers[i % 8]!.subscriptionUrl,
      metadata: JSON.stringify({ used_traffic: 0 }),
      device_limit: i === 0 ? 3 : null,
      created_at: now,
      updated_at: now,
    }));
    await db.batchInsert('vpn_accounts', rows, 500);
    // The benchmark's device is one of the first account's already (one of its 3).
    await db('account_devices').insert({
      id: 'bench-device',
      vpn_account_id: 'bench-account',
      hwid: DEVICE_HEADERS['x-hwid'],
      os: 'Android',
      os_version: '14',
      model: 'Pixel 8',
      app: 'Happ/3.2.1',
      first_seen_at: now,
      last_seen_at: now,
    });

    const first = await startInstance(db, dir);
    instances.push(first.app);
    const warm = await fetch(`${first.base}/sub/${tokens[0]}`, { headers: { 'user-agent': USER_AGENT } });
    if (warm.status !== 200) throw new Error(`warming /sub failed: HTTP ${warm.status} ${await warm.text()}`);
    const configuration = await warm.text();
    const fromDevice = await fetch(`${first.base}/sub/${tokens[0]}`, { headers: DEVICE_HEADERS });
    if (fromDevice.status !== 200 || (await fromDevice.text()) !== configuration)
      throw new Error(`the known device was not served the configuration: HTTP ${fromDevice.status}`);

    // Every other account fetched once, an hour ago: one per panel user through this first instance, the
    // rest stored as those were (the same panel answer), then all made an hour old.
    for (const token of tokens.slice(1, 9)) {
      const res = await fetch(`${first.base}/sub/${token}`, { headers: { 'user-agent': USER_AGENT } });
      if (res.status !== 200) throw new Error(`fetching /sub failed: HTTP ${res.status}`);
    }
    const copies = await db('subscription_copies').whereIn(
      'vpn_account_id',
      rows.slice(1, 9).map((row) => row.id),
    );
    if (copies.length !== 8) throw new Error(`expected 8 stored configurations, found ${copies.length}`);
    const copyOf = new Map(copies.map((copy) => [copy.subscription_url, copy]));
    await db.batchInsert(
      'subscription_copies',
      rows.slice(9).map((row) => ({ ...copyOf.get(row.subscription_url), vpn_account_id: row.id })),
      500,
    );
    await db('subscription_copies').update({ fetched_at: new Date(Date.now() - 3_600_000) });
    panel.faults.delayMs = PANEL_DELAY_MS;

    // A second, fresh instance over the same database: every account asked for there once is cold.
    const panelRequestsBefore = panel.requests.length;
    const second = await startInstance(db, dir);
    instances.push(second.app);
    let cursor = 1;
    const coldPath = () => {
      if (cursor > accountCount) throw new Error(`more than ${accountCount} cold requests: raise BENCH_ACCOUNTS`);
      return `/sub/${tokens[cursor++]}`;
    };
    const unknownPath = () => `/sub/${randomBytes(24).toString('base64url')}`;
    const allRuns: Record<string, Omit<Load, 'connections' | 'duration'> & { base: string }> = {
      trivial: { base: first.base, path: '/robots.txt' },
      cached: { base: first.base, path: `/sub/${tokens[0]}` },
      hwid: { base: first.base, path: `/sub/${tokens[0]}`, headers: DEVICE_HEADERS },
      unknown: { base: first.base, path: unknownPath, status: 404 },
      trivialOnSecond: { base: second.base, path: '/robots.txt' },
      cold: { base: second.base, path: coldPath },
    };
    const only = process.env.BENCH_ROUTES?.split(',');
    const runs = Object.fromEntries(Object.entries(allRuns).filter(([name]) => !only || only.includes(name)));
    // A short run of each first, so no measured run pays for the JIT's warm-up (cold: on the first instance).
    for (const [name, run] of Object.entries(runs)) {
      if (name !== 'cold') await load(run.base, { ...run, connections, duration: 1 });
    }
    // The machine's load moves: the routes take turns in short slices, and each ratio compares sums.
    const totals = Object.fromEntries(Object.keys(runs).map((name) => [name, { requests: 0, seconds: 0, p99: 0 }]));
    for (let round = 0; round < rounds; round += 1) {
      for (const [name, run] of Object.entries(runs)) {
        const measured = await load(run.base, { ...run, connections, duration });
        const total = totals[name]!;
        total.requests += measured.reqPerSec * duration;
        total.seconds += duration;
        total.p99 = Math.max(total.p99, measured.p99);
      }
    }
    await second.app.services.subscription.whenIdle();
    const refreshes = panel.requests.length - panelRequestsBefore;
    if (refreshes > cursor) throw new Error(`${refreshes} panel requests for ${cursor - 1} cold accounts`);

    const devices = await db('account_devices').where({ vpn_account_id: 'bench-account' });
    if (devices.length !== 1) throw new Error(`expected the one known device, found ${devices.length}`);

    // A route left out by BENCH_ROUTES: NaN, and its line is left out.
    const rate = (name: string) => (totals[name] ? totals[name].requests / totals[name].seconds : NaN);
    const line = (name: string, run: string, target: number | null, base = 'trivial') => ({
      name,
      reqPerSec: rate(run),
      p99: totals[run]?.p99 ?? 0,
      ratio: rate(run) / rate(base),
      target,
    });
    const lines = [
      line('trivial: GET /robots.txt', 'trivial', null),
      line('GET /sub/<token> (cached)', 'cached', 0.9),
      line('  + x-hwid (ratio to cached)', 'hwid', 0.8, 'cached'),
      line('GET /sub/<unknown token>', 'unknown', 0.6),
      line('second instance: GET /robots.txt', 'trivialOnSecond', null, 'trivialOnSecond'),
      line(`  GET /sub/<token> (cold, ${cursor - 1} accounts)`, 'cold', 0.5, 'trivialOnSecond'),
      { name: `  panel requests (background refreshes)`, reqPerSec: refreshes / (totals.cold?.seconds ?? NaN), p99: 0, ratio: NaN, target: null },
    ];
    return lines.filter((one) => !Number.isNaN(one.reqPerSec));
  } finally {
    for (const app of instances) await app.close();
    await panel.close();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
  const duration = Number(process.env.BENCH_DURATION ?? 2);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const lines = await benchSubscription({ connections, durationSeconds: duration, rounds });
  console.log(
    `/sub through buildApp(), ${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'}, fake Marzneshin answering in ${PANEL_DELAY_MS} ms, ${connections} connections, ${rounds} rounds of ${duration} s per route (cold: each account once)`,
  );
  for (const r of lines) {
    const verdict = r.target === null ? '' : r.ratio >= r.target ? ` ok (target ≥ ${r.target})` : ` BELOW target ${r.target}`;
    const ratio = Number.isNaN(r.ratio) ? '' : `  p99 ${String(r.p99).padStart(4)} ms  ratio ${r.ratio.toFixed(2)}${verdict}`;
    console.log(`  ${r.name.padEnd(42)} ${r.reqPerSec.toFixed(0).padStart(7)} req/s${ratio}`);
  }
}
