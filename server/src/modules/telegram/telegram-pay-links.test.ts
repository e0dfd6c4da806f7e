import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../db/values.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { buttons, useTelegramFixture, type TelegramSender as Person } from '../../../test/telegram-kit.js';
import { STRIPE_KEYS } from '../../../test/billing-fixture.js';
import { cookieHeader, TEST_ORIGIN, type DesktopSession } from '../../../test/test-app.js';
import { botText } from './bot-messages/index.js';

const TOKEN = '7000031:AAFixtureBotTokenForSitePaymentLinks12';
const BOT = { id: 7000031, username: 'lumen_paylink_bot', first_name: 'Lumen VPN' };
const REFUSED = 'This payment link has expired or was already used. Open the bot again for a new one.';
/** A payment link as the bot sends it on a site without https (as text): `<origin><locale prefix>/pay/<token>`. */
const PAY_URL = /http:\/\/localhost:3000(\/[a-z]{2})?\/pay\/([A-Za-z0-9_-]{32})/;

describe.each(TEST_DATABASES)('paying on the site from the bot: one-time payment links (%s)', (kind) => {
  const { f, say, tap } = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  let nextPerson = 9300;

  beforeAll(async () => {
    const saved = await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  const newPerson = (extra: Partial<Person> = {}): Person => ({ id: (nextPerson += 1), first_name: 'Ann', ...extra });

  /** A customer of the site whose Telegram is linked (through the dashboard's one-time link). */
  async function linkedCustomer(extra: Partial<Person> = {}): Promise<{ customer: DesktopSession; person: Person }> {
    const customer = await f.newUser();
    const person = newPerson(extra);
    const url = (await f.call(customer, 'POST', '/api/me/telegram-link')).json().url as string;
    const replies = await say(person, `/start ${new URL(url).searchParams.get('start')}`);
    expect(replies[0]!.text).toBeDefined();
    expect(await f.count('telegram_chats', { telegram_id: person.id, user_id: customer.userId })).toBe(1);
    return { customer, person };
  }

  /** The plan's view, its "💳 Pay by card or other ways" pressed: the link the bot answered with (as text here). */
  async function payLinkFor(person: Person, data: string): Promise<{ url: string; token: string; locale: string | undefined; text: string }> {
    const replies = await tap(person, data);
    const text = replies[0]?.text ?? '';
    const match = PAY_URL.exec(text);
    expect(match, text).not.toBeNull();
    return { url: match![0], token: match![2]!, locale: match![1], text };
  }

  const redeem = (token: unknown): Promise<LightMyRequestResponse> => f.t.app.inject({ method: 'POST', url: '/api/auth/pay-link', payload: { token } });
  const expectRefused = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toEqual({ code: 'unauthenticated', message: REFUSED });
    expect(res.cookies).toEqual([]);
  };
  const linksOf = (userId: string) => f.env.database.db('telegram_pay_links').where({ user_id: userId });

  it('offers "💳 Pay by card or other ways" on a plan; pressed, it answers a one-time link that signs the customer in and names the plan', async () => {
    const { customer, person } = await linkedCustomer();
    const plan = await tap(person, `plan:${f.paidPlanId}`);
    const pay = buttons(plan[0]!).find((button) => button.text === '💳 Pay by card or other ways');
    expect(pay?.callback_data).toBe(`site-pay:plan:${f.paidPlanId}`);
    // On a site without https Telegram takes no button to it: no link to the site is a button.
    expect(buttons(plan[0]!).filter((button) => button.url)).toEqual([]);

    const { url, token, locale, text } = await payLinkFor(person, pay!.callback_data!);
    expect(locale).toBeUndefined();
    expect(text).toContain('Plus Monthly: pay by card or the other ways the website takes');
    expect(text).toContain('within 15 minutes');
    expect(url).toBe(`http://localhost:3000/pay/${token}`);
    // Only the token's hash is kept, for the customer and the plan.
    const rows = await linksOf(customer.userId);
    expect(rows).toEqual([expect.objectContaining({ plan_id: f.paidPlanId, account_id: null, used_at: null })]);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);

    const sessions = await f.count('sessions', { user_id: customer.userId, client: 'web' });
    const res = await redeem(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      user: { id: customer.userId, email: expect.stringMatching(/^buyer\d+-/), role: 'user', trialUsed: false, locale: 'en' },
      planId: f.paidPlanId,
    });
    expect(res.cookies.map((cookie) => cookie.name).sort()).toEqual(['vpn_access', 'vpn_refresh']);
    const me = await f.t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookieHeader(res) } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: customer.userId });
    expect(await f.count('sessions', { user_id: customer.userId, client: 'web' })).toBe(sessions + 1);
    const audit = await f.env.database.db('audit_log').where({ actor_id: customer.userId, action: 'auth.sign_in' }).orderBy('id', 'desc').first();
    expect(parseJson(audit.details, {})).toEqual({ client: 'web', by: 'telegram_pay_link', planId: f.paidPlanId, device: 'lightMyRequest' });
    expect((await linksOf(customer.userId))[0].used_at).not.toBeNull();
  });

  it('works once: the same link again is refused with 401, and no session is started', async () => {
    const { customer, person } = await linkedCustomer();
    const { token } = await payLinkFor(person, `site-pay:plan:${f.paidPlanId}`);
    expect((await redeem(token)).statusCode).toBe(200);
    const sessions = await f.count('sessions', { user_id: customer.userId });
    expectRefused(await redeem(token));
    expect(await f.count('sessions', { user_id: customer.userId })).toBe(sessions);
  });

  it('refuses a link after its 15 minutes (401), and leaves it unused', async () => {
    const { customer, person } = await linkedCustomer();
    const { token } = await payLinkFor(person, `site-pay:plan:${f.paidPlanId}`);
    f.t.clock.advance(15 * 60 + 1);
    const sessions = await f.count('sessions', { user_id: customer.userId });
    expectRefused(await redeem(token));
    expect(await f.count('sessions', { user_id: customer.userId })).toBe(sessions);
    expect((await linksOf(customer.userId))[0].used_at).toBeNull();
  });

  it('refuses a token nobody was given (401), and one whose customer was deleted (401)', async () => {
    const sessions = await f.count('sessions');
    expectRefused(await redeem('A'.repeat(32)));
    expect(await f.count('sessions')).toBe(sessions);

    const { customer, person } = await linkedCustomer();
    const { token } = await payLinkFor(person, `site-pay:plan:${f.paidPlanId}`);
    await f.env.database.db('user_profiles').where({ id: customer.userId }).del();
    expectRefused(await redeem(token));
    expect(await f.count('sessions', { user_id: customer.userId })).toBe(0);
  });

  it('answers 400 validation_failed to a body without a token, or with one that is no token', async () => {
    for (const payload of [{}, { token: '' }, { token: 42 }, { token: 'not/a token' }, { token: 'x'.repeat(129) }]) {
      const res = await f.t.app.inject({ method: 'POST', url: '/api/auth/pay-link', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message: expect.any(String), fields: { token: expect.any(String) } });
      expect(res.cookies).toEqual([]);
    }
  });

  it('asks a Telegram user linked to no customer to link first, and makes no link', async () => {
    const stranger = newPerson();
    const plan = await tap(stranger, `plan:${f.paidPlanId}`);
    expect(buttons(plan[0]!).some((button) => button.callback_data === `site-pay:plan:${f.paidPlanId}`)).toBe(true);
    const links = await f.count('telegram_pay_links');
    const replies = await tap(stranger, `site-pay:plan:${f.paidPlanId}`);
    expect(replies[0]!.text).toBe(botText('en', 'link.needed'));
    expect(buttons(replies[0]!).map((button) => button.callback_data)).toContain('link');
    expect(await f.count('telegram_pay_links')).toBe(links);
  });

  it('renews one of the customer’s accounts: "💳 Renew by card or other ways" under it makes a link that answers the account', async () => {
    const { customer, person } = await linkedCustomer();
    const accountId = await f.buyAccount(customer);
    const shown = await tap(person, `account:${accountId}`);
    const renew = buttons(shown[0]!).find((button) => button.callback_data === `site-pay:account:${accountId}`);
    expect(renew?.text).toBe('💳 Renew by card or other ways');

    const { token } = await payLinkFor(person, renew!.callback_data!);
    expect(await linksOf(customer.userId)).toEqual([expect.objectContaining({ plan_id: null, account_id: accountId })]);
    const res = await redeem(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ user: expect.objectContaining({ id: customer.userId }), accountId });
    // The session it started renews that account through the site's own checkout.
    const checkout = await f.t.app.inject({
      method: 'POST',
      url: '/api/checkout',
      headers: { cookie: cookieHeader(res), origin: TEST_ORIGIN },
      payload: { accountId, method: 'card' },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
  });

  it('offers an account’s add-ons and a change of its plan in the dashboard’s own dialogs, by the same one-time links', async () => {
    const addOn = await f.call(f.admin, 'POST', '/api/admin/add-ons', {
      kind: 'traffic',
      amount: 50 * 1024 ** 3,
      price: 300,
      name: 'Fifty GB',
      until: 'period_end',
    });
    expect(addOn.statusCode, addOn.body).toBe(201);
    try {
      const { customer, person } = await linkedCustomer({ language_code: 'ru' });
      const accountId = await f.buyAccount(customer);
      const shown = await tap(person, `account:${accountId}`);
      const more = buttons(shown[0]!).find((button) => button.callback_data === `site-pay:add-ons:${accountId}`);
      const change = buttons(shown[0]!).find((button) => button.callback_data === `site-pay:change:${accountId}`);
      expect(more?.text).toBe('➕ Больше устройств или трафика');
      expect(change?.text).toBe('🔀 Сменить тариф');

      const addOns = await payLinkFor(person, more!.callback_data!);
      expect(addOns.locale).toBe('/ru');
      expect(addOns.text).toContain('добавьте устройства или трафик');
      const changing = await payLinkFor(person, change!.callback_data!);
      expect(changing.text).toContain('перейдите на другой тариф');
      expect(await linksOf(customer.userId)).toEqual([
        expect.objectContaining({ account_id: accountId, action: 'add_ons' }),
        expect.objectContaining({ account_id: accountId, action: 'change_plan' }),
      ]);
      const opened = await redeem(addOns.token);
      expect(opened.statusCode, opened.body).toBe(200);
      expect(opened.json()).toEqual({ user: expect.objectContaining({ id: customer.userId }), accountId, action: 'add_ons' });
      expect((await redeem(changing.token)).json()).toMatchObject({ accountId, action: 'change_plan' });

      // Someone else's account: no link, for either.
      const othersAccount = await f.buyAccount(await f.newUser());
      for (const data of [`site-pay:add-ons:${othersAccount}`, `site-pay:change:${othersAccount}`]) {
        const replies = await tap(person, data);
        expect(replies[0]!.text).toBe(botText('ru', 'payLink.notChangeable'));
      }
      expect(await f.count('telegram_pay_links', { account_id: othersAccount })).toBe(0);
    } finally {
      await f.call(f.admin, 'DELETE', `/api/admin/add-ons/${addOn.json().id}`);
    }
  });

  it('never puts someone else’s account in a link: the bot refuses it, and the checkout answers 404 to it', async () => {
    const owner = await f.newUser();
    const othersAccount = await f.buyAccount(owner);
    const { customer, person } = await linkedCustomer();
    const replies = await tap(person, `site-pay:account:${othersAccount}`);
    expect(replies[0]!.text).toBe('This VPN cannot be renewed now. Choose a plan in /plans.');
    expect(await f.count('telegram_pay_links', { account_id: othersAccount })).toBe(0);
    expect(await linksOf(customer.userId)).toEqual([]);

    // A link of their own signs them in; that session cannot renew the other customer's account.
    const { token } = await payLinkFor(person, `site-pay:plan:${f.paidPlanId}`);
    const res = await redeem(token);
    expect(res.json()).toMatchObject({ user: { id: customer.userId }, planId: f.paidPlanId });
    const checkout = await f.t.app.inject({
      method: 'POST',
      url: '/api/checkout',
      headers: { cookie: cookieHeader(res), origin: TEST_ORIGIN },
      payload: { accountId: othersAccount, method: 'card' },
    });
    expect(checkout.statusCode).toBe(404);
    expect(checkout.json()).toMatchObject({ code: 'not_found' });
  });

  it('speaks the customer’s language: the button, the answer and a link to the page in that language', async () => {
    const cases = [
      { language_code: 'ru', locale: 'ru', prefix: '/ru' },
      { language_code: 'fa', locale: 'fa', prefix: '/fa' },
      { language_code: 'zh-hans', locale: 'zh-CN', prefix: '/zh' },
      { language_code: 'en', locale: 'en', prefix: '' },
    ] as const;
    for (const { language_code, locale, prefix } of cases) {
      const { person } = await linkedCustomer({ language_code });
      const plan = await tap(person, `plan:${f.paidPlanId}`);
      const pay = buttons(plan[0]!).find((button) => button.callback_data === `site-pay:plan:${f.paidPlanId}`);
      expect(pay?.text, locale).toBe(botText(locale, 'plan.paySite'));
      const { url, text } = await payLinkFor(person, pay!.callback_data!);
      expect(text.startsWith(botText(locale, 'payLink.ready', { plan: 'Plus Monthly', minutes: 15 })), locale).toBe(true);
      expect(new URL(url).pathname.startsWith(`${prefix}/pay/`), url).toBe(true);
    }
  });

  it('offers no such button while the site takes no payment method', async () => {
    const { person } = await linkedCustomer();
    const off = await f.call(f.admin, 'PUT', '/api/admin/payments/card', { enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    try {
      const plan = await tap(person, `plan:${f.paidPlanId}`);
      expect(buttons(plan[0]!).some((button) => button.callback_data?.startsWith('site-pay:'))).toBe(false);
      // A button of an older message: no link is made.
      const links = await f.count('telegram_pay_links');
      const replies = await tap(person, `site-pay:plan:${f.paidPlanId}`);
      expect(replies[0]!.text).toBe('Paying on the website is not available right now. Please try again later.');
      expect(await f.count('telegram_pay_links')).toBe(links);
    } finally {
      const on = await f.call(f.admin, 'PUT', '/api/admin/payments/card', { enabled: true, ...STRIPE_KEYS });
      expect(on.statusCode, on.body).toBe(200);
    }
  });
});
