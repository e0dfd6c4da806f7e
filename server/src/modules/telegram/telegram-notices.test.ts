import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTelegramFixture } from '../../../test/telegram-kit.js';
import type { DesktopSession } from '../../../test/test-app.js';
import { createJobsRepo } from '../../jobs/jobs.repo.js';
import { SEND_RENEWAL_REMINDERS } from '../billing/recurring/send-renewal-reminders.js';
import { SEND_TELEGRAM_NOTICE } from './telegram-notices.js';

const TOKEN = '7000021:AAFixtureBotTokenForTelegramNotices0001';
const BOT = { id: 7000021, username: 'lumen_notice_bot', first_name: 'Lumen VPN' };
const DAY = 24 * 3600;

/**
 * Billing notices reach a linked customer's Telegram beside their e-mail, once per event, in the language they read
 * there; a customer who blocked the bot is marked and not tried again; Telegram's 429 puts the job back.
 */
describe.each(TEST_DATABASES)('notices by Telegram (%s)', (kind) => {
  const fixture = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  const { f } = fixture;
  const telegram = () => fixture.telegram();
  let chatId = 9100;
  beforeAll(async () => {
    expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN })).statusCode).toBe(200);
  });

  /** A new customer whose Telegram (a new chat, writing in `language`) is linked through the dashboard's link. */
  async function linkedCustomer(language = 'en'): Promise<{ user: DesktopSession; chat: number }> {
    const user = await f.newUser();
    const chat = (chatId += 1);
    const { url } = (await f.call(user, 'POST', '/api/me/telegram-link')).json();
    await fixture.say({ id: chat, language_code: language }, `/start ${new URL(url).searchParams.get('start')}`);
    expect((await f.env.database.db('telegram_chats').where({ telegram_id: chat }).first()).user_id).toBe(user.userId);
    mark = telegram().sent.length;
    return { user, chat };
  }
  let mark = 0;
  /** The notices sent to `chat` since it was linked (the bot's own replies to linking left out). */
  const noticesTo = (chat: number) =>
    telegram()
      .sent.slice(mark)
      .filter((sent) => sent.chatId === chat && sent.method === 'sendMessage');
  const sendsTo = (chat: number) =>
    telegram()
      .callsTo('sendMessage')
      .filter((call) => Number(call.params.chat_id) === chat).length;
  const telegramJobs = () => f.env.database.db('jobs').where({ type: SEND_TELEGRAM_NOTICE });

  it('sends the receipt of a purchase to the linked Telegram, once, beside the e-mail; an unlinked customer gets only the e-mail', async () => {
    const { user, chat } = await linkedCustomer();
    await f.buyAccount(user);
    await f.runJobs();
    const receipts = noticesTo(chat);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.text).toMatch(/receipt|payment/i);
    expect(receipts[0]!.text).toContain('$4.99');
    await f.runJobs();
    expect(noticesTo(chat)).toHaveLength(1);

    const unlinked = await f.newUser();
    const sentBefore = telegram().callsTo('sendMessage').length;
    await f.buyAccount(unlinked);
    await f.runJobs();
    expect(telegram().callsTo('sendMessage').length).toBe(sentBefore);
    expect(f.env.smtp.messages.some((mail) => /receipt/i.test(mail.subject))).toBe(true);
    expect(await telegramJobs().where({ status: 'done' })).not.toHaveLength(0);
  });

  it('reminds a linked customer that their plan ends, in the language they read in the bot', async () => {
    const { user, chat } = await linkedCustomer('ru');
    await f.buyAccount(user);
    await f.runJobs();
    f.t.clock.advance(28 * DAY);
    try {
      await createJobsRepo(f.env.database.db).enqueue(
        { type: SEND_RENEWAL_REMINDERS, payload: {}, dedupeKey: `tg-reminders-${kind}-${Date.now()}` },
        f.t.clock.now(),
      );
      await f.runJobs();
    } finally {
      f.t.clock.advance(-28 * DAY);
    }
    const ending = noticesTo(chat).filter((sent) => /заканчивается|закончится|истекает/i.test(sent.text ?? ''));
    expect(ending, JSON.stringify(noticesTo(chat).map((sent) => sent.text?.slice(0, 80)))).toHaveLength(1);
  });

  it('marks a customer who blocked the bot and does not try them again', async () => {
    const { user, chat } = await linkedCustomer();
    telegram().blockChat(chat);
    const before = sendsTo(chat);
    await f.buyAccount(user);
    await f.runJobs();
    const chatRow = await f.env.database.db('telegram_chats').where({ telegram_id: chat }).first();
    expect(chatRow.blocked_at).not.toBeNull();
    const tries = sendsTo(chat);
    expect(tries).toBe(before + 1);
    expect(await telegramJobs().whereIn('status', ['queued', 'failed'])).toHaveLength(0);
    // The next notice is not even tried.
    await f.buyAccount(user);
    await f.runJobs();
    expect(sendsTo(chat)).toBe(tries);
  });

  it('puts the notice back for as long as Telegram’s 429 says, then sends it once', async () => {
    const { user, chat } = await linkedCustomer();
    telegram().failNext('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } });
    await f.buyAccount(user);
    await f.runJobs();
    expect(noticesTo(chat)).toHaveLength(0);
    const waiting = await telegramJobs().where({ status: 'queued' }).first();
    expect(new Date(waiting.run_at).getTime() - f.t.clock.now().getTime()).toBe(7000);
    f.t.clock.advance(8);
    await f.runJobs();
    expect(noticesTo(chat)).toHaveLength(1);
  });
});
