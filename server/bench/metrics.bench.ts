/**
 * `npx tsx server/bench/metrics.bench.ts [--users=1000000] [--db=sqlite|postgres]` (and part of `npm run bench`, on the
 * suite's own databases): how long Prometheus's scrape of `GET /metrics` takes through the whole app (`buildApp()`,
 * `inject`) with a store of that many users (suite/seed.ts: one in 5 with an active account) and a job queue of a
 * big store (100 000 jobs scheduled for later, 50 000 done, 1 000 failed, 200 due). Target: under 50 ms at the 95th
 * percentile with a million users — the gauges read index ranges and one counter row, never a count of customers.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, dialectOf, type Db } from '../src/db/knex.js';
import { BENCH_APP_SECRET } from './suite/processes.js';
import { seedDatabase } from './suite/seed.js';

export const METRICS_SCRAPE_GOAL_MS = 50;
const TOKEN = 'bench-metrics-token-0123456789';

export interface MetricsBenchResult {
  users: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

/** A big store's job queue: scheduled, done, failed and due jobs (no scrape counts the scheduled or done ones). */
async function fillJobQueue(db: Db, now: Date): Promise<void> {
  const isPostgres = dialectOf(db) === 'postgres';
  let seq = 0;
  const rows = (count: number, status: string, runAt: (i: number) => Date) =>
    Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      type: 'bench_job',
      payload: '{}',
      status,
      attempts: 0,
      max_attempts: 20,
      run_at: runAt(i),
      created_at: now,
      updated_at: now,
      ...(isPostgres ? {} : { seq: (seq += 1) }),
    }));
  const day = 24 * 3600_000;
  const batches = [
    rows(100_000, 'queued', (i) => new Date(now.getTime() + (i % 30) * day + 60_000)),
    rows(50_000, 'done', () => now),
    rows(1_000, 'failed', () => now),
    rows(200, 'queued', (i) => new Date(now.getTime() - i * 1000)),
  ];
  for (const batch of batches) await db.batchInsert('jobs', batch, isPostgres ? 2000 : 200);
}

/** Scrapes `/metrics` of an app on `databaseUrl` (already seeded) and times each scrape. */
export async function benchMetricsScrape(options: { databaseUrl: string; users: number; scrapes?: number }): Promise<MetricsBenchResult> {
  const db = createDb(options.databaseUrl);
  await fillJobQueue(db, new Date());
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_SECRET: BENCH_APP_SECRET,
    PUBLIC_URL: 'http://127.0.0.1:3000',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    DATABASE_URL: options.databaseUrl,
    METRICS_TOKEN: TOKEN,
  });
  const app = await buildApp({ config, db, logger: false });
  try {
    const scrape = async () => {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      if (res.statusCode !== 200) throw new Error(`GET /metrics answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      return performance.now() - started;
    };
    for (let i = 0; i < 5; i += 1) await scrape(); // warm: compiled queries, the connection pool, the JIT
    const times: number[] = [];
    for (let i = 0; i < (options.scrapes ?? 100); i += 1) times.push(await scrape());
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    return { users: options.users, medianMs: at(0.5), p95Ms: at(0.95), maxMs: times[times.length - 1]! };
  } finally {
    await app.close();
    await db.destroy();
  }
}

export function printMetricsScrape(result: MetricsBenchResult): void {
  const ok = result.p95Ms < METRICS_SCRAPE_GOAL_MS;
  console.log(
    `  ${ok ? 'ok  ' : 'SLOW'} GET /metrics with ${result.users.toLocaleString('en')} users: median ${result.medianMs.toFixed(1)} ms, ` +
      `p95 ${result.p95Ms.toFixed(1)} ms, max ${result.maxMs.toFixed(1)} ms (goal: p95 under ${METRICS_SCRAPE_GOAL_MS} ms)`,
  );
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const flag = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const users = Number(flag('users') ?? 1_000_000);
  const kind = (flag('db') ?? 'sqlite') as 'sqlite' | 'postgres';
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const dir = mkdtempSync(join(tmpdir(), 'vpn-metrics-bench-'));
  try {
    console.log(`Seeding ${kind} with ${users.toLocaleString('en')} users…`);
    const data = await seedDatabase(kind, users, { url: 'http://127.0.0.1:9', appSecret: BENCH_APP_SECRET }, { dir, pgUrl });
    try {
      const result = await benchMetricsScrape({ databaseUrl: data.url, users });
      printMetricsScrape(result);
      if (result.p95Ms >= METRICS_SCRAPE_GOAL_MS) process.exitCode = 1;
    } finally {
      await data.drop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
