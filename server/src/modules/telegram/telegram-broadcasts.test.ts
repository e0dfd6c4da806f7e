import { describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTelegramFixture } from '../../../test/telegram-kit.js';
import { BROADCAST_BATCH } from './telegram-broadcasts.service.js';

const TOKEN = '7000031:AAFixtureBotTokenForTelegramBroadcasts1';
const BOT = { id: 7000031, username: 'lumen_news_bot', first_name: 'Lumen VPN' };
/** The chats of the big broadcast: a block of ids of their own. */
const CROWD_FROM = 7_500_000;
const CROWD = 500;

/**
 * The admin's broadcasts: to everyone who started the bot or to a segment, fixed when made, sent in batches through
 * the job queue, going on after a restart with nobody sent to twice, and counted (sent, blocked, failed).
 */
describe.each(TEST_DATABASES)('broadcasts by Telegram (%s)', (kind) => {
  const { f, telegram, say } = useTelegramFixture(kind, { token: TOKEN, info: BOT, env: { TELEGRAM_SENDS_PER_SECOND: '100000' } });
  const db = () => f.env.database.db;
  const broadcast = (body: Record<string, unknown>) => f.call(f.admin, 'POST', '/api/admin/telegram/broadcasts', body);
  const preview = async (body: Record<string, unknown>) =>
    (await f.call(f.admin, 'POST', '/api/admin/telegram/broadcasts/preview', body)).json().recipients as number;
  const received = (text: string) =>
    telegram()
      .callsTo('sendMessage')
      .filter((call) => call.params.text === text);
  const linkTo = async (telegramId: number, language?: string) => {
    const user = await f.newUser();
    const { url } = (await f.call(user, 'POST', '/api/me/telegram-link')).json();
    await say({ id: telegramId, ...(language ? { language_code: language } : {}) }, `/start ${new URL(url).searchParams.get('start')}`);
    return user;
  };

  it('answers 401 signed out and 403 to a customer; refuses bad input; 503 while the bot is off', async () => {
    const customer = await f.newUser();
    for (const [method, url] of [
      ['GET', '/api/admin/telegram/broadcasts'],
      ['POST', '/api/admin/telegram/broadcasts'],
      ['POST', '/api/admin/telegram/broadcasts/preview'],
      ['POST', `/api/admin/telegram/broadcasts/${crypto.randomUUID()}/cancel`],
    ] as const) {
      expect((await f.call(null, method, url, {})).statusCode).toBe(401);
      expect((await f.call(customer, method, url, {})).statusCode).toBe(403);
    }
    expect((await broadcast({ text: '  ', audience: 'all' })).json()).toMatchObject({ code: 'validation_failed', fields: { text: expect.any(String) } });
    expect((await broadcast({ text: 'Hi', audience: 'everyone' })).json().fields).toHaveProperty('audience');
    expect((await broadcast({ text: 'Hi', audience: 'all', locale: 'de' })).json().fields).toHaveProperty('locale');
    expect((await broadcast({ text: 'x'.repeat(4097), audience: 'all' })).statusCode).toBe(400);
    const off = await broadcast({ text: 'Hi', audience: 'all' });
    expect(off.statusCode).toBe(503);
    expect(off.json()).toMatchObject({ code: 'service_unavailable' });
    expect(await f.count('telegram_broadcasts')).toBe(0);
    expect((await f.call(f.admin, 'POST', `/api/admin/telegram/broadcasts/${crypto.randomUUID()}/cancel`)).statusCode).toBe(404);
    expect((await f.call(f.admin, 'POST', '/api/admin/telegram/broadcasts/not-an-id/cancel')).statusCode).toBe(400);
  });

  describe('with the bot on', () => {
    it('reaches the segment asked for: everyone, active, expired or trial-only customers, in one language, never a chat that blocked the bot', async () => {
      expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN })).statusCode).toBe(200);
      await say({ id: 801 }, '/start'); // started the bot, never linked
      await say({ id: 802, language_code: 'ru' }, '/start');
      await say({ id: 803 }, '/start');
      await db()('telegram_chats').where({ telegram_id: 803 }).update({ blocked_at: new Date() });
      const paying = await linkTo(804);
      await f.buyAccount(paying);
      await f.runJobs();
      const lapsed = await linkTo(805);
      const lapsedAccount = (await f.call(lapsed, 'POST', '/api/accounts', { planId: f.trialPlanId })).json();
      await db()('vpn_accounts').where({ id: lapsedAccount.id }).update({ status: 'expired' });
      const trying = await linkTo(806, 'ru');
      expect((await f.call(trying, 'POST', '/api/accounts', { planId: f.trialPlanId })).statusCode).toBe(201);

      expect(await preview({ audience: 'all' })).toBe(5);
      expect(await preview({ audience: 'active' })).toBe(2); // the paying customer and the one on the trial
      expect(await preview({ audience: 'expired' })).toBe(1);
      expect(await preview({ audience: 'trial' })).toBe(2); // took the trial and never paid
      expect(await preview({ audience: 'all', locale: 'ru' })).toBe(2);
      expect(await preview({ audience: 'trial', locale: 'ru' })).toBe(1);

      const sent = await broadcast({ text: 'New servers in Tokyo', audience: 'active' });
      expect(sent.statusCode, sent.body).toBe(201);
      expect(sent.json()).toMatchObject({ audience: 'active', status: 'sending', total: 2, counts: { pending: 2, sent: 0 } });
      await f.runJobs();
      expect(
        received('New servers in Tokyo')
          .map((call) => Number(call.params.chat_id))
          .sort(),
      ).toEqual([804, 806]);
      const [listed] = (await f.call(f.admin, 'GET', '/api/admin/telegram/broadcasts')).json();
      expect(listed).toMatchObject({
        id: sent.json().id,
        status: 'done',
        total: 2,
        counts: { pending: 0, sent: 2, blocked: 0, failed: 0 },
        finishedAt: expect.any(String),
      });
      expect(await f.count('audit_log', { action: 'telegram.broadcast_created', target_id: sent.json().id })).toBe(1);
    });

    it(`sends ${CROWD} people one message each though the server restarts midway, and counts who blocked the bot`, async () => {
      await db()('telegram_chats').insert(
        Array.from({ length: CROWD }, (_, i) => ({ telegram_id: CROWD_FROM + i, first_name: 'Crowd', created_at: new Date(), updated_at: new Date() })),
      );
      telegram().blockChat(CROWD_FROM + 7);
      const audience = await preview({ audience: 'all' });
      const created = (await broadcast({ text: 'Spring sale: 30 % off', audience: 'all' })).json();
      expect(created.total).toBe(audience);

      // Two batches, then the process dies just after claiming a recipient (before Telegram was called), and restarts.
      expect(await f.t.app.jobWorker.runOnce()).toBe(true);
      expect(await f.t.app.jobWorker.runOnce()).toBe(true);
      expect(received('Spring sale: 30 % off')).toHaveLength(2 * BROADCAST_BATCH); // one of them refused: blocked
      const [inFlight] = await db()('telegram_broadcast_recipients').where({ broadcast_id: created.id, status: 'pending' }).orderBy('telegram_id').limit(1);
      await db()('telegram_broadcast_recipients').where({ broadcast_id: created.id, telegram_id: inFlight.telegram_id }).update({ status: 'sending' });
      await f.restart();
      await f.runJobs();

      const calls = received('Spring sale: 30 % off').map((call) => Number(call.params.chat_id));
      expect(new Set(calls).size).toBe(calls.length); // nobody twice
      expect(calls).not.toContain(Number(inFlight.telegram_id)); // the one in flight is not tried again
      const done = (await f.call(f.admin, 'GET', '/api/admin/telegram/broadcasts')).json().find((one: { id: string }) => one.id === created.id);
      expect(done).toMatchObject({ status: 'done', counts: { pending: 0, sent: audience - 2, blocked: 1, failed: 1 } });
      expect(calls).toHaveLength(audience - 1);
      expect(
        (
          await db()('telegram_chats')
            .where({ telegram_id: CROWD_FROM + 7 })
            .first()
        ).blocked_at,
      ).not.toBeNull();
    });

    it('sends each recipient once when two workers run the same batch at once', async () => {
      const created = (await broadcast({ text: 'Two workers, one message', audience: 'all' })).json();
      const batch = await db()('jobs').where({ type: 'send_telegram_broadcast' }).where('dedupe_key', 'like', `%${created.id}:1`).first();
      // The same batch, handled twice side by side (as two instances would if a lease ran out mid-batch).
      const handler = f.t.app.services.telegramBroadcasts.handler;
      await Promise.all([handler({ broadcastId: created.id, batch: 1 }, batch), handler({ broadcastId: created.id, batch: 1 }, batch)]);
      const calls = received('Two workers, one message').map((call) => Number(call.params.chat_id));
      // Nobody twice; the one who started later may have gone on past the first hundred, which the next batch skips.
      expect(new Set(calls).size).toBe(calls.length);
      expect(calls.length).toBeGreaterThanOrEqual(BROADCAST_BATCH);
      const counted = (await f.call(f.admin, 'GET', '/api/admin/telegram/broadcasts')).json().find((one: { id: string }) => one.id === created.id);
      expect(counted.counts.sent).toBe(calls.length);
      // Both queued the next batch: one job.
      expect(await db()('jobs').where('dedupe_key', 'like', `%${created.id}:2`)).toHaveLength(1);
      expect((await f.call(f.admin, 'POST', `/api/admin/telegram/broadcasts/${created.id}/cancel`)).statusCode).toBe(200);
      await db()('jobs').where('dedupe_key', 'like', `%${created.id}:%`).del();
    });

    it('stops a broadcast the admin cancels: nobody left is sent to, and a finished one cannot be cancelled', async () => {
      const created = (await broadcast({ text: 'Maintenance tonight', audience: 'all' })).json();
      expect(await f.t.app.jobWorker.runOnce()).toBe(true);
      const cancelled = await f.call(f.admin, 'POST', `/api/admin/telegram/broadcasts/${created.id}/cancel`);
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toMatchObject({ status: 'cancelled', counts: { sent: BROADCAST_BATCH, blocked: 0, failed: 0 } });
      expect(cancelled.json().counts.pending).toBeGreaterThan(0);
      await f.runJobs();
      expect(received('Maintenance tonight')).toHaveLength(BROADCAST_BATCH);
      const again = await f.call(f.admin, 'POST', `/api/admin/telegram/broadcasts/${created.id}/cancel`);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'broadcast_finished' });
    });
  });
});
