/** What the PostgreSQL money benchmarks share: their own schema, the fake Stripe's keys, open rate limits, and waiting. */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Mailer, MailMessage } from '../src/mail/mailer.js';
import type { UserProfile } from '../src/modules/users/users.repo.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../src/plugins/rate-limit.js';
import type { FakeMarzneshin } from '../test/fake-panels/marzneshin.js';
import type { FakeStripe, StripeEventObject } from '../test/fake-stripe/index.js';

export const BENCH_STRIPE_KEYS = {
  publishableKey: 'pk_test_benchPublishable0000',
  secretKey: 'sk_test_benchSecret000000000000',
  webhookSecret: 'whsec_benchWebhookSecret0000000000',
};

/** No request is refused by a rate limit: the benchmarks measure the work, not the limits. */
export const OPEN_RATE_LIMITS = Object.fromEntries(
  Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, { max: 1_000_000, windowSeconds: 60 }]),
) as unknown as RateLimits;

/** Polls `condition` until it holds or `timeoutMs` passes (the checks then say what is missing). */
export async function until(condition: () => Promise<boolean>, timeoutMs: number, pollMs = 20): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** A fresh schema on the PostgreSQL server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local one), dropped by `drop`. */
export async function openBenchDatabase(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = createDb(url);
  await admin.raw('CREATE SCHEMA ??', [schema]);
  await admin.destroy();
  const db = createDb(url, { searchPath: schema });
  return {
    db,
    drop: async () => {
      await db.raw('DROP SCHEMA ?? CASCADE', [schema]);
      await db.destroy();
    },
  };
}

/**
 * The real app listening on 127.0.0.1 over `db` (migrated here), with the fake panel as its server and
 * card payments on against the fake Stripe; `post` delivers a signed event to its webhook over HTTP, and
 * `addCustomers` inserts users straight into the database.
 */
export async function startBenchShop(deps: { db: Db; stripe: FakeStripe; panel: FakeMarzneshin; mailer: Mailer; env?: Record<string, string> }) {
  const { db, stripe, panel } = deps;
  await migrateToLatest(db);
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    PUBLIC_URL: 'http://127.0.0.1:3000',
    STRIPE_API_URL: stripe.url,
    LOG_LEVEL: 'warn',
    ...deps.env,
  });
  const app = await buildApp({ config, db, logger: false, rateLimits: OPEN_RATE_LIMITS, mailer: deps.mailer });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const webhookUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/webhooks/stripe`;
  const actor = { id: null, email: 'bench', ip: null };
  await app.services.servers.createServer(actor, {
    kind: 'marzneshin',
    name: 'Bench',
    url: panel.url,
    username: panel.admin.username,
    password: panel.admin.password,
    serviceId: '1',
    locations: 'all',
    premium: false,
  });
  await app.services.card.updateSettings({ enabled: true, ...BENCH_STRIPE_KEYS }, new Date());
  return {
    app,
    actor,
    async post(event: StripeEventObject): Promise<{ status: number; body: { received?: boolean; duplicate?: boolean } }> {
      const { body, signature } = stripe.signedDelivery(event);
      const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body });
      return { status: res.status, body: (await res.json()) as { received?: boolean; duplicate?: boolean } };
    },
    async addCustomers(prefix: string, n: number): Promise<UserProfile[]> {
      const now = new Date();
      const users: UserProfile[] = Array.from({ length: n }, (_, i) => ({
        id: randomUUID(),
        email: `${prefix}${i}@bench.example.com`,
        role: 'user',
        trialUsed: false,
        locale: null,
        createdAt: now,
        updatedAt: now,
      }));
      await db.batchInsert(
        'user_profiles',
        users.map((u) => ({ id: u.id, email: u.email, role: 'user', trial_used: false, created_at: now, updated_at: now })),
        100,
      );
      return users;
    },
  };
}

/**
 * A mailer that keeps the last message, and a desktop sign-in through the running app's API with the
 * code it caught: the `Authorization` header to send.
 */
export function createCodeCatcher() {
  let last: MailMessage | undefined;
  const mailer: Mailer = { kind: 'log', send: async (message) => void (last = message), verify: async () => true, close() {} };
  return {
    mailer,
    async signIn(base: string, email: string): Promise<{ authorization: string }> {
      await fetch(`${base}/api/auth/otp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      const code = /(\d{6}) is your/.exec(last?.subject ?? '')?.[1];
      const verify = await fetch(`${base}/api/auth/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, code, client: 'desktop' }),
      });
      const { accessToken } = (await verify.json()) as { accessToken: string };
      return { authorization: `Bearer ${accessToken}` };
    },
  };
}

/** The least a site needs for `/robots.txt` (the trivial route) when none is built, written under `dir`. */
export function writeMinimalSite(dir: string): string {
  const site = join(dir, 'site');
  mkdirSync(site);
  writeFileSync(join(site, 'manifest.json'), JSON.stringify({ pages: [], appPaths: ['/dashboard'], shell: 'shell.html', notFound: '404.html' }));
  writeFileSync(join(site, 'shell.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(site, '404.html'), '<!doctype html><p>Not found</p>');
  return site;
}
