import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appAddress, postToApp, useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fake-telegram/index.js';
import { buttons, message, press, useTelegramFixture } from '../../../test/telegram-kit.js';
import { TELEGRAM_POLL } from './telegram-poll.js';

const TOKEN = '7000001:AAFixtureBotTokenForTheStorefront12345';
const BOT = { id: 7000001, username: 'lumen_vpn_bot', first_name: 'Lumen VPN' };
const OTHER_TOKEN = '7000002:AAnotherBotTokenTelegramDoesNotKnow999';

describe.each(TEST_DATABASES)('the Telegram bot by webhook (%s)', (kind) => {
  const fixture = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  const { f } = fixture;
  let telegram: FakeTelegram;
  beforeAll(() => void (telegram = fixture.telegram()));
  const settings = (body: Record<string, unknown>) => f.call(f.admin, 'PUT', '/api/admin/telegram', body);
  const webhook = () => appAddress(f, '/api/telegram/webhook');
  const secret = () => telegram.webhookOf(TOKEN)?.secretToken ?? '';
  const deliver = fixture.deliver;
  const sentTo = (chatId: number) => telegram.sent.filter((sent) => sent.chatId === chatId);

  describe('settings', () => {
    it('answers 401 signed out and 403 to a customer, and changes nothing', async () => {
      const customer = await f.newUser();
      expect((await f.call(null, 'GET', '/api/admin/telegram')).statusCode).toBe(401);
      expect((await f.call(customer, 'GET', '/api/admin/telegram')).statusCode).toBe(403);
      expect((await f.call(customer, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN })).statusCode).toBe(403);
      expect(await f.count('settings', { id: 'telegram' })).toBe(0);
      expect(telegram.callsTo('getMe')).toHaveLength(0);
    });

    it('refuses bad input and a token Telegram does not know, saving nothing and never echoing the token', async () => {
      const malformed = await settings({ botToken: 'not a token' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ code: 'validation_failed', fields: { botToken: expect.any(String) } });
      expect((await settings({ channel: 'no spaces allowed' })).json().fields).toHaveProperty('channel');
      expect((await settings({ adminChatIds: ['x'] })).json().fields).toHaveProperty('adminChatIds.0');
      expect((await settings({ unknown: true })).statusCode).toBe(400);
      expect((await settings({ enabled: true })).json()).toMatchObject({ code: 'validation_failed', fields: { botToken: expect.any(String) } });
      const refused = await settings({ enabled: true, botToken: OTHER_TOKEN });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'connection_test_failed' });
      expect(refused.body).not.toContain('AAnotherBot');
      expect((await f.call(f.admin, 'GET', '/api/admin/telegram')).json()).toMatchObject({
        enabled: false,
        botTokenSet: false,
        username: null,
        webhook: { mode: 'off' },
      });
    });

    it('saves the token sealed and write-only, points the webhook here with a secret, and names the commands in each language', async () => {
      const saved = await settings({ enabled: true, botToken: TOKEN, channel: '@lumen_news', adminChatIds: [42, 42, 43] });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({
        enabled: true,
        botTokenSet: true,
        username: 'lumen_vpn_bot',
        webhook: { mode: 'webhook', url: expect.stringMatching(/\/api\/telegram\/webhook$/), pendingUpdates: 0, lastError: null, lastErrorAt: null },
        channel: '@lumen_news',
        adminChatIds: [42, 43],
      });
      expect(saved.body).not.toContain(TOKEN.split(':')[1]);
      const row = await f.env.database.db('settings').where({ id: 'telegram' }).first();
      expect(String(row.value)).not.toContain(TOKEN.split(':')[1]);
      const hook = telegram.webhookOf(TOKEN)!;
      expect(hook.url.endsWith('/api/telegram/webhook')).toBe(true);
      expect(hook.secretToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      expect(hook.allowedUpdates).toEqual(expect.arrayContaining(['message', 'callback_query', 'pre_checkout_query']));
      const languages = telegram.callsTo('setMyCommands').map((call) => call.params.language_code ?? 'default');
      expect(languages.sort()).toEqual(['default', 'fa', 'ru', 'zh']);
      const audit = await f.env.database.db('audit_log').where({ action: 'telegram.settings_updated' }).first();
      expect(String(audit.details)).not.toContain(TOKEN.split(':')[1]);
    });
  });

  describe('the webhook', () => {
    it('refuses a request without the secret token, or with another, and handles nothing', async () => {
      const before = telegram.sent.length;
      expect((await deliver(message({ id: 501 }, '/start', 1), '')).status).toBe(401);
      const wrong = await deliver(message({ id: 501 }, '/start', 2), 'not-the-secret');
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ code: 'unauthenticated' });
      expect(telegram.sent.length).toBe(before);
      expect(await f.count('telegram_updates')).toBe(0);
      expect(await f.count('telegram_chats')).toBe(0);
    });

    it('refuses a body that is not an update (400) with the right secret', async () => {
      const res = await postToApp(webhook(), JSON.stringify({ hello: 'world' }), { 'x-telegram-bot-api-secret-token': secret() });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
    });

    it('answers /start with the menu in the language of the person’s Telegram app, once however often the update comes', async () => {
      const ann = { id: 601, language_code: 'ru' };
      const first = await deliver(message(ann, '/start', 10));
      expect(first).toEqual({ status: 200, body: { ok: true } });
      const again = await deliver(message(ann, '/start', 10));
      expect(again).toEqual({ status: 200, body: { ok: true, duplicate: true } });
      const replies = sentTo(ann.id);
      expect(replies).toHaveLength(1);
      expect(replies[0]!.text).toContain('Добро пожаловать');
      expect(buttons(replies[0]!).map((button) => button.text)).toEqual(['🔗 Привязать аккаунт', '💳 Тарифы и цены', '🗣 Язык', '💬 Поддержка']);
      const chat = await f.env.database.db('telegram_chats').where({ telegram_id: ann.id }).first();
      expect(chat).toMatchObject({ language_code: 'ru', locale: null, user_id: null, blocked_at: null });
    });

    it('lists the plans on sale by name and shows one’s terms; the trial is not among them', async () => {
      const ben = { id: 602, language_code: 'en' };
      await deliver(message(ben, '/plans', 20));
      const list = sentTo(ben.id).at(-1)!;
      const names = buttons(list).map((button) => button.text);
      expect(names).toContain('Plus Monthly');
      expect(names).not.toContain('Trial');
      const plan = buttons(list).find((button) => button.text === 'Plus Monthly')!;
      expect((await deliver(press(ben, plan.callback_data!, 21))).status).toBe(200);
      const terms = sentTo(ben.id).at(-1)!;
      expect(terms.text).toContain('Plus Monthly');
      expect(terms.text).toContain('$4.99 for 1 month');
      expect(terms.text).toContain('Data: 10 GB');
      expect(telegram.callsTo('answerCallbackQuery').some((call) => call.params.callback_query_id === 'cb21')).toBe(true);
      await deliver(press(ben, 'plan:no-such-plan', 22));
      expect(sentTo(ben.id).at(-1)!.text).toBe('This plan is no longer on sale.');
    });

    it('keeps the language a person chooses, over their app’s', async () => {
      const cyrus = { id: 603, language_code: 'en' };
      await deliver(message(cyrus, '/language', 30));
      expect(buttons(sentTo(cyrus.id).at(-1)!).map((button) => button.text)).toEqual(['✓ English', 'Русский', 'فارسی', '简体中文']);
      await deliver(press(cyrus, 'language:fa', 31));
      expect(sentTo(cyrus.id).some((sent) => sent.text === 'انجام شد: از این پس به فارسی برایتان می‌نویسم.')).toBe(true);
      await deliver(message(cyrus, '/support', 32));
      expect(sentTo(cyrus.id).at(-1)!.text).toContain('پاسخ می‌دهیم');
      expect((await f.env.database.db('telegram_chats').where({ telegram_id: cyrus.id }).first()).locale).toBe('fa');
    });

    it('marks a person who blocked the bot, and answers Telegram 200 so it does not retry', async () => {
      const dana = { id: 604 };
      telegram.blockChat(dana.id);
      expect((await deliver(message(dana, '/start', 40))).status).toBe(200);
      expect((await f.env.database.db('telegram_chats').where({ telegram_id: dana.id }).first()).blocked_at).not.toBeNull();
    });

    it('gives an update back when Telegram fails the reply, so its retry is handled', async () => {
      const eve = { id: 605 };
      telegram.failNext('sendMessage', { error_code: 500, description: 'Internal Server Error' });
      expect((await deliver(message(eve, '/start', 50))).status).toBe(503);
      expect((await deliver(message(eve, '/start', 50))).body).toEqual({ ok: true });
      expect(sentTo(eve.id)).toHaveLength(1);
    });

    it('switched off, deletes the webhook and refuses what is still posted', async () => {
      const oldSecret = secret();
      const off = await settings({ enabled: false });
      expect(off.json()).toMatchObject({ enabled: false, botTokenSet: true, webhook: { mode: 'off' } });
      expect(telegram.webhookOf(TOKEN)).toBeNull();
      expect((await deliver(message({ id: 606 }, '/start', 60), oldSecret)).status).toBe(401);
      expect(sentTo(606)).toHaveLength(0);
    });

    it('moved to another bot, stops the one before posting here and gives the new one a secret of its own', async () => {
      const other = { token: '7000003:AAThirdBotTokenForTheStorefront1234567', info: { id: 7000003, username: 'lumen_new_bot', first_name: 'Lumen' } };
      telegram.addBot(other.token, other.info);
      expect((await settings({ enabled: true, botToken: TOKEN })).statusCode).toBe(200);
      const firstSecret = secret();
      const moved = await settings({ botToken: other.token });
      expect(moved.json()).toMatchObject({ enabled: true, username: 'lumen_new_bot' });
      expect(telegram.webhookOf(TOKEN)).toBeNull();
      const newSecret = telegram.webhookOf(other.token)!.secretToken!;
      expect(newSecret).not.toBe(firstSecret);
      expect((await deliver(message({ id: 607 }, '/start', 70), firstSecret)).status).toBe(401);
      expect((await deliver(message({ id: 607 }, '/start', 70), newSecret)).status).toBe(200);
      expect(telegram.sent.filter((sent) => sent.chatId === 607 && sent.token === other.token)).toHaveLength(1);
    });
  });
});

describe.each(TEST_DATABASES)('the Telegram bot by long polling (%s)', (kind) => {
  let telegram: FakeTelegram;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    telegram.addBot(TOKEN, BOT);
  });
  afterAll(async () => telegram?.close());
  const f = useBillingFixture(kind, { env: () => ({ TELEGRAM_API_URL: telegram.url, TELEGRAM_UPDATES: 'polling' }) });
  /** One pass of the poll job, as the worker runs it. */
  const poll = async () => {
    const job = await f.env.database.db('jobs').where({ type: TELEGRAM_POLL }).first();
    return f.t.app.services.telegramPoll({}, job);
  };

  it('asks Telegram for the updates after the last one handled, and handles each once', async () => {
    const saved = await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN });
    expect(saved.json()).toMatchObject({ enabled: true, webhook: { mode: 'polling', url: null } });
    expect(telegram.callsTo('setWebhook')).toHaveLength(0);
    expect(telegram.callsTo('deleteWebhook').length).toBeGreaterThan(0);
    telegram.queueUpdate(TOKEN, message({ id: 701, language_code: 'zh-hans' }, '/start', 100));
    telegram.queueUpdate(TOKEN, message({ id: 702 }, '/start', 101));
    expect(await poll()).toMatchObject({ note: '2 update(s)' });
    expect(telegram.sent.filter((sent) => sent.chatId === 701)[0]!.text).toContain('欢迎使用');
    expect(telegram.sent.filter((sent) => sent.chatId === 702)).toHaveLength(1);
    telegram.queueUpdate(TOKEN, message({ id: 703 }, '/start', 102));
    await poll();
    const offsets = telegram.callsTo('getUpdates').map((call) => Number(call.params.offset ?? 0));
    expect(offsets).toEqual([0, 102]);
    expect(telegram.sent.filter((sent) => sent.chatId === 702)).toHaveLength(1);
    expect(telegram.sent.filter((sent) => sent.chatId === 703)).toHaveLength(1);
  });

  it('while the bot is off, only looks again later', async () => {
    await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: false });
    const calls = telegram.callsTo('getUpdates').length;
    expect(await poll()).toMatchObject({ note: 'the bot is off' });
    expect(telegram.callsTo('getUpdates')).toHaveLength(calls);
  });
});
