import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTelegramFixture } from '../../../test/telegram-kit.js';
import { signInWeb, TEST_ORIGIN, type DesktopSession } from '../../../test/test-app.js';
import { parseJson } from '../../db/values.js';

const TOKEN = '7000031:AAFixtureBotTokenForDeliveryChoices0001';
const BOT = { id: 7000031, username: 'lumen_choices_bot', first_name: 'Lumen VPN' };
const PATH = '/api/me/telegram/preferences';

/**
 * A linked customer's choices of how they are told things (`PATCH /api/me/telegram/preferences`): kept on their
 * linked chat, answered with the Telegram status, audited; refused signed out, from another site, with a bad body, and
 * with no Telegram linked.
 */
describe.each(TEST_DATABASES)('Telegram delivery choices (%s)', (kind) => {
  const fixture = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  const { f } = fixture;
  let chatId = 9300;
  beforeAll(async () => {
    expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN })).statusCode).toBe(200);
  });

  /** Links a new chat (or `chat`) to the customer through the dashboard's one-time link. */
  async function link(user: DesktopSession, chat = (chatId += 1)): Promise<number> {
    const { url } = (await f.call(user, 'POST', '/api/me/telegram-link')).json();
    await fixture.say({ id: chat, first_name: 'Ann', username: `ann${chat}` }, `/start ${new URL(url).searchParams.get('start')}`);
    expect((await chatRow(chat)).user_id).toBe(user.userId);
    return chat;
  }
  const chatRow = (chat: number) => f.env.database.db('telegram_chats').where({ telegram_id: chat }).first();
  const audits = (userId: string) => f.env.database.db('audit_log').where({ action: 'telegram.preferences', actor_id: userId });

  it('keeps the choices given on the linked chat, answers the Telegram status with them, and audits each change', async () => {
    const customer = await f.newUser();
    const chat = await link(customer);
    expect((await f.call(customer, 'GET', '/api/me/telegram')).json().preferences).toEqual({ noticesByEmail: true, codesByTelegram: false });

    const first = await f.call(customer, 'PATCH', PATH, { noticesByEmail: false });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      bot: { username: 'lumen_choices_bot' },
      linked: { username: `ann${chat}`, firstName: 'Ann' },
      preferences: { noticesByEmail: false, codesByTelegram: false },
    });
    // Only the choice given changes.
    const second = await f.call(customer, 'PATCH', PATH, { codesByTelegram: true });
    expect(second.json().preferences).toEqual({ noticesByEmail: false, codesByTelegram: true });
    expect((await f.call(customer, 'GET', '/api/me/telegram')).json().preferences).toEqual({ noticesByEmail: false, codesByTelegram: true });
    expect(await chatRow(chat)).toMatchObject({ choices_user_id: customer.userId });

    const audited = await audits(customer.userId).orderBy('id');
    expect(audited.map((row) => parseJson(row.details, {}))).toEqual([{ noticesByEmail: false }, { codesByTelegram: true }]);
  });

  it('answers 401 signed out, and changes nothing', async () => {
    const customer = await f.newUser();
    const chat = await link(customer);
    const res = await f.call(null, 'PATCH', PATH, { noticesByEmail: false });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthenticated' });
    expect(await chatRow(chat)).toMatchObject({ choices_user_id: null });
  });

  it('refuses a change sent with the session cookie from another site (403 csrf_failed), and changes nothing', async () => {
    const email = `choices-web-${kind}@example.com`;
    const web = await signInWeb(f.t, f.env.smtp, email);
    const made = await f.t.app.inject({ method: 'POST', url: '/api/me/telegram-link', headers: { cookie: web.cookie, origin: TEST_ORIGIN } });
    expect(made.statusCode, made.body).toBe(200);
    const webChat = (chatId += 1);
    await fixture.say({ id: webChat }, `/start ${new URL(made.json().url).searchParams.get('start')}`);

    for (const origin of [undefined, 'https://evil.example']) {
      const res = await f.t.app.inject({
        method: 'PATCH',
        url: PATH,
        headers: { cookie: web.cookie, ...(origin ? { origin } : {}) },
        payload: { noticesByEmail: false },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'csrf_failed' });
    }
    expect(await chatRow(webChat)).toMatchObject({ user_id: web.userId, choices_user_id: null });
    const same = await f.t.app.inject({ method: 'PATCH', url: PATH, headers: { cookie: web.cookie, origin: TEST_ORIGIN }, payload: { noticesByEmail: false } });
    expect(same.statusCode, same.body).toBe(200);
  });

  it.each([
    ['no choice', {}],
    ['a choice that is not true or false', { noticesByEmail: 'no' }],
    ['a field it does not know', { codesByTelegram: true, smsToo: true }],
    ['null', { noticesByEmail: null }],
  ])('refuses %s with 400 validation_failed, and changes nothing', async (_, body) => {
    const customer = await f.newUser();
    const chat = await link(customer);
    const res = await f.call(customer, 'PATCH', PATH, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', fields: expect.any(Object) });
    expect(await chatRow(chat)).toMatchObject({ choices_user_id: null });
    expect(await audits(customer.userId)).toHaveLength(0);
  });

  it('answers 409 telegram_not_linked to a customer with no Telegram linked, and writes nothing', async () => {
    const customer = await f.newUser();
    const res = await f.call(customer, 'PATCH', PATH, { codesByTelegram: true });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'telegram_not_linked', message: expect.any(String) });
    expect(await audits(customer.userId)).toHaveLength(0);

    // Unlinked after choosing: the choices go with the link.
    const chat = await link(customer);
    expect((await f.call(customer, 'PATCH', PATH, { codesByTelegram: true })).statusCode).toBe(200);
    expect((await f.call(customer, 'DELETE', '/api/me/telegram')).statusCode).toBe(204);
    expect((await f.call(customer, 'GET', '/api/me/telegram')).json().preferences).toBeNull();
    expect((await f.call(customer, 'PATCH', PATH, { codesByTelegram: false })).statusCode).toBe(409);
    expect((await chatRow(chat)).user_id).toBeNull();
  });

  it('changes only the caller’s choices, and a chat linked to another customer starts from the defaults', async () => {
    const ann = await f.newUser();
    const bob = await f.newUser();
    const annChat = await link(ann);
    const bobChat = await link(bob);
    expect((await f.call(ann, 'PATCH', PATH, { noticesByEmail: false, codesByTelegram: true })).statusCode).toBe(200);
    expect((await f.call(bob, 'GET', '/api/me/telegram')).json().preferences).toEqual({ noticesByEmail: true, codesByTelegram: false });
    expect(await chatRow(bobChat)).toMatchObject({ choices_user_id: null });

    // Ann's Telegram is linked to Bob now: Bob does not inherit Ann's choices.
    await link(bob, annChat);
    expect((await f.call(bob, 'GET', '/api/me/telegram')).json().preferences).toEqual({ noticesByEmail: true, codesByTelegram: false });
    expect((await f.call(ann, 'GET', '/api/me/telegram')).json().preferences).toBeNull();
  });
});
