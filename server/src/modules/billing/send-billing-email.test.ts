import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTelegramFixture } from '../../../test/telegram-kit.js';
import type { DesktopSession } from '../../../test/test-app.js';

const TOKEN = '7000051:AAFixtureBotTokenForNoticesInsteadOfMail';
const BOT = { id: 7000051, username: 'lumen_instead_bot', first_name: 'Lumen VPN' };

/**
 * The billing e-mail of a customer who chose Telegram only is not sent while the bot reaches them (the same notice
 * goes to their Telegram); once it cannot (they blocked the bot, the store switched it off), their e-mails come again.
 */
describe.each(TEST_DATABASES)('billing e-mails for a customer who takes notices by Telegram only (%s)', (kind) => {
  const fixture = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  const { f } = fixture;
  const telegram = () => fixture.telegram();
  let chatId = 9700;
  beforeAll(async () => {
    expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN })).statusCode).toBe(200);
  });

  /** A new customer with a new chat linked, who chose notices by Telegram only (or not). */
  async function customer(noticesByEmail: boolean): Promise<{ user: DesktopSession; email: string; chat: number }> {
    const user = await f.newUser();
    const { email } = await f.env.database.db('user_profiles').where({ id: user.userId }).first('email');
    const chat = (chatId += 1);
    const { url } = (await f.call(user, 'POST', '/api/me/telegram-link')).json();
    await fixture.say({ id: chat }, `/start ${new URL(url).searchParams.get('start')}`);
    expect((await f.call(user, 'PATCH', '/api/me/telegram/preferences', { noticesByEmail })).statusCode).toBe(200);
    return { user, email, chat };
  }
  const receiptMails = (email: string) => f.env.smtp.messages.filter((mail) => mail.to.includes(email) && /receipt/i.test(mail.subject));
  const receiptsIn = (chat: number) =>
    telegram().sent.filter((sent) => sent.chatId === chat && sent.method === 'sendMessage' && /receipt/i.test(sent.text ?? ''));
  /** They block the bot: Telegram refuses sends to them and tells the bot (a `my_chat_member` update, as it does). */
  async function block(chat: number) {
    telegram().blockChat(chat);
    const res = await fixture.deliver({
      update_id: 990_000 + chat,
      my_chat_member: {
        chat: { id: chat, type: 'private', first_name: 'Ann' },
        from: { id: chat, is_bot: false, first_name: 'Ann' },
        date: 1_760_000_000,
        old_chat_member: { user: { id: BOT.id, is_bot: true, first_name: BOT.first_name }, status: 'member' },
        new_chat_member: { user: { id: BOT.id, is_bot: true, first_name: BOT.first_name }, status: 'kicked', until_date: 0 },
      },
    });
    expect(res.status).toBe(200);
  }

  it('sends the receipt only to Telegram; after the customer blocks the bot, the next one comes by e-mail', async () => {
    const { user, email, chat } = await customer(false);
    await f.buyAccount(user);
    await f.runJobs();
    expect(receiptsIn(chat)).toHaveLength(1);
    expect(receiptMails(email)).toHaveLength(0);

    await block(chat);
    expect((await f.env.database.db('telegram_chats').where({ telegram_id: chat }).first()).blocked_at).not.toBeNull();
    await f.buyAccount(user);
    await f.runJobs();
    expect(receiptMails(email)).toHaveLength(1);
    expect(receiptsIn(chat)).toHaveLength(1);
  });

  it('e-mails a customer who kept e-mails as well as telling their Telegram', async () => {
    const { user, email, chat } = await customer(true);
    await f.buyAccount(user);
    await f.runJobs();
    expect(receiptsIn(chat)).toHaveLength(1);
    expect(receiptMails(email)).toHaveLength(1);
  });

  it('e-mails a customer who chose Telegram only while the store has the bot switched off', async () => {
    const { user, email, chat } = await customer(false);
    expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: false })).statusCode).toBe(200);
    try {
      await f.buyAccount(user);
      await f.runJobs();
    } finally {
      expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true })).statusCode).toBe(200);
    }
    expect(receiptMails(email)).toHaveLength(1);
    expect(receiptsIn(chat)).toHaveLength(0);
  });
});
