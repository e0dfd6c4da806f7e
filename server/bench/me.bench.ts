/**
 * `npm run bench`: requests per second and p99 latency of GET /api/me with a valid session, against the
 * real app listening on 127.0.0.1 (request logging off), and of GET /robots.txt (a trivial route) in the
 * same run for scale. On SQLite; `BENCH_DB=postgres` runs it on PostgreSQL without Redis (a schema of
 * its own on BENCH_DATABASE_URL or TEST_DATABASE_URL). Bounded: 10 connections, 10 s a route.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Mailer, MailMessage } from '../src/mail/mailer.js';
import { openBenchDatabase } from './bench-kit.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ON_POSTGRES = process.env.BENCH_DB === 'postgres';

/** Keeps the sign-in e-mail in memory so the benchmark can read the code. */
function memoryMailer(): Mailer & { last?: MailMessage } {
  const mailer: Mailer & { last?: MailMessage } = {
    kind: 'log',
    async send(message) {
      mailer.last = message;
    },
    async verify() {
      return true;
    },
    close() {},
  };
  return mailer;
}

/** A fresh, migrated database of the kind asked for, and how to get rid of it. */
async function openDatabase(): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (ON_POSTGRES) return openBenchDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'vpn-bench-'));
  const db = createDb(`sqlite:${join(dir, 'app.db')}`);
  return {
    db,
    drop: async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const { db, drop } = await openDatabase();
  await migrateToLatest(db);
  const mailer = memoryMailer();
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    SMTP_URL: 'smtp://127.0.0.1:1',
    PUBLIC_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'warn',
    // What an operator on PostgreSQL sets (the app is handed the open database all the same).
    ...(ON_POSTGRES ? { DATABASE_URL: 'postgres://127.0.0.1/bench' } : {}),
  });
  const app = await buildApp({ config, db, mailer });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // Without Redis on PostgreSQL, the session cache is used only while the LISTEN connection is up.
  while (!app.services.broadcast.hearsOthers()) await new Promise((resolve) => setTimeout(resolve, 20));

  const email = 'bench@example.com';
  await fetch(`${base}/api/auth/otp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  const code = /(\d{6}) is your/.exec(mailer.last?.subject ?? '')?.[1];
  const verify = await fetch(`${base}/api/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, code, client: 'desktop' }),
  });
  const { accessToken } = (await verify.json()) as { accessToken: string };

  const trivial = await autocannon({ url: `${base}/robots.txt`, connections: CONNECTIONS, duration: DURATION_SECONDS });
  const result = await autocannon({
    url: `${base}/api/me`,
    headers: { authorization: `Bearer ${accessToken}` },
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
  });
  await app.close();
  await drop();

  const ok = result.non2xx === 0 && result.errors === 0;
  console.log(`GET /api/me (valid session, ${ON_POSTGRES ? 'PostgreSQL without Redis' : 'SQLite'}, ${CONNECTIONS} connections, ${DURATION_SECONDS} s)`);
  console.log(`  requests/s: ${result.requests.average.toFixed(0)} (mean), ${result.requests.p50} (median)`);
  console.log(`  latency:    p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
  console.log(`  responses:  ${result.requests.total} total, ${result.non2xx} non-2xx, ${result.errors} errors`);
  // Without a built web app /robots.txt is the not-found answer: as trivial, so still the scale.
  const trivialStatus = trivial.non2xx === 0 ? '2xx' : `${trivial.non2xx} non-2xx (web app not built)`;
  console.log(
    `  GET /robots.txt in the same run: ${trivial.requests.average.toFixed(0)} requests/s (${trivialStatus}); /api/me is ${(result.requests.average / trivial.requests.average).toFixed(2)} of it`,
  );
  if (!ok) process.exitCode = 1;
}

await main();
