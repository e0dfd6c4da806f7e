import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { buttons, useTelegramFixture, type TelegramSender as Person } from '../../../test/telegram-kit.js';
import type { DesktopSession } from '../../../test/test-app.js';

const TOKEN = '7000011:AAFixtureBotTokenForLinkingCustomers123';
const BOT = { id: 7000011, username: 'lumen_link_bot', first_name: 'Lumen VPN' };

describe.each(TEST_DATABASES)('linking Telegram to a customer, /my and /trial (%s)', (kind) => {
  const { f, telegram, say, tap } = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  const linkUrl = async (user: DesktopSession) => {
    const res = await f.call(user, 'POST', '/api/me/telegram-link');
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { url: string; expiresAt: string };
  };
  const tokenOf = (url: string) => new URL(url).searchParams.get('start')!;
  const chatOf = (telegramId: number) => f.env.database.db('telegram_chats').where({ telegram_id: telegramId }).first();

  describe('while the bot is off', () => {
    it('says there is no bot, refuses a link with 503 and answers 401 signed out', async () => {
      const customer = await f.newUser();
      expect((await f.call(null, 'GET', '/api/me/telegram')).statusCode).toBe(401);
      expect((await f.call(null, 'POST', '/api/me/telegram-link')).statusCode).toBe(401);
      expect((await f.call(null, 'DELETE', '/api/me/telegram')).statusCode).toBe(401);
      expect((await f.call(customer, 'GET', '/api/me/telegram')).json()).toEqual({ bot: null, linked: null, preferences: null });
      const refused = await f.call(customer, 'POST', '/api/me/telegram-link');
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'service_unavailable', message: expect.any(String) });
      expect(await f.count('telegram_link_tokens')).toBe(0);
    });
  });

  describe('with the bot on', () => {
    beforeAll(async () => {
      const saved = await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN });
      expect(saved.statusCode, saved.body).toBe(200);
    });

    it('links the Telegram user who opens the dashboard’s one-time link, once, and shows it on the dashboard', async () => {
      const customer = await f.newUser();
      expect((await f.call(customer, 'GET', '/api/me/telegram')).json()).toEqual({ bot: { username: 'lumen_link_bot' }, linked: null, preferences: null });
      const { url, expiresAt } = await linkUrl(customer);
      expect(url).toMatch(/^https:\/\/t\.me\/lumen_link_bot\?start=link_[A-Za-z0-9_-]{20,59}$/);
      expect(new Date(expiresAt).getTime() - f.t.clock.now().getTime()).toBe(15 * 60 * 1000);
      // Telegram passes the payload to /start; only its hash is kept.
      const row = await f.env.database.db('telegram_link_tokens').where({ user_id: customer.userId }).first();
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(tokenOf(url).slice('link_'.length));

      const ann = { id: 801, first_name: 'Ann', username: 'ann_k' };
      const replies = await say(ann, `/start ${tokenOf(url)}`);
      expect(replies[0]!.text).toContain('linked to your');
      expect(buttons(replies[1]!).map((button) => button.callback_data)).toEqual(expect.arrayContaining(['my', 'trial']));
      expect(await chatOf(801)).toMatchObject({ user_id: customer.userId });
      expect((await f.call(customer, 'GET', '/api/me/telegram')).json()).toEqual({
        bot: { username: 'lumen_link_bot' },
        linked: { username: 'ann_k', firstName: 'Ann' },
        preferences: { noticesByEmail: true, codesByTelegram: false },
      });
      expect(await f.count('audit_log', { action: 'telegram.linked', actor_id: customer.userId })).toBe(1);
      // The admin's page of the customer names their Telegram.
      expect((await f.call(f.admin, 'GET', `/api/admin/users/${customer.userId}`)).json().telegram).toEqual({
        id: 801,
        username: 'ann_k',
        firstName: 'Ann',
        blockedAt: null,
      });

      // The same link again, by someone else: used up.
      const bob = { id: 802 };
      expect((await say(bob, `/start ${tokenOf(url)}`))[0]!.text).toContain('already used or has expired');
      expect((await chatOf(802)).user_id).toBeNull();
    });

    it('gives a link to one Telegram user when two open it at once', async () => {
      const customer = await f.newUser();
      const payload = tokenOf((await linkUrl(customer)).url);
      const [first, second] = await Promise.all([say({ id: 812 }, `/start ${payload}`), say({ id: 813 }, `/start ${payload}`)]);
      const linkedReplies = [...first, ...second].filter((sent) => sent.text?.includes('linked to your'));
      expect(linkedReplies).toHaveLength(1);
      const linked = await f.env.database.db('telegram_chats').whereIn('telegram_id', [812, 813]).whereNotNull('user_id');
      expect(linked).toHaveLength(1);
      expect(linked[0].user_id).toBe(customer.userId);
    });

    it('refuses an expired link, and a made-up one', async () => {
      const customer = await f.newUser();
      const { url } = await linkUrl(customer);
      f.t.clock.advance(15 * 60 + 1);
      const cid = { id: 803 };
      expect((await say(cid, `/start ${tokenOf(url)}`))[0]!.text).toContain('already used or has expired');
      expect((await say(cid, '/start link_madeUpTokenThatWasNeverIssued000'))[0]!.text).toContain('already used or has expired');
      expect((await chatOf(803)).user_id).toBeNull();
    });

    it('keeps one Telegram per customer: linking another moves the link, and the customer can unlink', async () => {
      const customer = await f.newUser();
      await say({ id: 804 }, `/start ${tokenOf((await linkUrl(customer)).url)}`);
      await say({ id: 805, first_name: 'Dee' }, `/start ${tokenOf((await linkUrl(customer)).url)}`);
      expect((await chatOf(804)).user_id).toBeNull();
      expect((await chatOf(805)).user_id).toBe(customer.userId);
      // Someone else's DELETE leaves this link alone.
      const other = await f.newUser();
      expect((await f.call(other, 'DELETE', '/api/me/telegram')).statusCode).toBe(204);
      expect((await chatOf(805)).user_id).toBe(customer.userId);
      expect((await f.call(customer, 'DELETE', '/api/me/telegram')).statusCode).toBe(204);
      expect((await chatOf(805)).user_id).toBeNull();
      expect((await f.call(customer, 'GET', '/api/me/telegram')).json().linked).toBeNull();
      expect((await f.call(f.admin, 'GET', `/api/admin/users/${customer.userId}`)).json().telegram).toBeNull();
    });

    it('links by an e-mail code asked for in the bot, in the person’s language', async () => {
      const eve = { id: 806, language_code: 'ru' };
      expect((await tap(eve, 'link'))[0]!.text).toContain('адрес почты');
      expect((await say(eve, 'not an address'))[0]!.text).toContain('не похоже');
      const email = `eve-${kind}@example.com`;
      const mails = f.env.smtp.messages.length;
      expect((await say(eve, email))[0]!.text).toContain(email);
      await f.env.smtp.waitFor(email, { after: mails });
      const code = await f.env.smtp.latestCode(email);
      const wrong = code === '000000' ? '111111' : '000000';
      expect((await say(eve, wrong))[0]!.text).toMatch(/Код неверный. Осталось 4 попытки/);
      expect((await say(eve, 'abc'))[0]!.text).toContain('6 цифр');
      const done = await say(eve, code.split('').join(' '));
      expect(done[0]!.text).toContain(email);
      const user = await f.env.database.db('user_profiles').where({ email }).first();
      expect(user).toMatchObject({ locale: 'ru' });
      expect(await chatOf(806)).toMatchObject({ user_id: user.id, awaiting: null, awaiting_email: null });
      // The code is used up: it cannot sign anyone in afterwards.
      expect((await f.call(null, 'POST', '/api/auth/verify', { email, code })).statusCode).toBe(400);
    });

    it('lets the person cancel linking, after which what they type shows the menu', async () => {
      const fay = { id: 807 };
      await tap(fay, 'link');
      expect((await tap(fay, 'link:cancel'))[0]!.text).toBe('Cancelled.');
      expect((await chatOf(807)).awaiting).toBeNull();
      expect((await say(fay, 'hello@example.com'))[0]!.text).toContain('Welcome to');
    });

    it('asks an unlinked person to link before /my or /trial', async () => {
      const gus: Person = { id: 808 };
      const accounts = await f.count('vpn_accounts');
      for (const command of ['/my', '/trial']) {
        const replies = await say(gus, command);
        expect(replies[0]!.text).toContain('First link your account');
        expect(buttons(replies[0]!).map((button) => button.callback_data)).toContain('link');
      }
      expect(await f.count('vpn_accounts')).toBe(accounts);
    });

    it('gives the trial once per person: from the bot with its link and QR code, and refused after the web’s', async () => {
      const customer = await f.newUser();
      const hal = { id: 809 };
      await say(hal, `/start ${tokenOf((await linkUrl(customer)).url)}`);
      expect((await say(hal, '/my'))[0]!.text).toContain('no VPN yet');

      const before = await f.count('vpn_accounts', { user_id: customer.userId });
      const trial = await say(hal, '/trial');
      expect(trial).toHaveLength(1);
      expect(trial[0]!.method).toBe('sendPhoto');
      expect(trial[0]!.params.photo).toMatchObject({ filename: 'vpn-link.png', size: expect.any(Number) });
      const subLink = /<code>([^<]+)<\/code>/.exec(trial[0]!.caption!)![1]!;
      expect(subLink).toMatch(/\/sub\/[A-Za-z0-9_-]+$/);
      expect(trial[0]!.caption).toContain('free trial is ready');
      expect(await f.count('vpn_accounts', { user_id: customer.userId })).toBe(before + 1);
      const accounts = (await f.call(customer, 'GET', '/api/accounts')).json();
      expect(accounts[0].combinedUrl).toBe(subLink);

      expect((await say(hal, '/trial'))[0]!.text).toContain('already used your free trial');
      expect(await f.count('vpn_accounts', { user_id: customer.userId })).toBe(before + 1);

      // /my lists it, and its button sends the link again; another customer's account id shows the list instead.
      const mine = await say(hal, '/my');
      expect(mine[0]!.text).toContain('Trial');
      expect(mine[0]!.text).toContain('active');
      const connect = buttons(mine[0]!).find((button) => button.callback_data?.startsWith('account:'))!;
      const again = await tap(hal, connect.callback_data!);
      expect(again[0]!.caption).toContain(subLink);
      const stranger = await f.newUser();
      const theirs = await f.call(stranger, 'POST', '/api/accounts', { planId: f.trialPlanId });
      expect(theirs.statusCode, theirs.body).toBe(201);
      const shown = await tap(hal, `account:${theirs.json().id}`);
      expect(shown[0]!.method).toBe('sendMessage');
      expect(shown[0]!.text).not.toContain(theirs.json().combinedUrl);

      // The stranger took the trial on the web: linked in the bot, they are refused there.
      const ivy = { id: 810 };
      await say(ivy, `/start ${tokenOf((await linkUrl(stranger)).url)}`);
      expect((await say(ivy, '/trial'))[0]!.text).toContain('already used your free trial');
      expect(await f.count('vpn_accounts', { user_id: stranger.userId })).toBe(1);
    });

    it('asks for the channel first when the admin requires it', async () => {
      expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { channel: '@lumen_news' })).statusCode).toBe(200);
      const customer = await f.newUser();
      const jo = { id: 811 };
      await say(jo, `/start ${tokenOf((await linkUrl(customer)).url)}`);
      telegram().setChatMember('@lumen_news', 811, 'left');
      const asked = await say(jo, '/trial');
      expect(asked[0]!.text).toContain('@lumen_news');
      expect(buttons(asked[0]!)).toEqual(
        expect.arrayContaining([expect.objectContaining({ url: 'https://t.me/lumen_news' }), expect.objectContaining({ callback_data: 'trial' })]),
      );
      expect(await f.count('vpn_accounts', { user_id: customer.userId })).toBe(0);
      telegram().setChatMember('@lumen_news', 811, 'member');
      expect((await tap(jo, 'trial'))[0]!.method).toBe('sendPhoto');
      expect(await f.count('vpn_accounts', { user_id: customer.userId })).toBe(1);
      expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { channel: null })).statusCode).toBe(200);
    });
  });
});
