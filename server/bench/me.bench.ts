/**
 * `npm run bench`: requests per second and p99 latency of GET /api/me with a valid session, on SQLite,
 * against the real app listening on 127.0.0.1 (request logging off). Bounded: 10 connections, 10 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Mailer, MailMessage } from '../src/mail/mailer.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vpn-bench-'));
  const db = createDb(`sqlite:${join(dir, 'app.db')}`);
  await migrateToLatest(db);
  const mailer = memoryMailer();
  const config = loadConfig({ NODE_ENV: 'production', APP_SECRET: 'bench-secret-bench-secret-bench-secret-00', SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn' });
  const app = await buildApp({ config, db, mailer });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const email = 'bench@example.com';
  await fetch(`${base}/api/auth/otp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  const code = /(\d{6}) is your/.exec(mailer.last?.subject ?? '')?.[1];
  const verify = await fetch(`${base}/api/auth/verify`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, code, client: 'desktop' }),
  });
  const { accessToken } = (await verify.json()) as { accessToken: string };

  const result = await autocannon({
    url: `${base}/api/me`,
    headers: { authorization: `Bearer ${accessToken}` },
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
  });
  await app.close();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });

  const ok = result.non2xx === 0 && result.errors === 0;
  console.log(`GET /api/me (valid session, SQLite, ${CONNECTIONS} connections, ${DURATION_SECONDS} s)`);
  console.log(`  requests/s: ${result.requests.average.toFixed(0)} (mean), ${result.requests.p50} (median)`);
  console.log(`  latency:    p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
  console.log(`  responses:  ${result.requests.total} total, ${result.non2xx} non-2xx, ${result.errors} errors`);
  if (!ok) process.exitCode = 1;
}

await main();
