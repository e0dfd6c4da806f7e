import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../db/values.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { signMiniAppLaunch, type MiniAppUser } from '../../../test/fake-telegram/init-data.js';
import { setProgramme } from '../../../test/referral-kit.js';
import { buttons, useTelegramFixture, type TelegramSender as Person } from '../../../test/telegram-kit.js';
import { cookieHeader, TEST_ORIGIN, type DesktopSession } from '../../../test/test-app.js';

const TOKEN = '7000031:AAFixtureBotTokenForCustomersWithoutMail';
const BOT = { id: 7000031, username: 'lumen_nomail_bot', first_name: 'Lumen VPN' };
const NO_EMAIL = 'signup:telegram';

/** Customers who came through the Telegram bot without an e-mail address: made, signed in, given an address later. */
describe.each(TEST_DATABASES)('customers without an e-mail address (%s)', (kind) => {
  const { f, telegram, say, tap } = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  const db = () => f.env.database.db;
  const chatOf = (telegramId: number) => db()('telegram_chats').where({ telegram_id: telegramId }).first();
  const userOf = (id: string) => db()('user_profiles').where({ id }).first();
  const launch = (user: MiniAppUser) => signMiniAppLaunch(TOKEN, user, { authDate: Math.floor(f.t.clock.now().getTime() / 1000) - 5 });
  const miniApp = (user: MiniAppUser, signUp?: boolean) =>
    f.t.app.inject({ method: 'POST', url: '/api/auth/telegram', payload: { initData: launch(user), ...(signUp === undefined ? {} : { signUp }) } });
  /** A web session's request (cookies, from the site's own origin). */
  const asWeb = (session: LightMyRequestResponse, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    f.t.app.inject(
      payload === undefined
        ? { method, url, headers: { cookie: cookieHeader(session), origin: TEST_ORIGIN } }
        : { method, url, headers: { cookie: cookieHeader(session), origin: TEST_ORIGIN }, payload },
    );
  const linkUrl = async (user: DesktopSession) => new URL((await f.call(user, 'POST', '/api/me/telegram-link')).json().url).searchParams.get('start')!;

  beforeAll(async () => {
    const saved = await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('makes a customer of a Telegram user who continues without an e-mail; the trial is theirs once', async () => {
    const kim: Person = { id: 3101, first_name: 'Kim', language_code: 'ru' };
    const asked = await say(kim, '/trial');
    expect(asked[0]!.text).toContain('привяжите аккаунт');
    expect(buttons(asked[0]!).map((button) => button.callback_data)).toEqual(['link', NO_EMAIL, 'menu']);
    const users = await f.count('user_profiles');

    const done = await tap(kim, NO_EMAIL);
    expect(done[0]!.text).toContain('это этот Telegram');
    const chat = await chatOf(3101);
    expect(chat.user_id).toEqual(expect.any(String));
    expect(await userOf(chat.user_id)).toMatchObject({ email: null, role: 'user', locale: 'ru' });
    expect(await f.count('user_profiles')).toBe(users + 1);
    const audit = await db()('audit_log').where({ actor_id: chat.user_id, action: 'auth.sign_up' }).first();
    expect(parseJson(audit.details, {})).toEqual({ via: 'telegram_bot', telegramId: 3101 });

    // Pressed again (an old message), nobody new is made: the menu.
    await tap(kim, NO_EMAIL);
    expect(await f.count('user_profiles')).toBe(users + 1);

    const trial = await say(kim, '/trial');
    expect(trial[0]!.method).toBe('sendPhoto');
    expect(await f.count('vpn_accounts', { user_id: chat.user_id })).toBe(1);
    expect((await say(kim, '/trial'))[0]!.text).not.toContain('<code>');
    expect(await f.count('vpn_accounts', { user_id: chat.user_id })).toBe(1);
  });

  it('counts the invitation a person opened the bot with when they go on without an e-mail', async () => {
    await setProgramme(f);
    const referrer = await f.newUser();
    const { code } = (await f.call(referrer, 'GET', '/api/referrals/me')).json() as { code: string };
    const sam: Person = { id: 3109, first_name: 'Sam' };
    await say(sam, `/start ref_${code}`);
    await tap(sam, NO_EMAIL);
    const chat = await chatOf(3109);
    expect(chat.start_payload).toBeNull();
    expect(await db()('referrals').where({ referred_id: chat.user_id }).first()).toMatchObject({ referrer_id: referrer.userId, code });
  });

  it('does not make a second customer of a Telegram user who was linked before and unlinked', async () => {
    const customer = await f.newUser();
    const lee: Person = { id: 3102, first_name: 'Lee' };
    await say(lee, `/start ${await linkUrl(customer)}`);
    expect((await f.call(customer, 'DELETE', '/api/me/telegram')).statusCode).toBe(204);
    const asked = await say(lee, '/my');
    expect(buttons(asked[0]!).map((button) => button.callback_data)).toEqual(['link', 'menu']);
    const users = await f.count('user_profiles');
    const refused = await tap(lee, NO_EMAIL);
    expect(refused[0]!.text).toContain('linked to an account before');
    expect(await f.count('user_profiles')).toBe(users);
    expect((await chatOf(3102)).user_id).toBeNull();
    // Nor in the Mini App.
    const res = await miniApp({ id: 3102, first_name: 'Lee' }, true);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: 'telegram_not_linked', message: expect.stringContaining('linked to an account before') });
    expect(await f.count('user_profiles')).toBe(users);
  });

  it('signs up in the Mini App when asked (403 not linked otherwise), and the session works without an address', async () => {
    const mia: MiniAppUser = { id: 3103, first_name: 'Mia', language_code: 'en' };
    const users = await f.count('user_profiles');
    const refused = await miniApp(mia);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('telegram_not_linked');
    expect(await f.count('user_profiles')).toBe(users);

    const session = await miniApp(mia, true);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json()).toEqual({ user: { id: expect.any(String), email: null, role: 'user', trialUsed: false, locale: null } });
    expect((await chatOf(3103)).user_id).toBe(session.json().user.id);
    const me = await asWeb(session, 'GET', '/api/me');
    expect(me.json()).toMatchObject({ id: session.json().user.id, email: null });
    // Signed in again, the same customer (signUp makes nobody new once linked).
    expect((await miniApp(mia, true)).json().user.id).toBe(session.json().user.id);
    expect(await f.count('user_profiles')).toBe(users + 1);
    // Their Telegram is how they sign in: it cannot be unlinked while they have no address.
    const unlink = await asWeb(session, 'DELETE', '/api/me/telegram');
    expect(unlink.statusCode).toBe(409);
    expect(unlink.json()).toMatchObject({ code: 'email_required' });
    expect((await chatOf(3103)).user_id).toBe(session.json().user.id);
    // Bad launch data is refused, signing up or not.
    const forged = await f.t.app.inject({ method: 'POST', url: '/api/auth/telegram', payload: { initData: 'user=%7B%7D&hash=00', signUp: true } });
    expect(forged.statusCode).toBe(401);
    const bad = await f.t.app.inject({ method: 'POST', url: '/api/auth/telegram', payload: { initData: launch(mia), signUp: 'yes' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_failed');
  });

  it('keeps a Telegram that is a customer’s only way in when another customer’s link is opened in it', async () => {
    const nia: Person = { id: 3104, first_name: 'Nia' };
    await say(nia, '/start');
    await tap(nia, NO_EMAIL);
    const held = (await chatOf(3104)).user_id;
    const other = await f.newUser();
    const token = await linkUrl(other);
    const replies = await say(nia, `/start ${token}`);
    expect(replies[0]!.text).toContain('cannot be moved');
    expect((await chatOf(3104)).user_id).toBe(held);
    // The link was not spent: opened in a Telegram that is free, it links.
    await say({ id: 3105, first_name: 'Oz' }, `/start ${token}`);
    expect((await chatOf(3105)).user_id).toBe(other.userId);
  });

  it('adds an e-mail address proved by a code, once; a taken address is 409; 401 signed out; 400 bad input', async () => {
    const pat: MiniAppUser = { id: 3106, first_name: 'Pat' };
    const session = await miniApp(pat, true);
    const userId = session.json().user.id as string;
    const address = `pat-${kind}@example.com`;
    expect((await f.t.app.inject({ method: 'POST', url: '/api/me/email', payload: { email: address } })).statusCode).toBe(401);
    const badEmail = await asWeb(session, 'POST', '/api/me/email', { email: 'not-an-address' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toMatchObject({ code: 'validation_failed', fields: { email: expect.any(String) } });

    const after = f.env.smtp.messages.length;
    const sent = await asWeb(session, 'POST', '/api/me/email', { email: address });
    expect(sent.statusCode, sent.body).toBe(200);
    await f.env.smtp.waitFor(address, { after });
    const code = await f.env.smtp.latestCode(address);
    const wrong = await asWeb(session, 'POST', '/api/me/email/confirm', { email: address, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('invalid_code');
    expect((await userOf(userId)).email).toBeNull();

    const confirmed = await asWeb(session, 'POST', '/api/me/email/confirm', { email: address, code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ id: userId, email: address });
    expect((await userOf(userId)).email).toBe(address);
    expect(await f.count('audit_log', { actor_id: userId, action: 'user.email_added' })).toBe(1);
    // Now they have one: asking again is refused, and the address signs them in on the web as any customer's does.
    const again = await asWeb(session, 'POST', '/api/me/email', { email: `other-${address}` });
    expect(again.statusCode).toBe(409);

    // Another Telegram customer proving an address someone has: 409 email_taken, nothing changed.
    const quinn = await miniApp({ id: 3107, first_name: 'Quinn' }, true);
    f.t.clock.advance(61 * 1000); // the address's resend cooldown
    const before = f.env.smtp.messages.length;
    expect((await asWeb(quinn, 'POST', '/api/me/email', { email: address })).statusCode).toBe(200);
    await f.env.smtp.waitFor(address, { after: before });
    const taken = await asWeb(quinn, 'POST', '/api/me/email/confirm', { email: address, code: await f.env.smtp.latestCode(address) });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'email_taken', message: expect.any(String) });
    expect((await userOf(quinn.json().user.id)).email).toBeNull();
  });

  it('tells a customer without an address by Telegram (their receipt), and sends no e-mail; Stripe’s page asks for one', async () => {
    const ray: MiniAppUser = { id: 3108, first_name: 'Ray' };
    await say({ id: 3108, first_name: 'Ray' }, '/start');
    const web = await miniApp(ray, true);
    const cookie = (name: string) => web.cookies.find((c) => c.name === name)!.value;
    // The web session's access token serves as a bearer token too (the desktop app's way of calling the API).
    const session: DesktopSession = { accessToken: cookie('vpn_access'), refreshToken: cookie('vpn_refresh'), userId: web.json().user.id };
    const mails = f.env.smtp.messages.length;
    const sentBefore = telegram().sent.length;
    await f.buyAccount(session);
    await f.runJobs();
    const receipts = telegram()
      .sent.slice(sentBefore)
      .filter((sent) => sent.chatId === 3108 && sent.method === 'sendMessage');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.text).toContain('$4.99');
    expect(f.env.smtp.messages.length).toBe(mails);
    expect(f.stripe.listSessions().at(-1)!.customer_email).toBeNull();
  });
});
