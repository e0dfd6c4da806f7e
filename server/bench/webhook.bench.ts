/**
 * `npx tsx server/bench/webhook.bench.ts`: distinct paid events per second processed end to end, with
 * no duplicates. The real app (SQLite, listening on 127.0.0.1, request logging off) with the fake Stripe
 * behind the real SDK and a fake Marzneshin panel. N users each start a checkout; every session is paid
 * on the fake Stripe without a webhook; then all N signed `checkout.session.completed` events are POSTed
 * to `/api/webhooks/stripe` over HTTP, C at a time, every 10th one a second time once its first delivery
 * was answered, while the job worker provisions the accounts. Measured: webhook acceptance (N / time
 * until every delivery has its 200), end to end (N / time until every account is active with its link),
 * webhook latency; checked: exactly one succeeded transaction, provisioning job and panel user per
 * payment, and every duplicate answered `{"duplicate":true}` (any failure: exit code 1).
 *
 * BENCH_EVENTS (N, default 300), BENCH_CONCURRENCY (C, default 20), BENCH_WORKER_CONCURRENCY (job loops,
 * default 1 = the app's own worker as main.ts runs it; more adds a second worker on the same queue).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { PlanBody } from '../../shared/plans.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createJobWorker, type JobWorker } from '../src/jobs/worker.js';
import { systemClock } from '../src/lib/clock.js';
import { PROVISION_PAID_ACCOUNT } from '../src/modules/billing/checkout/payment-confirmation.js';
import type { UserProfile } from '../src/modules/users/users.repo.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../src/plugins/rate-limit.js';
import { asMarzneshinUser, startFakeMarzneshin } from '../test/fake-panels/marzneshin.js';
import { startFakeStripe, type StripeEventObject } from '../test/fake-stripe/index.js';

const STRIPE_KEYS = {
  publishableKey: 'pk_test_benchPublishable0000',
  secretKey: 'sk_test_benchSecret000000000000',
  webhookSecret: 'whsec_benchWebhookSecret0000000000',
};
const GB = 1024 ** 3;
/** Every 10th event is delivered twice. */
const DUPLICATE_EVERY = 10;
const POLL_MS = 20;

export interface ExactlyOnceCheck {
  name: string;
  expected: number;
  actual: number;
}

export interface WebhookBenchResult {
  events: number;
  concurrency: number;
  workerConcurrency: number;
  duplicatesSent: number;
  /** Seconds from the first POST until every delivery (originals and duplicates) was answered 200. */
  acceptSeconds: number;
  acceptPerSec: number;
  /** Seconds from the first POST until every account was active with its subscription link. */
  endToEndSeconds: number;
  endToEndPerSec: number;
  latencyP50: number;
  latencyP99: number;
  latencyMax: number;
  /** Requests the fake panel received while the accounts were provisioned, per account. */
  panelRequestsPerAccount: number;
  /** Those requests by method and route, e.g. `POST /api/users`. */
  panelRequestsByRoute: Record<string, number>;
  checks: ExactlyOnceCheck[];
}

/** Runs `task` over `items`, at most `limit` at a time; the queue may grow while it runs. */
/** Prints each check as ok or FAIL; any failure sets the exit code to 1. */
export function printChecks(checks: ExactlyOnceCheck[]): void {
  let failed = 0;
  for (const check of checks) {
    const ok = check.actual === check.expected;
    if (!ok) failed += 1;
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.actual}${ok ? '' : ` (expected ${check.expected})`}`);
  }
  if (failed > 0) {
    console.error(`exactly-once checks failed: ${failed}`);
    process.exitCode = 1;
  }
}

export async function runPool<T>(queue: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (queue.length === 0 && active === 0) return resolve();
      while (active < limit && queue.length > 0) {
        const item = queue.shift()!;
        active += 1;
        task(item).then(() => {
          active -= 1;
          pump();
        }, reject);
      }
    };
    pump();
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function count(db: Db, table: string, where: (q: ReturnType<Db>) => unknown = () => {}): Promise<number> {
  const query = db(table);
  where(query);
  return Number((await query.count({ n: '*' }).first())?.n ?? 0);
}

export async function benchWebhooks(
  options: { events?: number; concurrency?: number; workerConcurrency?: number; timeoutSeconds?: number } = {},
): Promise<WebhookBenchResult> {
  const n = options.events ?? Number(process.env.BENCH_EVENTS ?? 300);
  const concurrency = options.concurrency ?? Number(process.env.BENCH_CONCURRENCY ?? 20);
  const workerConcurrency = options.workerConcurrency ?? Number(process.env.BENCH_WORKER_CONCURRENCY ?? 1);
  const timeoutMs = (options.timeoutSeconds ?? Math.max(120, n)) * 1000;
  for (const [name, value] of Object.entries({ BENCH_EVENTS: n, BENCH_CONCURRENCY: concurrency, BENCH_WORKER_CONCURRENCY: workerConcurrency })) {
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1 (got ${value})`);
  }

  const dir = mkdtempSync(join(tmpdir(), 'vpn-webhook-bench-'));
  const db = createDb(`sqlite:${join(dir, 'app.db')}`);
  const panel = await startFakeMarzneshin();
  const stripe = await startFakeStripe({ secretKey: STRIPE_KEYS.secretKey, webhookSecret: STRIPE_KEYS.webhookSecret, webhookUrl: null });
  const generous = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, { max: 1_000_000, windowSeconds: 60 }])) as unknown as RateLimits;
  let extraWorker: JobWorker | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await migrateToLatest(db);
    const config = loadConfig({
      NODE_ENV: 'test',
      APP_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
      PUBLIC_URL: 'http://127.0.0.1:3000',
      STRIPE_API_URL: stripe.url,
      LOG_LEVEL: 'warn',
    });
    app = await buildApp({ config, db, logger: false, rateLimits: generous });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const webhookUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/webhooks/stripe`;
    const { services } = app;

    // A server on the fake panel, a paid plan and card payments, through the services.
    const actor = { id: null, email: 'bench', ip: null };
    const server = await services.servers.createServer(actor, {
      kind: 'marzneshin',
      name: 'Bench',
      url: panel.url,
      username: panel.admin.username,
      password: panel.admin.password,
      serviceId: '1',
      locations: 'all',
      premium: false,
    });
    const plan = await services.plans.createPlan(
      actor,
      PlanBody.parse({
        name: 'Bench Monthly',
        days: 30,
        dataLimitBytes: 10 * GB,
        locations: 'all',
        price: 499,
        status: 'active',
        isTrial: false,
      }),
    );
    await services.card.updateSettings({ enabled: true, ...STRIPE_KEYS }, new Date());

    // N customers, one checkout each, each paid on the fake Stripe with no webhook sent yet.
    const now = new Date();
    const users: UserProfile[] = Array.from({ length: n }, (_, i) => ({
      id: randomUUID(),
      email: `buyer${i + 1}@bench.example.com`,
      role: 'user',
      trialUsed: false,
      locale: null,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < users.length; i += 100) {
      await db('user_profiles').insert(
        users.slice(i, i + 100).map((u) => ({
          id: u.id,
          email: u.email,
          role: u.role,
          trial_used: false,
          created_at: now,
          updated_at: now,
        })),
      );
    }
    const sessionIds: string[] = [];
    await runPool([...users], 10, async (user) => {
      sessionIds.push((await services.checkout.startCheckout(user, { planId: plan.id })).sessionId);
    });
    stripe.setWebhookUrl(null);
    const events: StripeEventObject[] = [];
    for (const id of sessionIds) events.push(await stripe.pay(id));
    const accountIds = new Set(sessionIds.map((id) => stripe.getSession(id)!.metadata!.vpn_account_id!));
    if (accountIds.size !== n) throw new Error(`expected ${n} distinct waiting accounts, got ${accountIds.size}`);

    const panelRequestsBefore = panel.requests.length;
    // The worker(s), polling as in production (main.ts starts app.jobWorker after listening).
    app.jobWorker.start();
    if (workerConcurrency > 1) {
      extraWorker = createJobWorker({
        repo: services.jobs,
        clock: systemClock,
        log: app.log,
        handlers: services.jobHandlers,
        concurrency: workerConcurrency - 1,
      });
      extraWorker.start();
    }

    // Deliver: originals first in order; a duplicate joins the queue once its original was answered.
    const latencies: number[] = [];
    const answers = { original: 0, duplicate: 0, unexpected: [] as string[] };
    type Delivery = { event: StripeEventObject; index: number; duplicate: boolean };
    const queue: Delivery[] = events.map((event, index) => ({ event, index, duplicate: false }));
    let duplicatesSent = 0;
    const started = performance.now();
    const deliveriesDone = runPool(queue, concurrency, async ({ event, index, duplicate }) => {
      const { body, signature } = stripe.signedDelivery(event);
      const t0 = performance.now();
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body,
      });
      const text = await res.text();
      latencies.push(performance.now() - t0);
      const json = res.status === 200 ? (JSON.parse(text) as { received?: boolean; duplicate?: boolean }) : {};
      if (!duplicate && res.status === 200 && json.received === true && json.duplicate === undefined) answers.original += 1;
      else if (duplicate && res.status === 200 && json.received === true && json.duplicate === true) answers.duplicate += 1;
      else answers.unexpected.push(`${duplicate ? 'duplicate' : 'original'} #${index}: HTTP ${res.status} ${text.slice(0, 200)}`);
      if (!duplicate && index % DUPLICATE_EVERY === 0) {
        duplicatesSent += 1;
        queue.push({ event, index, duplicate: true });
      }
    });
    await deliveriesDone;
    const acceptSeconds = (performance.now() - started) / 1000;

    // Until every account is active with its subscription link (or the time limit).
    let active = 0;
    for (;;) {
      active = await count(db, 'vpn_accounts', (q) => q.where({ status: 'active' }).whereNotNull('subscription_url'));
      if (active >= n) break;
      if (performance.now() - started > timeoutMs) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const endToEndSeconds = (performance.now() - started) / 1000;
    const panelRequests = panel.requests.slice(panelRequestsBefore);
    const panelRequestsPerAccount = panelRequests.length / n;
    const panelRequestsByRoute: Record<string, number> = {};
    for (const request of panelRequests) {
      const route = `${request.method} ${request.path
        .split('?')[0]!
        .replace(/^\/api\/users\/[^/]+/, '/api/users/:username')
        .replace(/^\/sub\/[^/]+\/[^/]+/, '/sub/:username/:key')}`;
      panelRequestsByRoute[route] = (panelRequestsByRoute[route] ?? 0) + 1;
    }

    // Exactly once.
    const ours = (note: string | null | undefined) => note !== null && note !== undefined && accountIds.has(note);
    const panelUsers = [...panel.users.values()].map(asMarzneshinUser);
    const notes = panelUsers.filter((u) => ours(u.note)).map((u) => u.note);
    const checks: ExactlyOnceCheck[] = [
      { name: 'webhook answers {received:true} (first deliveries)', expected: n, actual: answers.original },
      { name: 'duplicates answered {duplicate:true}', expected: duplicatesSent, actual: answers.duplicate },
      { name: 'unexpected webhook answers', expected: 0, actual: answers.unexpected.length },
      { name: 'webhook events recorded', expected: n, actual: await count(db, 'webhook_events') },
      { name: 'succeeded transactions', expected: n, actual: await count(db, 'transactions', (q) => q.where({ status: 'succeeded' })) },
      { name: 'transactions in all', expected: n, actual: await count(db, 'transactions') },
      { name: 'provisioning jobs', expected: n, actual: await count(db, 'jobs', (q) => q.where({ type: PROVISION_PAID_ACCOUNT })) },
      { name: 'provisioning jobs done', expected: n, actual: await count(db, 'jobs', (q) => q.where({ type: PROVISION_PAID_ACCOUNT, status: 'done' })) },
      {
        name: 'provisioning jobs run more than once',
        expected: 0,
        actual: await count(db, 'jobs', (q) => q.where({ type: PROVISION_PAID_ACCOUNT }).where('attempts', '>', 1)),
      },
      { name: 'panel users carrying our markers', expected: n, actual: notes.length },
      { name: 'distinct markers on the panel', expected: n, actual: new Set(notes).size },
      { name: 'panel users in all', expected: n, actual: panelUsers.length },
      { name: 'accounts active with a link', expected: n, actual: active },
      { name: 'accounts in all', expected: n, actual: await count(db, 'vpn_accounts') },
      { name: 'accounts on the bench server', expected: n, actual: await count(db, 'vpn_accounts', (q) => q.where({ master_server_id: server.id })) },
    ];
    for (const line of answers.unexpected.slice(0, 5)) process.stderr.write(`  unexpected answer: ${line}\n`);

    latencies.sort((a, b) => a - b);
    return {
      events: n,
      concurrency,
      workerConcurrency,
      duplicatesSent,
      acceptSeconds,
      acceptPerSec: n / acceptSeconds,
      endToEndSeconds,
      endToEndPerSec: n / endToEndSeconds,
      latencyP50: percentile(latencies, 50),
      latencyP99: percentile(latencies, 99),
      latencyMax: latencies.at(-1) ?? 0,
      panelRequestsPerAccount,
      panelRequestsByRoute,
      checks,
    };
  } finally {
    await extraWorker?.stop();
    await app?.close();
    await stripe.close();
    await panel.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchWebhooks();
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    `Stripe webhooks → paid accounts, SQLite, fake Stripe + fake Marzneshin, ${r.events} events ` +
      `(+${r.duplicatesSent} duplicates), ${r.concurrency} concurrent deliveries, job worker concurrency ${r.workerConcurrency}`,
  );
  console.log(`  webhook acceptance: ${r.acceptPerSec.toFixed(0)} events/s (${r.acceptSeconds.toFixed(2)} s for all 200s)`);
  console.log(`  paid → active:      ${r.endToEndPerSec.toFixed(1)} accounts/s (${r.endToEndSeconds.toFixed(2)} s until all active)`);
  console.log(`  webhook latency:    p50 ${ms(r.latencyP50)}, p99 ${ms(r.latencyP99)}, max ${ms(r.latencyMax)}`);
  const routes = Object.entries(r.panelRequestsByRoute)
    .map(([route, count]) => `${route} ×${count}`)
    .join(', ');
  console.log(`  panel requests:     ${r.panelRequestsPerAccount.toFixed(2)} per account (${routes})`);
  printChecks(r.checks);
}
