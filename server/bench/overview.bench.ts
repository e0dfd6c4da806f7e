/**
 * `npm run bench:overview`: the admin's overview (`GET /api/admin/overview?days=90`) through the whole
 * app (`buildApp()`, logging off, `app.inject`) over 100,000 users (BENCH_USERS to change it) spread
 * over 90 days, each with a VPN account (3 in 5 active, 1 in 10 a trial), 3 in 10 with a payment, and
 * 90 days of daily stats (active accounts, user count, traffic of 5 servers): on SQLite, then on
 * PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server; BENCH_SKIP_POSTGRES=1
 * to skip). Prints the median and p95 time per request. Target (issue 14): under 200 ms at 100,000 users.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, dialectOf, type Db } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Mailer, MailMessage } from '../src/mail/mailer.js';
import { openBenchDatabase } from './bench-kit.js';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
/** Rows per insert: SQLite takes at most 500 in one statement. */
const BATCH = 500;
const DAYS = 90;
const SERVERS = 5;
const TARGET_MS = 200;
const DAY_MS = 24 * 3600_000;
const ADMIN = 'admin@bench.example.com';

/** Spreads `USERS` rows over the last 90 days, in batches inside one transaction. */
async function seed(db: Db, now: Date): Promise<void> {
  const start = now.getTime() - DAYS * DAY_MS;
  const serverIds = Array.from({ length: SERVERS }, () => randomUUID());
  await db.transaction(async (trx) => {
    await trx('masterservers').insert(serverIds.map((id, i) => ({
      id, name: `Server ${i + 1}`, url: `https://panel${i + 1}.bench.example.com`, username: 'admin', password_encrypted: 'not-used', service_id: '1',
      status: 'disabled', created_at: now, updated_at: now,
    })));
    for (let from = 0; from < USERS; from += BATCH) {
      const size = Math.min(BATCH, USERS - from);
      const users = Array.from({ length: size }, (_, j) => {
        const created = new Date(start + Math.floor(((from + j) / USERS) * DAYS * DAY_MS));
        return { id: randomUUID(), email: `u${from + j}@bench.example.com`, role: 'user', trial_used: false, created_at: created, updated_at: created };
      });
      await trx('user_profiles').insert(users);
      await trx('vpn_accounts').insert(users.map((user, j) => {
        const n = from + j;
        return {
          id: randomUUID(), user_id: user.id, master_server_id: serverIds[n % SERVERS], username: `u_${n}`, status: n % 5 < 3 ? 'active' : 'expired',
          sub_token: randomUUID(), metadata: '{}', trial_user_id: n % 10 === 0 ? user.id : null, created_at: user.created_at, updated_at: user.created_at,
        };
      }));
      const payers = users.filter((_, j) => (from + j) % 10 < 3);
      const subscriptions = payers.map((user) => ({ id: randomUUID(), user_id: user.id, status: 'active', metadata: '{}', created_at: user.created_at, updated_at: user.created_at }));
      await trx('subscriptions').insert(subscriptions);
      await trx('transactions').insert(subscriptions.map((sub, j) => ({
        id: randomUUID(), subscription_id: sub.id, user_id: sub.user_id, status: j % 20 === 0 ? 'refunded' : 'succeeded', amount: 999,
        amount_refunded: j % 20 === 0 ? 999 : 0, currency: 'usd', metadata: '{}', created_at: sub.created_at, updated_at: sub.created_at,
      })));
    }
    const stats = Array.from({ length: DAYS }, (_, back) => new Date(now.getTime() - (back + 1) * DAY_MS).toISOString().slice(0, 10)).flatMap((day, back) => [
      { metric: 'active_accounts', day, server_id: '', value: Math.round((USERS * 0.6 * (DAYS - back)) / DAYS), updated_at: now },
      ...serverIds.map((serverId) => ({ metric: 'traffic_bytes', day, server_id: serverId, value: 50 * 1024 ** 3, updated_at: now })),
    ]);
    for (let i = 0; i < stats.length; i += 100) await trx('daily_stats').insert(stats.slice(i, i + 100));
  });
  if (dialectOf(db) === 'postgres') {
    for (const table of ['user_profiles', 'vpn_accounts', 'subscriptions', 'transactions', 'daily_stats']) await db.raw('VACUUM ANALYZE ??', [table]);
  } else {
    await db.raw('ANALYZE');
  }
}

/** A mailer that keeps the sign-in codes, and an admin's bearer token got through `inject`. */
async function signInAdmin(app: FastifyInstance, mail: { last?: MailMessage }): Promise<string> {
  await app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email: ADMIN } });
  const code = /(\d{6}) is your/.exec(mail.last?.subject ?? '')?.[1];
  const verify = await app.inject({ method: 'POST', url: '/api/auth/verify', payload: { email: ADMIN, code, client: 'desktop' } });
  if (verify.statusCode !== 200) throw new Error(`sign-in failed: ${verify.body}`);
  return `Bearer ${verify.json().accessToken as string}`;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function run(name: string, db: Db): Promise<boolean> {
  await migrateToLatest(db);
  const mail: { last?: MailMessage } = {};
  const mailer: Mailer = { kind: 'log', send: async (message) => void (mail.last = message), verify: async () => true, close() {} };
  const app = await buildApp({
    config: loadConfig({ NODE_ENV: 'production', APP_SECRET: 'bench-secret-bench-secret-bench-secret-00', SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn', ADMIN_EMAILS: ADMIN }),
    db, mailer, logger: false,
  });
  try {
    await app.ready();
    const started = performance.now();
    await seed(db, new Date());
    const seeded = (performance.now() - started) / 1000;
    await app.services.overview.takeSnapshot(); // as the hourly job has
    const authorization = await signInAdmin(app, mail);
    const request = async () => {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url: '/api/admin/overview?days=90', headers: { authorization } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body}`);
      return { ms, body: res.json() as { totals: { users: number; activeAccounts: number; revenue: number } } };
    };
    for (let i = 0; i < WARMUP; i += 1) await request();
    const times: number[] = [];
    let totals = (await request()).body.totals;
    for (let i = 0; i < REQUESTS; i += 1) {
      const { ms, body } = await request();
      times.push(ms);
      totals = body.totals;
    }
    times.sort((a, b) => a - b);
    const median = percentile(times, 50);
    const p95 = percentile(times, 95);
    const ok = p95 < TARGET_MS;
    console.log(`${name.padEnd(10)} ${USERS.toLocaleString('en')} users seeded in ${seeded.toFixed(1)} s; ${REQUESTS} requests: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms ${ok ? 'ok' : `OVER ${TARGET_MS} ms`}`);
    console.log(`${''.padEnd(10)} totals: ${totals.users.toLocaleString('en')} users, ${totals.activeAccounts.toLocaleString('en')} active accounts, revenue ${(totals.revenue / 100).toFixed(2)} in 90 days`);
    return ok;
  } finally {
    await app.close();
  }
}

console.log(`GET /api/admin/overview?days=90 through buildApp() and app.inject, one request at a time`);
const dir = mkdtempSync(join(tmpdir(), 'vpn-overview-bench-'));
const sqlite = createDb(`sqlite:${join(dir, 'app.db')}`);
let allOk = true;
try {
  allOk = (await run('SQLite', sqlite)) && allOk;
} finally {
  await sqlite.destroy();
  rmSync(dir, { recursive: true, force: true });
}
if (process.env.BENCH_SKIP_POSTGRES !== '1') {
  const postgres = await openBenchDatabase();
  try {
    allOk = (await run('PostgreSQL', postgres.db)) && allOk;
  } finally {
    await postgres.drop();
  }
}
if (!allOk) process.exitCode = 1;
