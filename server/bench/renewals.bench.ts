/**
 * `npm run bench:renewals` (also part of `npm run bench`): auto-renewals per second, exactly once, with a
 * panel that answers every request in 200 ms, on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL,
 * else postgres://postgres@127.0.0.1:5432/test, in a schema of its own), or with BENCH_DATABASE=sqlite on
 * a SQLite file of its own.
 *
 * K customers subscribe to a monthly recurring plan (the fake Stripe behind the real SDK, each customer
 * on a test clock of its own) and get their accounts. Then the panel slows to 200 ms per request, every
 * clock is advanced past its period end with no webhook endpoint, and the renewal events (invoice.paid
 * and the rest) are POSTed C at a time, every invoice.paid twice. Measured: renewal webhooks accepted
 * per second, and renewals applied per second (until every account's panel expiry is its new period end
 * plus the grace period). One app instance, one job worker running JOB_CONCURRENCY jobs at once (the app's default when unset).
 *
 * BENCH_SUBSCRIBERS (K, default 60), BENCH_CONCURRENCY (C, default 20), BENCH_PANEL_DELAY_MS (default 200).
 * BENCH_QUEUE_FIRST=1: the worker waits until every event is accepted, and renewals are timed from when it
 * starts: the job queue's own rate, not bounded by how fast the webhooks arrive.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { PlanBody } from '../../shared/plans.js';
import { buildApp } from '../src/app.js';
import { createDb, dialectOf, type Db } from '../src/db/knex.js';
import { DEFAULT_CONCURRENCY } from '../src/jobs/worker.js';
import type { Mailer } from '../src/mail/mailer.js';
import { asMarzneshinUser, startFakeMarzneshin } from '../test/fake-panels/marzneshin.js';
import { startFakeStripe, type StripeEventObject } from '../test/fake-stripe/index.js';
import { BENCH_STRIPE_KEYS, openBenchDatabase, startBenchShop, until } from './bench-kit.js';
import { count, printChecks, runPool, type ExactlyOnceCheck } from './webhook.bench.js';

const GB = 1024 ** 3;
const GRACE_MS = 3 * 24 * 3600 * 1000;
const POLL_MS = 50;
const TIMEOUT_MS = 300_000;

/** PostgreSQL (the kit's schema of its own), or with BENCH_DATABASE=sqlite a SQLite file in a temporary folder. */
async function openDatabase(): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (process.env.BENCH_DATABASE !== 'sqlite') return openBenchDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'bench-renewals-'));
  const db = createDb(`sqlite:${join(dir, 'app.db')}`);
  return {
    db,
    drop: async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RenewalsBenchResult {
  database: string;
  jobConcurrency: number;
  subscribers: number;
  concurrency: number;
  panelDelayMs: number;
  eventsPosted: number;
  acceptPerSec: number;
  /** Mean time a delivery waited for its answer. */
  acceptLatencyMs: number;
  /** Renewals timed from the worker's start once every event was in (BENCH_QUEUE_FIRST), not from the first delivery. */
  queueFirst: boolean;
  renewalsPerSec: number;
  checks: ExactlyOnceCheck[];
}

export async function benchRenewals(
  options: { subscribers?: number; concurrency?: number; panelDelayMs?: number; queueFirst?: boolean } = {},
): Promise<RenewalsBenchResult> {
  const queueFirst = options.queueFirst ?? process.env.BENCH_QUEUE_FIRST === '1';
  const k = options.subscribers ?? Number(process.env.BENCH_SUBSCRIBERS ?? 60);
  const concurrency = options.concurrency ?? Number(process.env.BENCH_CONCURRENCY ?? 20);
  const panelDelayMs = options.panelDelayMs ?? Number(process.env.BENCH_PANEL_DELAY_MS ?? 200);
  const { db, drop } = await openDatabase();
  const panel = await startFakeMarzneshin();
  const stripe = await startFakeStripe({ secretKey: BENCH_STRIPE_KEYS.secretKey, webhookSecret: BENCH_STRIPE_KEYS.webhookSecret, webhookUrl: null });
  let receipts = 0;
  const mailer: Mailer = { kind: 'log', send: async (m) => void (/receipt/i.test(m.subject) && (receipts += 1)), verify: async () => true, close() {} };
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    const env: Record<string, string> = { STRIPE_TEST_CLOCKS: 'true' };
    if (process.env.JOB_CONCURRENCY) env.JOB_CONCURRENCY = process.env.JOB_CONCURRENCY;
    const shop = await startBenchShop({ db, stripe, panel, mailer, env });
    app = shop.app;
    const { services } = app;
    const { actor, post } = shop;
    const plan = await services.plans.createPlan(
      actor,
      PlanBody.parse({ name: 'Bench Auto', days: 30, dataLimitBytes: 10 * GB, price: 499, billing: 'recurring' }),
    );

    // K subscribers, each with a provisioned account (events delivered in order, as Stripe sends them).
    const users = await shop.addCustomers('subscriber', k);
    const sessionIds: string[] = [];
    await runPool([...users], 10, async (user) => void sessionIds.push((await services.checkout.startCheckout(user, { planId: plan.id })).sessionId));
    for (const id of sessionIds) {
      const from = stripe.events.length;
      await stripe.pay(id);
      for (const event of stripe.events.slice(from)) await post(event);
    }
    app.jobWorker.start();
    await until(async () => (await count(db, 'vpn_accounts', (q) => q.where({ status: 'active' }))) >= k, TIMEOUT_MS, POLL_MS);

    // Every clock past its period end, no webhook endpoint: the renewal events are collected.
    panel.faults.delayMs = panelDelayMs;
    const sessions = sessionIds.map((id) => stripe.getSession(id)!);
    const from = stripe.events.length;
    for (const session of sessions) await stripe.advanceToNextRenewal(stripe.getCustomer(session.customer as string)!.test_clock as string);
    const renewalEvents = stripe.events.slice(from).filter((event) => !event.type.startsWith('test_helpers.'));
    const queue: StripeEventObject[] = renewalEvents.flatMap((event): StripeEventObject[] => (event.type === 'invoice.paid' ? [event, event] : [event]));
    const answers = { applied: 0, duplicate: 0, unexpected: 0 };
    const posted = queue.length;
    if (queueFirst) await app.jobWorker.stop();
    const started = performance.now();
    await runPool(queue, concurrency, async (event) => {
      const res = await post(event);
      if (res.status !== 200) answers.unexpected += 1;
      else if (res.body.duplicate) answers.duplicate += 1;
      else answers.applied += 1;
    });
    const acceptSeconds = (performance.now() - started) / 1000;
    const renewalsFrom = queueFirst ? performance.now() : started;
    if (queueFirst) app.jobWorker.start();
    const acceptLatencyMs = (acceptSeconds * 1000 * concurrency) / posted;
    const renewedEnd = (session: (typeof sessions)[number]) => stripe.getSubscription(session.subscription as string)!.items.data[0]!.current_period_end * 1000;
    const expiryOf = (accountId: string) => {
      const user = [...panel.users.values()].map(asMarzneshinUser).find((u) => u.note === accountId);
      return user?.expire_date ? new Date(`${user.expire_date}Z`).getTime() : 0;
    };
    const renewedAccounts = () => sessions.filter((s) => expiryOf(s.metadata!.vpn_account_id!) === renewedEnd(s) + GRACE_MS).length;
    await until(async () => renewedAccounts() >= k && receipts >= 2 * k, TIMEOUT_MS, POLL_MS);
    const appliedSeconds = (performance.now() - renewalsFrom) / 1000;
    const paidInvoices = renewalEvents.filter((event) => event.type === 'invoice.paid').length;

    const checks: ExactlyOnceCheck[] = [
      { name: 'renewal invoices paid at Stripe', expected: k, actual: paidInvoices },
      { name: 'invoice.paid duplicates answered {duplicate:true}', expected: paidInvoices, actual: answers.duplicate },
      { name: 'unexpected answers', expected: 0, actual: answers.unexpected },
      {
        name: 'renewal transactions succeeded',
        expected: k,
        actual: await count(db, 'transactions', (q) =>
          q
            .where({ status: 'succeeded' })
            .whereNotNull('provider_invoice_id')
            .whereRaw(`${dialectOf(db) === 'postgres' ? 'metadata::text' : 'metadata'} like '%renewal%'`),
        ),
      },
      {
        name: 'all transactions succeeded (first + renewal)',
        expected: 2 * k,
        actual: await count(db, 'transactions', (q) => q.where({ status: 'succeeded' })),
      },
      { name: 'accounts at their new period end + grace', expected: k, actual: renewedAccounts() },
      { name: 'panel users (one per account)', expected: k, actual: panel.users.size },
      { name: 'receipts mailed', expected: 2 * k, actual: receipts },
      { name: 'subscriptions (one per customer)', expected: k, actual: await count(db, 'subscriptions', (q) => q.where({ billing: 'recurring' })) },
    ];
    return {
      database: dialectOf(db),
      queueFirst,
      jobConcurrency: Number(process.env.JOB_CONCURRENCY ?? DEFAULT_CONCURRENCY),
      subscribers: k,
      concurrency,
      panelDelayMs,
      eventsPosted: posted,
      acceptLatencyMs,
      acceptPerSec: posted / acceptSeconds,
      renewalsPerSec: k / appliedSeconds,
      checks,
    };
  } finally {
    await app?.close();
    await stripe.close();
    await panel.close();
    await drop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchRenewals();
  console.log(
    `Auto-renewals, ${r.database}, fake Stripe (test clocks) + fake Marzneshin answering in ${r.panelDelayMs} ms, one app instance, one job worker running ${r.jobConcurrency} jobs at once`,
  );
  console.log(
    `  renewal webhooks accepted: ${r.acceptPerSec.toFixed(0)} /s (${r.eventsPosted} events for ${r.subscribers} renewals, every invoice.paid twice, ${r.concurrency} at a time; mean ${r.acceptLatencyMs.toFixed(0)} ms)`,
  );
  console.log(
    `  renewals applied:          ${r.renewalsPerSec.toFixed(2)} /s (${r.queueFirst ? "from the worker's start, every event already accepted, " : ''}until every panel account has its new expiry and both receipts are mailed)`,
  );
  printChecks(r.checks);
}
