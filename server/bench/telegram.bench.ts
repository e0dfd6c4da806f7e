/**
 * `npx tsx server/bench/telegram.bench.ts` (part of `npm run bench`): the Telegram bot on PostgreSQL
 * (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server, in a schema of its own dropped after). The real
 * app listening on 127.0.0.1, its bot pointed at the fake Bot API over HTTP (TELEGRAM_API_URL), updates by webhook.
 *
 * Updates: U people each send `/start` (a new chat each: their row is written) and then `/plans`, as Telegram posts
 * them to the webhook with its secret header, C at a time, every 10th a second time. Measured: updates answered per
 * second, webhook to reply (the reply is sent to the fake before the webhook answers). Checked: one reply per update,
 * none for a repeat.
 * Broadcast: B chats; one broadcast to all of them, sent by the app's own job worker at the default pace, while the
 * fake counts Telegram's limits (it answers 429 past 30 a second, or past one a second to a chat after a burst).
 * Measured: messages per second, and the busiest second. Checked: every chat got it once, no 429, no second over 30.
 *
 * BENCH_UPDATES (U, default 1000), BENCH_CONCURRENCY (C, default 20), BENCH_BROADCAST (B, default 10000).
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startFakeMarzneshin } from '../test/fake-panels/marzneshin.js';
import { startFakeStripe } from '../test/fake-stripe/index.js';
import { startFakeTelegram } from '../test/fake-telegram/index.js';
import { BENCH_STRIPE_KEYS, createCodeCatcher, openBenchDatabase, startBenchShop, until } from './bench-kit.js';
import { percentile, printChecks, runPool, type ExactlyOnceCheck } from './webhook.bench.js';

const TOKEN = '7999001:AAbenchTelegramBotToken000000000000000';
const BOT = { id: 7999001, username: 'bench_vpn_bot', first_name: 'Bench VPN' };
const DUPLICATE_EVERY = 10;
/** Telegram's overall limit for a bot (messages a second). */
const TELEGRAM_PER_SECOND = 30;
export const TELEGRAM_UPDATES_GOAL_PER_SEC = 200;

export interface TelegramBenchResult {
  updates: { sent: number; duplicatesSent: number; perSec: number; p50: number; p99: number };
  broadcast: { recipients: number; seconds: number; perSec: number; busiestSecond: number };
  checks: ExactlyOnceCheck[];
}

const command = (chatId: number, text: string, updateId: number) => ({
  update_id: updateId,
  message: {
    message_id: updateId,
    date: Math.floor(Date.now() / 1000),
    chat: { id: chatId, type: 'private', first_name: 'Bench' },
    from: { id: chatId, is_bot: false, first_name: 'Bench', language_code: updateId % 2 ? 'ru' : 'en' },
    text,
    entities: [{ type: 'bot_command', offset: 0, length: text.length }],
  },
});

export async function benchTelegram(options: { updates?: number; concurrency?: number; broadcast?: number } = {}): Promise<TelegramBenchResult> {
  const people = options.updates ?? Number(process.env.BENCH_UPDATES ?? 1000);
  const concurrency = options.concurrency ?? Number(process.env.BENCH_CONCURRENCY ?? 20);
  const crowd = options.broadcast ?? Number(process.env.BENCH_BROADCAST ?? 10_000);
  const telegram = await startFakeTelegram();
  telegram.addBot(TOKEN, BOT);
  const stripe = await startFakeStripe({ secretKey: BENCH_STRIPE_KEYS.secretKey, webhookSecret: BENCH_STRIPE_KEYS.webhookSecret });
  const panel = await startFakeMarzneshin();
  const { db, drop } = await openBenchDatabase();
  const shop = await startBenchShop({
    db,
    stripe,
    panel,
    mailer: createCodeCatcher().mailer,
    env: { TELEGRAM_API_URL: telegram.url, TELEGRAM_UPDATES: 'webhook' },
  });
  const { app } = shop;
  const checks: ExactlyOnceCheck[] = [];
  try {
    await app.services.telegram.updateSettings(shop.actor, { enabled: true, botToken: TOKEN });
    const hook = telegram.webhookOf(TOKEN)!;
    // PUBLIC_URL names port 3000; the app listens where it could.
    const webhookUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/telegram/webhook`;

    // Updates: /start then /plans from each person, C at a time, every 10th sent again.
    const queue: Array<{ update: Record<string, unknown>; again: boolean }> = [];
    let updateId = 1;
    for (let i = 0; i < people; i += 1) queue.push({ update: command(6_000_000 + i, '/start', (updateId += 1)), again: false });
    for (let i = 0; i < people; i += 1) queue.push({ update: command(6_000_000 + i, '/plans', (updateId += 1)), again: false });
    const repliesBefore = telegram.callsTo('sendMessage').length;
    const latencies: number[] = [];
    let ok = 0;
    let duplicatesSent = 0;
    let duplicatesAnswered = 0;
    const started = performance.now();
    await runPool(queue, concurrency, async (item) => {
      const t0 = performance.now();
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': hook.secretToken! },
        body: JSON.stringify(item.update),
      });
      const body = (await res.json()) as { duplicate?: boolean };
      latencies.push(performance.now() - t0);
      if (res.status === 200) ok += 1;
      if (item.again && body.duplicate) duplicatesAnswered += 1;
      if (!item.again && Number(item.update.update_id) % DUPLICATE_EVERY === 0) {
        duplicatesSent += 1;
        queue.push({ ...item, again: true });
      }
    });
    const updateSeconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const replies = telegram.callsTo('sendMessage').length - repliesBefore;
    checks.push({ name: 'updates answered 200', expected: 2 * people + duplicatesSent, actual: ok });
    checks.push({ name: 'replies (one per update, none for a repeat)', expected: 2 * people, actual: replies });
    checks.push({ name: 'repeats answered as duplicates', expected: duplicatesSent, actual: duplicatesAnswered });

    // Broadcast: B chats, one message each, at the app's own pace, with Telegram's limits on at the fake.
    const now = new Date();
    await db.batchInsert(
      'telegram_chats',
      Array.from({ length: crowd }, (_, i) => ({ telegram_id: 7_000_000 + i, first_name: 'Crowd', created_at: now, updated_at: now })),
      500,
    );
    telegram.limitSends({ perSecond: TELEGRAM_PER_SECOND });
    const text = 'Bench broadcast: new servers this week';
    app.jobWorker.start();
    const broadcastStarted = performance.now();
    const broadcast = await app.services.telegramBroadcasts.create(shop.actor, { text, audience: 'all', locale: null });
    await until(async () => (await db('telegram_broadcasts').where({ id: broadcast.id }).first()).status === 'done', (crowd / 10) * 1000 + 60_000, 500);
    const broadcastSeconds = (performance.now() - broadcastStarted) / 1000;
    const calls = telegram.callsTo('sendMessage').filter((call) => call.params.text === text);
    const perChat = new Map<string, number>();
    for (const call of calls) perChat.set(String(call.params.chat_id), (perChat.get(String(call.params.chat_id)) ?? 0) + 1);
    const times = calls.map((call) => call.at).sort((a, b) => a - b);
    let busiestSecond = 0;
    for (let i = 0, j = 0; i < times.length; i += 1) {
      while (times[i]! - times[j]! >= 1000) j += 1;
      busiestSecond = Math.max(busiestSecond, i - j + 1);
    }
    const recipients = broadcast.total;
    checks.push({ name: 'broadcast recipients (every chat that started the bot)', expected: crowd + people, actual: recipients });
    checks.push({ name: 'broadcast messages (each chat once)', expected: recipients, actual: perChat.size });
    checks.push({ name: 'chats sent it twice', expected: 0, actual: [...perChat.values()].filter((n) => n > 1).length });
    checks.push({ name: "Telegram's 429s", expected: 0, actual: calls.length - perChat.size });
    checks.push({ name: `seconds over ${TELEGRAM_PER_SECOND} messages`, expected: 0, actual: busiestSecond > TELEGRAM_PER_SECOND ? 1 : 0 });
    return {
      updates: {
        sent: 2 * people + duplicatesSent,
        duplicatesSent,
        perSec: (2 * people + duplicatesSent) / updateSeconds,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
      },
      broadcast: { recipients, seconds: broadcastSeconds, perSec: recipients / broadcastSeconds, busiestSecond },
      checks,
    };
  } finally {
    await app.jobWorker.stop();
    await app.close();
    await drop();
    await telegram.close();
    await stripe.close();
    await panel.close();
  }
}

export function printTelegram(result: TelegramBenchResult): void {
  const { updates, broadcast } = result;
  console.log(
    `  updates: ${updates.sent} (${updates.duplicatesSent} repeats) at ${updates.perSec.toFixed(0)}/s (goal ≥ ${TELEGRAM_UPDATES_GOAL_PER_SEC}), ` +
      `webhook to reply p50 ${updates.p50.toFixed(1)} ms, p99 ${updates.p99.toFixed(1)} ms`,
  );
  console.log(
    `  broadcast: ${broadcast.recipients} people in ${broadcast.seconds.toFixed(0)} s (${broadcast.perSec.toFixed(1)}/s), busiest second ${broadcast.busiestSecond} (Telegram's limit ${TELEGRAM_PER_SECOND})`,
  );
  printChecks(result.checks);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchTelegram();
  printTelegram(result);
  if (result.updates.perSec < TELEGRAM_UPDATES_GOAL_PER_SEC) process.exitCode = 1;
}
