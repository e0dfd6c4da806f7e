/**
 * `npx tsx server/bench/prepare.bench.ts`: queries per second of a typical accounts query (the
 * customer's account list, `accountsRepo.listForUser`: three joins and computed columns) run one after
 * another through knex, with prepared statements reused and without (issue 27): on SQLite, then on
 * PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server; BENCH_SKIP_POSTGRES=1
 * to skip). BENCH_QUERIES sets how many are timed (default 5000).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createAccountsRepo } from '../src/modules/accounts/accounts.repo.js';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 5000);
const WARMUP = 200;
const ACCOUNTS_PER_USER = 3;

/** One customer with a few accounts; returns the customer's id. */
async function seed(db: Db): Promise<string> {
  const now = new Date();
  const userId = randomUUID();
  await db('user_profiles').insert({ id: userId, email: 'bench@example.com', role: 'user', trial_used: false, created_at: now, updated_at: now });
  const accounts = createAccountsRepo(db);
  for (let i = 0; i < ACCOUNTS_PER_USER; i++) {
    await accounts.insertPending({ id: randomUUID(), userId, planId: null, username: `bench_${i}`, subToken: randomUUID(), trialUserId: null }, now);
  }
  return userId;
}

async function measure(db: Db): Promise<number> {
  const userId = await seed(db);
  const accounts = createAccountsRepo(db);
  const catalog = { servers: await accounts.listPublicServerNames(), plans: await accounts.listPlanSummaries() };
  for (let i = 0; i < WARMUP; i++) await accounts.listForUser(userId, catalog);
  const start = performance.now();
  for (let i = 0; i < QUERIES; i++) {
    const rows = await accounts.listForUser(userId, catalog);
    if (rows.length !== ACCOUNTS_PER_USER) throw new Error(`expected ${ACCOUNTS_PER_USER} accounts, got ${rows.length}`);
  }
  return QUERIES / ((performance.now() - start) / 1000);
}

async function onSqlite(preparedStatements: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'vpn-bench-prepare-'));
  const db = createDb(`sqlite:${join(dir, 'app.db')}`, { preparedStatements });
  try {
    await migrateToLatest(db);
    return await measure(db);
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres(preparedStatements: boolean): Promise<number> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = createDb(url);
  await admin.raw('CREATE SCHEMA ??', [schema]);
  const db = createDb(url, { searchPath: schema, preparedStatements });
  try {
    await migrateToLatest(db);
    return await measure(db);
  } finally {
    await db.destroy();
    await admin.raw('DROP SCHEMA ?? CASCADE', [schema]);
    await admin.destroy();
  }
}

async function main(): Promise<void> {
  const runs: Array<[string, (prepared: boolean) => Promise<number>]> = [['sqlite', onSqlite]];
  if (process.env.BENCH_SKIP_POSTGRES !== '1') runs.push(['postgres', onPostgres]);
  for (const [database, run] of runs) {
    const without = await run(false);
    const reused = await run(true);
    console.log(
      JSON.stringify({
        bench: 'prepare',
        database,
        query: 'accounts.listForUser',
        queries: QUERIES,
        withoutReuse: Math.round(without),
        withReuse: Math.round(reused),
        speedup: Number((reused / without).toFixed(2)),
      }),
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
