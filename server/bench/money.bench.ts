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
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { PlanBody } from '../../shared/plans.js';
import { buildApp } from '../src/app.js';
import { dialectOf } from '../src/db/knex.js';
import type { Mailer } from '../src/mail/mailer.js';
import { SYNC_PAID_PERIOD } from '../src/modules/billing/ledger/sync-paid-period.js';
import { SEND_BILLING_EMAIL } from '../src/modules/billing/billing-notices.js';
import type { UserProfile } from '../src/modules/users/users.repo.js';
import { asMarzneshinUser, startFakeMarzneshin } from '../test/fake-panels/marzneshin.js';
import { startFakeStripe, type StripeEventObject } from '../test/fake-stripe/index.js';
import { BENCH_STRIPE_KEYS, openBenchDatabase, startBenchShop, until } from './bench-kit.js';
import { count, percentile, printChecks, runPool, type ExactlyOnceCheck } from './webhook.bench.js';

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

export async function benchMoney(options: { refunds?: number; concurrency?: number; renewals?: number } = {}): Promise<MoneyBenchResult> {
  const n = options.refunds ?? Number(process.env.BENCH_REFUNDS ?? 200);
  const concurrency = options.concurrency ?? Number(process.env.BENCH_CONCURRENCY ?? 20);
  const renewals = options.renewals ?? Number(process.env.BENCH_RENEWALS ?? 40);
  const { db, drop } = await openBenchDatabase();
  const panel = await startFakeMarzneshin();
  const stripe = await startFakeStripe({ secretKey: BENCH_STRIPE_KEYS.secretKey, webhookSecret: BENCH_STRIPE_KEYS.webhookSecret, webhookUrl: null });
  let mailsSent = 0;
  // The refund e-mails (receipts of the purchases and renewals go out too, and are not counted).
  const mailer: Mailer = {
    kind: 'log',
    send: async (message) => void (/refund/i.test(message.subject) && (mailsSent += 1)),
    verify: async () => true,
    close() {},
  };
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    const shop = await startBenchShop({ db, stripe, panel, mailer });
    app = shop.app;
    const { services } = app;
    const { actor, post } = shop;
    const plan = await services.plans.createPlan(actor, PlanBody.parse({ name: 'Bench Monthly', days: 30, dataLimitBytes: 10 * GB, price: 499 }));

    // N customers, each with a paid, provisioned account.
    const users = await shop.addCustomers('payer', n + 1);
    const [renewer, ...buyers] = users as [UserProfile, ...UserProfile[]];
    const sessionIds: string[] = [];
    await runPool([...buyers], 10, async (user) => void sessionIds.push((await services.checkout.startCheckout(user, { planId: plan.id })).sessionId));
    const paid = await Promise.all(sessionIds.map((id) => stripe.pay(id)));
    await runPool([...paid], concurrency, async (event) => void (await post(event)));
    app.jobWorker.start();
    await until(async () => (await count(db, 'vpn_accounts', (q) => q.where({ status: 'active' }))) >= n, TIMEOUT_MS, POLL_MS);

    // Refunds: N charge.refunded events, C at a time, every 10th twice.
    const refundEvents: StripeEventObject[] = [];
    for (const id of sessionIds) refundEvents.push(await stripe.refund(stripe.getSession(id)!.payment_intent as string));
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
    const paused = async () => await count(db, 'vpn_accounts', (q) => q.where({ status: 'disabled' }));
    await until(async () => (await paused()) >= n && mailsSent >= n, TIMEOUT_MS, POLL_MS);
    const appliedSeconds = (performance.now() - started) / 1000;

    // Renewals: R at once on one account.
    const purchase = (await services.checkout.startCheckout(renewer, { planId: plan.id })).sessionId;
    await post(await stripe.pay(purchase));
    const account = await db('vpn_accounts').where({ user_id: renewer.id }).first();
    await until(async () => (await db('vpn_accounts').where({ id: account.id }).first()).status === 'active', TIMEOUT_MS, POLL_MS);
    const paidEnd = async () =>
      new Date((await db('subscriptions').where({ vpn_account_id: account.id, status: 'active' }).max({ end: 'current_period_end' }).first())!.end).getTime();
    const before = await paidEnd();
    const renewalSessions: string[] = [];
    for (let i = 0; i < renewals; i += 1) renewalSessions.push((await services.checkout.startCheckout(renewer, { accountId: account.id })).sessionId);
    const renewalEvents = await Promise.all(renewalSessions.map((id) => stripe.pay(id)));
    const renewStarted = performance.now();
    const renewAnswers = await Promise.all(renewalEvents.map(post));
    const renewalSeconds = (performance.now() - renewStarted) / 1000;
    const addedDays = ((await paidEnd()) - before) / DAY_MS;
    await until(async () => (await count(db, 'jobs', (q) => q.whereIn('status', ['queued', 'running']))) === 0, TIMEOUT_MS, POLL_MS);
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
      {
        name: 'refund notice jobs',
        expected: n,
        actual: await count(db, 'jobs', (q) => q.where({ type: SEND_BILLING_EMAIL }).where('dedupe_key', 'like', `${SEND_BILLING_EMAIL}:refund:%`)),
      },
      { name: 'renewal webhooks answered 200', expected: renewals, actual: renewAnswers.filter((a) => a.status === 200 && !a.body.duplicate).length },
      { name: 'days added by the renewals', expected: renewals * 30, actual: Math.round(addedDays * 1000) / 1000 },
      {
        name: 'panel expiry = paid period end (s)',
        expected: 0,
        actual: panelUser?.expire_date ? Math.round(Math.abs(new Date(panelUser.expire_date).getTime() - (await paidEnd())) / 1000) : -1,
      },
    ];
    return {
      database: dialectOf(db),
      refunds: n,
      concurrency,
      duplicatesSent,
      refundAcceptPerSec: n / acceptSeconds,
      refundLatencyP99: percentile(latencies, 99),
      refundsAppliedPerSec: n / appliedSeconds,
      renewals,
      renewalSeconds,
      renewalsPerSec: renewals / renewalSeconds,
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
  const r = await benchMoney();
  console.log(`Refunds and concurrent renewals, ${r.database}, fake Stripe + fake Marzneshin`);
  console.log(
    `  refunds accepted:   ${r.refundAcceptPerSec.toFixed(0)} /s (${r.refunds} charge.refunded events + ${r.duplicatesSent} duplicates, ${r.concurrency} at a time; p99 ${r.refundLatencyP99.toFixed(1)} ms)`,
  );
  console.log(`  refunds applied:    ${r.refundsAppliedPerSec.toFixed(1)} /s (until every account is paused on the panel and every e-mail sent)`);
  console.log(`  renewals at once:   ${r.renewals} renewals of one account confirmed in ${r.renewalSeconds.toFixed(2)} s (${r.renewalsPerSec.toFixed(0)} /s)`);
  printChecks(r.checks);
}
