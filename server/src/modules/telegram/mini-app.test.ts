import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INIT_DATA_MAX_LENGTH } from '../../../../shared/telegram-auth.js';
import { parseJson } from '../../db/values.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { signMiniAppLaunch, tamperMiniAppLaunch, type MiniAppUser } from '../../../test/fake-telegram/init-data.js';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fake-telegram/index.js';
import { useTelegramFixture } from '../../../test/telegram-kit.js';
import { bearer, buildTestApp, cookieHeader, signInDesktop, signInWeb, TEST_ORIGIN, type TestApp } from '../../../test/test-app.js';

const TOKEN = '7000001:AAFixtureBotTokenForTheStorefront12345';
const BOT = { id: 7000001, username: 'lumen_vpn_bot', first_name: 'Lumen VPN' };
const OTHER_TOKEN = '7000002:AAnotherBotTokenTelegramDoesNotKnow999';
const NOT_LINKED = 'This Telegram account is not linked to a customer yet: sign in with your e-mail to link it.';

let nextTelegramId = 900_000;
/** A Telegram user of its own for each test. */
const person = (extra: Partial<MiniAppUser> = {}): MiniAppUser => ({
  id: (nextTelegramId += 1),
  first_name: 'Ann',
  username: 'ann_k',
  language_code: 'en',
  ...extra,
});

describe.each(TEST_DATABASES)('the Telegram Mini App signs in and links (%s)', (kind) => {
  const { f } = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  const db = () => f.env.database.db;
  /** Launch data as Telegram signs it now (the app's clock), with this bot's token unless told another. */
  const launch = (user: MiniAppUser, options: { token?: string; ageSeconds?: number } = {}) =>
    signMiniAppLaunch(options.token ?? TOKEN, user, { authDate: Math.floor(f.t.clock.now().getTime() / 1000) - (options.ageSeconds ?? 5) });
  const signIn = (initData: unknown) => f.t.app.inject({ method: 'POST', url: '/api/auth/telegram', payload: { initData } });
  const link = (session: Parameters<typeof f.call>[0], initData: unknown) => f.call(session, 'POST', '/api/me/telegram', { initData });
  const chatOf = (telegramId: number) => db()('telegram_chats').where({ telegram_id: telegramId }).first();
  const expectRefused = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ code, message: expect.any(String) });
    expect(res.cookies).toEqual([]);
  };

  it('answers 401 while the store has no bot switched on, and starts no session', async () => {
    const sessions = await f.count('sessions');
    const res = await signIn(launch(person()));
    expectRefused(res, 401, 'unauthenticated');
    expect(res.json().message).toContain('bot is switched off');
    // Signed in, a refusal is not a lost session: 503, so the page keeps its session.
    expectRefused(await link(await f.newUser(), launch(person())), 503, 'service_unavailable');
    expect(await f.count('sessions')).toBe(sessions + 1); // the new customer's own sign-in only
    expect(await f.count('telegram_chats')).toBe(0);
  });

  describe('with the bot on', () => {
    beforeAll(async () => {
      const saved = await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN });
      expect(saved.statusCode, saved.body).toBe(200);
    });

    it('links a customer’s Telegram, then signs them in with it: a web session that GET /api/me takes', async () => {
      const customer = await f.newUser();
      const ann = person({ username: 'ann_linked' });
      const linked = await link(customer, launch(ann));
      expect(linked.statusCode, linked.body).toBe(200);
      expect(linked.json()).toEqual({ linked: true, telegram: { id: ann.id, username: 'ann_linked', firstName: 'Ann' } });
      expect(await chatOf(ann.id)).toMatchObject({ user_id: customer.userId, username: 'ann_linked', first_name: 'Ann', language_code: 'en' });

      const res = await signIn(launch(ann));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ user: { id: customer.userId, email: expect.stringMatching(/^buyer\d+-/), role: 'user', trialUsed: false, locale: 'en' } });
      expect(res.cookies.map((cookie) => cookie.name).sort()).toEqual(['vpn_access', 'vpn_refresh']);
      const me = await f.t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookieHeader(res) } });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ id: customer.userId });
      expect(await f.count('sessions', { user_id: customer.userId, client: 'web' })).toBe(1);
      const audit = await db()('audit_log').where({ actor_id: customer.userId, action: 'auth.sign_in' }).orderBy('id', 'desc').first();
      expect(parseJson(audit.details, {})).toEqual({ client: 'telegram', by: 'telegram', telegramId: ann.id, device: 'lightMyRequest' });
      const linkedAudit = await db()('audit_log').where({ actor_id: customer.userId, action: 'telegram.linked' }).first();
      expect(parseJson(linkedAudit.details, {})).toEqual({ telegramId: ann.id, by: 'mini_app' });
    });

    it('links from a web session too (cookies, from the site’s own origin)', async () => {
      const web = await signInWeb(f.t, f.env.smtp, `mini-web-${kind}@example.com`);
      const ben = person({ first_name: 'Ben', username: undefined });
      const res = await f.t.app.inject({
        method: 'POST',
        url: '/api/me/telegram',
        headers: { cookie: web.cookie, origin: TEST_ORIGIN },
        payload: { initData: launch(ben) },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ linked: true, telegram: { id: ben.id, username: null, firstName: 'Ben' } });
      expect((await signIn(launch(ben))).json().user.id).toBe(web.userId);
    });

    it('answers 403 telegram_not_linked to a Telegram user linked to no one, and starts no session', async () => {
      const stranger = person();
      const sessions = await f.count('sessions');
      const res = await signIn(launch(stranger));
      expectRefused(res, 403, 'telegram_not_linked');
      expect(res.json()).toEqual({ code: 'telegram_not_linked', message: NOT_LINKED });
      expect(await chatOf(stranger.id)).toBeUndefined();
      // One who wrote to the bot but never linked: the same.
      const writer = person();
      await db()('telegram_chats').insert({ telegram_id: writer.id, first_name: 'W', created_at: new Date(), updated_at: new Date() });
      expectRefused(await signIn(launch(writer)), 403, 'telegram_not_linked');
      expect(await f.count('sessions')).toBe(sessions);
    });

    it('refuses launch data signed with another token, or changed after signing (401), and starts no session', async () => {
      const customer = await f.newUser();
      const cleo = person();
      expect((await link(customer, launch(cleo))).statusCode).toBe(200);
      const sessions = await f.count('sessions');
      const forged = await signIn(launch(cleo, { token: OTHER_TOKEN }));
      expectRefused(forged, 401, 'unauthenticated');
      expect(forged.json().message).toContain('signature');
      // Someone else's id put into a real user's signed data.
      const mallory = person();
      const tampered = tamperMiniAppLaunch(launch(mallory), 'user', JSON.stringify({ id: cleo.id, first_name: 'Cleo' }));
      expectRefused(await signIn(tampered), 401, 'unauthenticated');
      expectRefused(await signIn('user=%7B%22id%22%3A1%7D&auth_date=1&hash=00'), 401, 'unauthenticated');
      expect(await f.count('sessions')).toBe(sessions);
    });

    it('refuses launch data more than a day old, or dated ahead (401)', async () => {
      const customer = await f.newUser();
      const dan = person();
      expect((await link(customer, launch(dan))).statusCode).toBe(200);
      const stale = await signIn(launch(dan, { ageSeconds: 24 * 60 * 60 + 1 }));
      expectRefused(stale, 401, 'unauthenticated');
      expect(stale.json().message).toContain('more than a day old');
      expectRefused(await signIn(launch(dan, { ageSeconds: -120 })), 401, 'unauthenticated');
      expect((await signIn(launch(dan, { ageSeconds: 24 * 60 * 60 - 60 }))).statusCode).toBe(200);
    });

    it('answers 400 for a body without initData, or with one too long', async () => {
      const missing = await f.t.app.inject({ method: 'POST', url: '/api/auth/telegram', payload: {} });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ code: 'validation_failed', fields: { initData: expect.any(String) } });
      expect((await signIn('')).json()).toMatchObject({ code: 'validation_failed', fields: { initData: expect.any(String) } });
      expect((await signIn(42)).statusCode).toBe(400);
      const long = await signIn(`${launch(person())}&pad=${'x'.repeat(INIT_DATA_MAX_LENGTH)}`);
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({ code: 'validation_failed', fields: { initData: expect.stringContaining(String(INIT_DATA_MAX_LENGTH)) } });
      const customer = await f.newUser();
      expect((await link(customer, 'x'.repeat(INIT_DATA_MAX_LENGTH + 1))).statusCode).toBe(400);
      expect((await f.call(customer, 'POST', '/api/me/telegram', {})).statusCode).toBe(400);
    });

    it('POST /api/me/telegram: 401 signed out (before the body is read), 400 for forged or stale data (the session stays), and nothing is linked', async () => {
      const eve = person();
      const signedOut = await link(null, launch(eve));
      expectRefused(signedOut, 401, 'unauthenticated');
      expect((await link(null, 'not even launch data')).statusCode).toBe(401);
      const customer = await f.newUser();
      expectRefused(await link(customer, launch(eve, { token: OTHER_TOKEN })), 400, 'validation_failed');
      expectRefused(await link(customer, launch(eve, { ageSeconds: 2 * 24 * 60 * 60 })), 400, 'validation_failed');
      expect(await chatOf(eve.id)).toBeUndefined();
      expect(await db()('telegram_chats').where({ user_id: customer.userId }).first()).toBeUndefined();
      expectRefused(await signIn(launch(eve)), 403, 'telegram_not_linked');
    });

    it('linking a second Telegram to a customer unlinks the first, which then cannot sign in', async () => {
      const customer = await f.newUser();
      const [first, second] = [person(), person()];
      expect((await link(customer, launch(first))).statusCode).toBe(200);
      expect((await link(customer, launch(second))).statusCode).toBe(200);
      expect((await chatOf(first.id)).user_id).toBeNull();
      expect((await chatOf(second.id)).user_id).toBe(customer.userId);
      expectRefused(await signIn(launch(first)), 403, 'telegram_not_linked');
      expect((await signIn(launch(second))).json().user.id).toBe(customer.userId);
    });

    it('a Telegram user linked by another customer moves to them (the launch data proves the one, the session the other)', async () => {
      const [before, after] = [await f.newUser(), await f.newUser()];
      const fay = person();
      await link(before, launch(fay));
      // A person who wrote to the bot and blocked it later: linking keeps what the bot knows of them.
      await db()('telegram_chats').where({ telegram_id: fay.id }).update({ blocked_at: new Date() });
      expect((await link(after, launch(fay))).statusCode).toBe(200);
      expect(await chatOf(fay.id)).toMatchObject({ user_id: after.userId, blocked_at: expect.anything() });
      expect((await signIn(launch(fay))).json().user.id).toBe(after.userId);
    });

    it('switched off again, refuses launch data from a linked user (401)', async () => {
      const customer = await f.newUser();
      const gus = person();
      expect((await link(customer, launch(gus))).statusCode).toBe(200);
      expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: false })).statusCode).toBe(200);
      expectRefused(await signIn(launch(gus)), 401, 'unauthenticated');
      expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true })).statusCode).toBe(200);
      expect((await signIn(launch(gus))).statusCode).toBe(200);
    });
  });
});

describe('POST /api/auth/telegram is limited per address', () => {
  const env = useTestEnvironment('sqlite');
  let telegram: FakeTelegram;
  let t: TestApp;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    telegram.addBot(TOKEN, BOT);
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'admin@example.com', TELEGRAM_API_URL: telegram.url, TELEGRAM_UPDATES: 'webhook' },
      rateLimits: { verifyPerIp: { max: 2, windowSeconds: 60 } },
    });
    const admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/telegram',
      headers: bearer(admin.accessToken),
      payload: { enabled: true, botToken: TOKEN },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(async () => {
    await t?.app.close();
    await telegram?.close();
  });

  it('answers 429 with Retry-After past the limit, before the launch data is checked', async () => {
    const post = () => t.app.inject({ method: 'POST', url: '/api/auth/telegram', payload: { initData: signMiniAppLaunch(TOKEN, person()) } });
    expect((await post()).statusCode).toBe(403);
    expect((await post()).statusCode).toBe(403);
    const limited = await post();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
