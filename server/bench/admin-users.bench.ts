/**
 * `npx tsx server/bench/admin-users.bench.ts [--million]` (in `npm run bench`): the admin's users list
 * through the whole app (`buildApp()`, SQLite, logging off) at 10,000 and 100,000 users (and 1,000,000
 * with `--million` or BENCH_MILLION=1): the first page, a page deep in the list, an e-mail prefix search
 * and an exact address, each with autocannon (100 connections, BENCH_DURATION s, default 5) next to a
 * trivial route (`GET /robots.txt`) in the same run.
 *
 * Target (issue 13): at the largest size each route within 20 % of its 10,000-user figure (as a ratio
 * to the trivial route, which takes out how busy the machine is). Reported, not fatal.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createCodeCatcher } from './bench-kit.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const MILLION = process.argv.includes('--million') || process.env.BENCH_MILLION === '1';
const SIZES = MILLION ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
const BATCH = 500;

interface Measured {
  reqPerSec: number;
  p99: number;
  ratio: number;
}

/**
 * Adds users up to `total`: random addresses (so a two-letter prefix matches about 1 in 256), one second
 * apart; every fifth has an active VPN account and one in a hundred a past-due subscription.
 */
async function seedUsers(db: Db, from: number, total: number): Promise<void> {
  const base = Date.UTC(2024, 0, 1);
  await db.transaction(async (trx) => {
    for (let i = from; i < total; i += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, total - i) }, (_, j) => ({
        id: randomUUID(), email: `${randomBytes(5).toString('hex')}.${i + j}@bench.example.com`, role: 'user', trial_used: false,
        created_at: new Date(base + (i + j) * 1000), updated_at: new Date(base),
      }));
      await trx('user_profiles').insert(rows);
      const now = new Date(base);
      const accounts = rows.filter((_, j) => (i + j) % 5 === 0).map((row) => ({
        id: randomUUID(), user_id: row.id, username: `u_${row.id.slice(0, 12)}`, status: 'active', sub_token: randomUUID(), metadata: '{}', created_at: now, updated_at: now,
      }));
      if (accounts.length) await trx('vpn_accounts').insert(accounts);
      const pastDue = rows.filter((_, j) => (i + j) % 100 === 0).map((row) => ({ id: randomUUID(), user_id: row.id, status: 'past_due', metadata: '{}', created_at: now, updated_at: now }));
      if (pastDue.length) await trx('subscriptions').insert(pastDue);
    }
  });
}

async function measure(base: string, path: string, headers: Record<string, string>, duration = DURATION): Promise<Omit<Measured, 'ratio'>> {
  const result = await autocannon({ url: `${base}${path}`, connections: CONNECTIONS, duration, headers });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${path}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return { reqPerSec: result.requests.average, p99: result.latency.p99 };
}

const dir = mkdtempSync(join(tmpdir(), 'vpn-admin-users-bench-'));
const db = createDb(`sqlite:${join(dir, 'app.db')}`);
const codes = createCodeCatcher();
const app = await buildApp({
  config: loadConfig({ NODE_ENV: 'production', APP_SECRET: 'bench-secret-bench-secret-bench-secret-00', SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn', ADMIN_EMAILS: 'admin@bench.example.com' }),
  db, mailer: codes.mailer, logger: false,
});
try {
  await migrateToLatest(db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const bearer = await codes.signIn(base, 'admin@bench.example.com');

  const results = new Map<number, Map<string, Measured>>();
  let seeded = 0;
  console.log(`Admin users list through buildApp(), SQLite, ${CONNECTIONS} connections, ${DURATION} s each; ratio to the trivial route in the same run`);
  for (const size of SIZES) {
    const started = Date.now();
    await seedUsers(db, seeded, size);
    seeded = size;
    const middle = await db('user_profiles').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).offset(Math.floor(size / 2)).first('id');
    const known = await db('user_profiles').where('email', 'like', 'ab%').orderBy('email').first('email');
    const routes: Array<[name: string, path: string]> = [
      ['trivial: GET /robots.txt', '/robots.txt'],
      ['first page (50)', '/api/admin/users'],
      ['a page halfway down', `/api/admin/users?after=${middle.id}`],
      ['prefix search "ab"', '/api/admin/users?q=ab'],
      ['exact address', `/api/admin/users?q=${encodeURIComponent(known.email)}`],
      ['has an active account', '/api/admin/users?active=true'],
      ['payment past due', '/api/admin/users?pastDue=true'],
    ];
    console.log(`\n${size.toLocaleString('en')} users (seeded in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    // A cold process answers its first seconds slowly: warm every route up before the first figures.
    if (size === SIZES[0]) for (const [, path] of routes) await measure(base, path, path.startsWith('/api') ? bearer : {}, 2);
    const bySize = new Map<string, Measured>();
    let trivial = 0;
    for (const [name, path] of routes) {
      const measured = await measure(base, path, path.startsWith('/api') ? bearer : {});
      if (trivial === 0) trivial = measured.reqPerSec;
      const row = { ...measured, ratio: measured.reqPerSec / trivial };
      bySize.set(name, row);
      const small = results.get(SIZES[0]!)?.get(name);
      const flat = small && name !== routes[0]![0]
        ? `  vs 10k: ratio ${(row.ratio / small.ratio).toFixed(2)}, req/s ${(row.reqPerSec / small.reqPerSec).toFixed(2)}${row.ratio / small.ratio >= 0.8 ? ' ok' : ' SLOWER than 20 %'}`
        : '';
      console.log(`  ${name.padEnd(26)} ${row.reqPerSec.toFixed(0).padStart(7)} req/s  p99 ${String(row.p99).padStart(4)} ms  ratio ${row.ratio.toFixed(2)}${flat}`);
    }
    results.set(size, bySize);
  }
} finally {
  await app.close();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
}
