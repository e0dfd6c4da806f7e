import { beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { mailParts } from '../../../test/smtp-catcher.js';
import { useTelegramFixture } from '../../../test/telegram-kit.js';
import type { DesktopSession } from '../../../test/test-app.js';

const TOKEN = '7000041:AAFixtureBotTokenForSignInCodesByBot001';
const BOT = { id: 7000041, username: 'lumen_codes_bot', first_name: 'Lumen VPN' };

/**
 * A customer who asked for it gets each sign-in code in their Telegram too, at once and in the language the bot
 * writes to them in; the e-mail goes all the same, the answer is the one every address gets, and Telegram failing
 * never fails the request.
 */
describe.each(TEST_DATABASES)('sign-in codes by Telegram (%s)', (kind) => {
  const fixture = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  const { f } = fixture;
  const telegram = () => fixture.telegram();
  let chatId = 9500;
  beforeAll(async () => {
    expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN })).statusCode).toBe(200);
  });

  /** A new customer (their address known) with a new chat linked, writing in `language`, who chose codes by Telegram or not. */
  async function customer(options: { codesByTelegram: boolean; language?: string }): Promise<{ user: DesktopSession; email: string; chat: number }> {
    const user = await f.newUser();
    const { email } = await f.env.database.db('user_profiles').where({ id: user.userId }).first('email');
    const chat = (chatId += 1);
    const { url } = (await f.call(user, 'POST', '/api/me/telegram-link')).json();
    await fixture.say({ id: chat, language_code: options.language ?? 'en' }, `/start ${new URL(url).searchParams.get('start')}`);
    const chosen = await f.call(user, 'PATCH', '/api/me/telegram/preferences', { codesByTelegram: options.codesByTelegram });
    expect(chosen.statusCode, chosen.body).toBe(200);
    return { user, email, chat };
  }

  /** Asks for a code for `email` (past the cool-down of the one before) and answers the e-mail's code. */
  async function askCode(email: string) {
    f.t.clock.advance(61);
    const mails = f.env.smtp.messages.length;
    const res = await f.call(null, 'POST', '/api/auth/otp', { email });
    expect(res.statusCode, res.body).toBe(200);
    await f.env.smtp.waitFor(email, { after: mails });
    return { body: res.json(), code: await f.env.smtp.latestCode(email) };
  }
  const messagesTo = (chat: number, after: number) =>
    telegram()
      .sent.slice(after)
      .filter((sent) => sent.chatId === chat && sent.method === 'sendMessage');

  it('sends the code to the Telegram of a customer who asked, beside the e-mail, in the language the bot writes to them in', async () => {
    const { email, chat } = await customer({ codesByTelegram: true, language: 'ru' });
    const mark = telegram().sent.length;
    const { body, code } = await askCode(email);
    await vi.waitFor(() => expect(messagesTo(chat, mark)).toHaveLength(1));
    const [sent] = messagesTo(chat, mark);
    expect(sent!.text).toContain(code);
    expect(sent!.text).toMatch(/^Код для входа в .+: \d{6}\nОн действует 10 минут\./);

    // The same answer as an address no one has, for which nothing goes to Telegram.
    const before = telegram().sent.length;
    const stranger = `nobody-${kind}@example.com`;
    const mails = f.env.smtp.messages.length;
    const unknown = await f.call(null, 'POST', '/api/auth/otp', { email: stranger });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(body);
    await f.env.smtp.waitFor(stranger, { after: mails });
    expect(
      telegram()
        .sent.slice(before)
        .filter((sent) => sent.method === 'sendMessage'),
    ).toEqual([]);

    // The code from Telegram signs in like the e-mail's.
    const verified = await f.call(null, 'POST', '/api/auth/verify', { email, code: /\d{6}/.exec(sent!.text!)![0], client: 'desktop' });
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('sends nothing to Telegram for a customer who did not ask, nor to one who blocked the bot, nor while the bot is off', async () => {
    const [quiet, blocking, off, control] = [
      await customer({ codesByTelegram: false }),
      await customer({ codesByTelegram: true }),
      await customer({ codesByTelegram: true }),
      await customer({ codesByTelegram: true }),
    ];
    await f.env.database.db('telegram_chats').where({ telegram_id: blocking.chat }).update({ blocked_at: f.t.clock.now() });
    const mark = telegram().sent.length;
    const { code } = await askCode(quiet.email);
    expect(mailParts(f.env.smtp.messages.at(-1)!).text).toContain(code);
    await askCode(blocking.email);
    expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: false })).statusCode).toBe(200);
    try {
      await askCode(off.email);
    } finally {
      expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true })).statusCode).toBe(200);
    }
    // A later code for another customer has gone out: any of the ones above would have gone before it.
    await askCode(control.email);
    await vi.waitFor(() => expect(messagesTo(control.chat, mark)).toHaveLength(1));
    for (const chat of [quiet.chat, blocking.chat, off.chat]) expect(messagesTo(chat, mark), String(chat)).toEqual([]);
  });

  it('answers 200 and sends the e-mail when Telegram fails, and marks a customer Telegram says blocked the bot', async () => {
    const failing = await customer({ codesByTelegram: true });
    telegram().failNext('sendMessage', { error_code: 500, description: 'Internal Server Error: restart' });
    const calls = telegram().callsTo('sendMessage').length;
    const { code } = await askCode(failing.email);
    expect(code).toMatch(/^\d{6}$/);
    await vi.waitFor(() => expect(telegram().callsTo('sendMessage').length).toBe(calls + 1));

    const blocked = await customer({ codesByTelegram: true });
    telegram().blockChat(blocked.chat);
    await askCode(blocked.email);
    await vi.waitFor(async () => expect((await f.env.database.db('telegram_chats').where({ telegram_id: blocked.chat }).first()).blocked_at).not.toBeNull());
  });
});
