/**
 * `npx tsx server/bench/money.bench.ts` (part of `npm run bench`): refunds per second and concurrent
 * renewals, exactly once, on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local
 * server at postgres://postgres@127.0.0.1:5432/test, in a schema of its own that is dropped after).
 * The real app listening on 127.0.0.1 with the fake Stripe behind the real SDK and a fake Marzneshin.
 *
 * Refunds: N accounts are bought and provisioned; each payment is refunded in full on the fake Stripe
 * without a webhook; then the N signed `charge.refunded` events are POSTed, C at a time, every 10th
 * one twice. Measured: refunds accepted per second, and until every account is paused on the panel.
 * Renewals: one account, R renewals paid at once, their R `checkout.session.completed` events POSTed
 * all at the same moment. Checked: the account's paid period grew by exactly R × 30 days.
 *
 * BENCH_REFUNDS (N, default 200), BENCH_CONCURRENCY (C, default 20), BENCH_RENEWALS (R, default 40).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { PlanBody } from '../../shared/plans.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, dialectOf, type Db } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Mailer } from '../src/mail/mailer.js';
import { SEND_REFUND_NOTICE, SYNC_PAID_PERIOD } from '../src/modules/billing/payment-reversals.js';
import type { UserProfile } from '../src/modules/users/users.repo.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../src/plugins/rate-limit.js';
import { asMarzneshinUser, startFakeMarzneshin } from '../test/fake-panels/marzneshin.js';
import { startFakeStripe, type StripeEventObject } from '../test/fake-stripe/index.js';
import { count, percentile, printChecks, runPool, type ExactlyOnceCheck } from './webhook.bench.js';

const STRIPE_KEYS = {
  publishableKey: 'pk_test_benchPublishable0000',
  secretKey: 'sk_test_benchSecret000000000000',
  webhookSecret: 'whsec_benchWebhookSecret0000000000',
};
const GB = 1024 ** 3;
const DAY_MS = 24 * 3600 * 1000;
const DUPLICATE_EVERY = 10;
const POLL_MS = 20;
const TIMEOUT_MS = 180_000;

export interface MoneyBenchResult {
  database: string;
  refunds: number;
  concurrency: number;
  duplicatesSent: number;
  refundAcceptPerSec: number;
  refundLatencyP99: number;
  refundsAppliedPerSec: number;
  renewals: number;
  renewalSeconds: number;
  renewalsPerSec: number;
  checks: ExactlyOnceCheck[];
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
  while (!(await condition())) {
    if (performance.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** A fresh schema on the PostgreSQL server (or a throw-away SQLite file when none answers). */
async function openDatabase(): Promise<{ db: Db; drop: () => Promise<void> }> {
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

export async function benchMoney(options: { refunds?: number; concurrency?: number; renewals?: number } = {}): Promise<MoneyBenchResult> {
  const n = options.refunds ?? Number(process.env.BENCH_REFUNDS ?? 200);
  const concurrency = options.concurrency ?? Number(process.env.BENCH_CONCURRENCY ?? 20);
  const renewals = options.renewals ?? Number(process.env.BENCH_RENEWALS ?? 40);
  const { db, drop } = await openDatabase();
  const panel = await startFakeMarzneshin();
  const stripe = await startFakeStripe({ secretKey: STRIPE_KEYS.secretKey, webhookSecret: STRIPE_KEYS.webhookSecret, webhookUrl: null });
  const generous = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, { max: 1_000_000, windowSeconds: 60 }])) as unknown as RateLimits;
  let mailsSent = 0;
  const mailer: Mailer = { kind: 'log', send: async () => void (mailsSent += 1), verify: async () => true, close() {} };
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await migrateToLatest(db);
    const config = loadConfig({
      NODE_ENV: 'test', APP_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789', PUBLIC_URL: 'http://127.0.0.1:3000',
      STRIPE_API_URL: stripe.url, LOG_LEVEL: 'warn',
    });
    app = await buildApp({ config, db, logger: false, rateLimits: generous, mailer });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const webhookUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/webhooks/stripe`;
    const { services } = app;
    const actor = { id: null, email: 'bench', ip: null };
    await services.servers.createServer(actor, {
      kind: 'marzneshin', name: 'Bench', url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: '1', locations: 'all',
    });
    const plan = await services.plans.createPlan(actor, PlanBody.parse({ name: 'Bench Monthly', days: 30, dataLimitBytes: 10 * GB, price: 499 }));
    await services.card.updateSettings({ enabled: true, ...STRIPE_KEYS }, new Date());
    const post = async (event: StripeEventObject) => {
      const { body, signature } = stripe.signedDelivery(event);
      const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body });
      return { status: res.status, body: (await res.json()) as { received?: boolean; duplicate?: boolean } };
    };

    // N customers, each with a paid, provisioned account.
    const now = new Date();
    const users: UserProfile[] = Array.from({ length: n + 1 }, (_, i) => ({ id: randomUUID(), email: `payer${i}@bench.example.com`, role: 'user', trialUsed: false, createdAt: now, updatedAt: now }));
    await db.batchInsert('user_profiles', users.map((u) => ({ id: u.id, email: u.email, role: 'user', trial_used: false, created_at: now, updated_at: now })), 100);
    const [renewer, ...buyers] = users as [UserProfile, ...UserProfile[]];
    const sessionIds: string[] = [];
    await runPool([...buyers], 10, async (user) => void sessionIds.push((await services.checkout.startCheckout(user, { planId: plan.id })).sessionId));
    const paid = await Promise.all(sessionIds.map((id) => stripe.pay(id)));
    await runPool([...paid], concurrency, async (event) => void (await post(event)));
    app.jobWorker.start();
    await until(async () => (await count(db, 'vpn_accounts', (q) => q.where({ status: 'active' }))) >= n);

    // Refunds: N charge.refunded events, C at a time, every 10th twice.
    const refundEvents: StripeEventObject[] = [];
    for (const id of sessionIds) refundEvents.push((await stripe.refund(stripe.getSession(id)!.payment_intent as string)) as unknown as StripeEventObject);
    const answers = { applied: 0, duplicate: 0, unexpected: 0 };
    const latencies: number[] = [];
    type Delivery = { event: StripeEventObject; index: number; duplicate: boolean };
    const queue: Delivery[] = refundEvents.map((event, index) => ({ event, index, duplicate: false }));
    let duplicatesSent = 0;
    const started = performance.now();
    await runPool(queue, concurrency, async ({ event, index, duplicate }) => {
      const t0 = performance.now();
      const res = await post(event);
      latencies.push(performance.now() - t0);
      if (res.status !== 200) answers.unexpected += 1;
      else if (res.body.duplicate) answers.duplicate += 1;
      else answers.applied += 1;
      if (!duplicate && index % DUPLICATE_EVERY === 0) {
        duplicatesSent += 1;
        queue.push({ event, index, duplicate: true });
      }
    });
    const acceptSeconds = (performance.now() - started) / 1000;
    const paused = async () => (await count(db, 'vpn_accounts', (q) => q.where({ status: 'disabled' })));
    await until(async () => (await paused()) >= n && mailsSent >= n);
    const appliedSeconds = (performance.now() - started) / 1000;

    // Renewals: R at once on one account.
    const purchase = (await services.checkout.startCheckout(renewer, { planId: plan.id })).sessionId;
    await post(await stripe.pay(purchase));
    const account = await db('vpn_accounts').where({ user_id: renewer.id }).first();
    await until(async () => (await db('vpn_accounts').where({ id: account.id }).first()).status === 'active');
    const paidEnd = async () => new Date((await db('subscriptions').where({ vpn_account_id: account.id, status: 'active' }).max({ end: 'current_period_end' }).first())!.end).getTime();
    const before = await paidEnd();
    const renewalSessions: string[] = [];
    for (let i = 0; i < renewals; i += 1) renewalSessions.push((await services.checkout.startCheckout(renewer, { accountId: account.id })).sessionId);
    const renewalEvents = await Promise.all(renewalSessions.map((id) => stripe.pay(id)));
    const renewStarted = performance.now();
    const renewAnswers = await Promise.all(renewalEvents.map(post));
    const renewalSeconds = (performance.now() - renewStarted) / 1000;
    const addedDays = (await paidEnd() - before) / DAY_MS;
    await until(async () => (await count(db, 'jobs', (q) => q.whereIn('status', ['queued', 'running']))) === 0);
    const panelUser = [...panel.users.values()].map(asMarzneshinUser).find((u) => u.note === account.id);

    latencies.sort((a, b) => a - b);
    const checks: ExactlyOnceCheck[] = [
      { name: 'refund events applied', expected: n, actual: answers.applied },
      { name: 'refund duplicates answered {duplicate:true}', expected: duplicatesSent, actual: answers.duplicate },
      { name: 'unexpected refund answers', expected: 0, actual: answers.unexpected },
      { name: 'refunded transactions', expected: n, actual: await count(db, 'transactions', (q) => q.where({ status: 'refunded' })) },
      { name: 'accounts paused on the panel', expected: n, actual: [...panel.users.values()].map(asMarzneshinUser).filter((u) => !u.enabled).length },
      { name: 'paid-period jobs', expected: n, actual: await count(db, 'jobs', (q) => q.where({ type: SYNC_PAID_PERIOD })) },
      { name: 'refund e-mails sent', expected: n, actual: mailsSent },
      { name: 'refund notice jobs', expected: n, actual: await count(db, 'jobs', (q) => q.where({ type: SEND_REFUND_NOTICE })) },
      { name: 'renewal webhooks answered 200', expected: renewals, actual: renewAnswers.filter((a) => a.status === 200 && !a.body.duplicate).length },
      { name: 'days added by the renewals', expected: renewals * 30, actual: Math.round(addedDays * 1000) / 1000 },
      { name: 'panel expiry = paid period end (s)', expected: 0, actual: panelUser?.expire_date ? Math.round(Math.abs(new Date(panelUser.expire_date).getTime() - (await paidEnd())) / 1000) : -1 },
    ];
    return {
      database: dialectOf(db), refunds: n, concurrency, duplicatesSent,
      refundAcceptPerSec: n / acceptSeconds, refundLatencyP99: percentile(latencies, 99), refundsAppliedPerSec: n / appliedSeconds,
      renewals, renewalSeconds, renewalsPerSec: renewals / renewalSeconds, checks,
    };
  } finally {
    await app?.close();
    await stripe.close();
    await panel.close();
    await drop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchMoney();
  console.log(`Refunds and concurrent renewals, ${r.database}, fake Stripe + fake Marzneshin`);
  console.log(`  refunds accepted:   ${r.refundAcceptPerSec.toFixed(0)} /s (${r.refunds} charge.refunded events + ${r.duplicatesSent} duplicates, ${r.concurrency} at a time; p99 ${r.refundLatencyP99.toFixed(1)} ms)`);
  console.log(`  refunds applied:    ${r.refundsAppliedPerSec.toFixed(1)} /s (until every account is paused on the panel and every e-mail sent)`);
  console.log(`  renewals at once:   ${r.renewals} renewals of one account confirmed in ${r.renewalSeconds.toFixed(2)} s (${r.renewalsPerSec.toFixed(0)} /s)`);
  printChecks(r.checks);
}
