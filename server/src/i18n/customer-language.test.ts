import { describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../test/billing-fixture.js';
import { emailOf, newMail } from '../../test/billing-mail.js';
import { TEST_DATABASES } from '../../test/databases.js';
import { mailParts } from '../../test/smtp-catcher.js';
import { TEST_ORIGIN, type DesktopSession } from '../../test/test-app.js';
import { SEND_RENEWAL_REMINDERS } from '../modules/billing/recurring/send-renewal-reminders.js';
import { createJobsRepo } from '../jobs/jobs.repo.js';
import { SEND_SERVER_HEALTH_EMAIL } from '../modules/servers/server-health.js';

const DAY = 24 * 3600;
const NBSP = '\u00a0';

/**
 * A customer's stored language (user_profiles.locale) decides their e-mails, the pages the payment
 * providers send them back to, and the /sub page; the request's Accept-Language decides the API's error messages.
 */
describe.each(TEST_DATABASES)("the customer's language (%s)", (kind) => {
  const f = useBillingFixture(kind);
  const speaks = async (user: DesktopSession, locale: string) => {
    const res = await f.call(user, 'PATCH', '/api/me', { locale });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('a Russian customer comes back to /ru/ pages and gets the receipt, renewal reminder and refund e-mails in Russian', async () => {
    const user = await f.newUser();
    await speaks(user, 'ru');
    const email = await emailOf(f, user);

    const { sessionId } = await f.checkout(user, { planId: f.recurringPlanId });
    const session = f.stripe.getSession(sessionId)!;
    expect(session.success_url).toBe(`${TEST_ORIGIN}/ru/thank-you?session_id={CHECKOUT_SESSION_ID}`);
    expect(session.cancel_url).toMatch(new RegExp(`^${TEST_ORIGIN}/ru/dashboard\\?checkout=cancelled&order=[\\w-]+$`));
    expect(session.locale).toBe('ru');

    let before = f.env.smtp.messages.length;
    await f.stripe.pay(sessionId);
    await f.runJobs();
    const receipt = newMail(f, email, before, /квитанция об оплате/);
    expect(receipt.subject).toBe('Lumen VPN: квитанция об оплате');
    const receiptBody = mailParts(receipt);
    expect(receiptBody.text).toContain(`Спасибо! Мы получили ваш платёж 4,99${NBSP}$ за «Plus Auto».`);
    expect(receiptBody.text).toContain(`Открыть личный кабинет: ${TEST_ORIGIN}/ru/dashboard`);
    expect(receiptBody.html).toContain('<html lang="ru" dir="ltr">');
    // A Russian date ends in 'г.': the sentence's own period is not written after it again (issue 57).
    expect(receiptBody.text).toMatch(/\d{4} г\. Автопродление/);
    expect(receiptBody.text).not.toContain('г..');
    expect(receiptBody.html).not.toContain('г..');

    // 3 days before the renewal charge.
    before = f.env.smtp.messages.length;
    f.t.clock.advance(28 * DAY);
    try {
      await createJobsRepo(f.env.database.db).enqueue(
        { type: SEND_RENEWAL_REMINDERS, payload: {}, dedupeKey: `i18n-reminders-${kind}-${Date.now()}` },
        f.t.clock.now(),
      );
      await f.runJobs();
    } finally {
      f.t.clock.advance(-28 * DAY);
    }
    const reminder = mailParts(newMail(f, email, before, /ваша подписка продлится/));
    expect(reminder.text).toMatch(new RegExp(`С привязанной карты будет списано 4,99${NBSP}\\$ \\d{1,2} [а-я]+ \\d{4} г\\.`));
    expect(reminder.text).toContain(`${TEST_ORIGIN}/ru/dashboard`);
    expect(reminder.html).toContain(`href="${TEST_ORIGIN}/ru/dashboard"`);
    expect(reminder.text).not.toMatch(/renews on|\$4\.99/);

    const [transaction] = (await f.call(user, 'GET', '/api/transactions')).json();
    before = f.env.smtp.messages.length;
    const refund = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(200);
    await f.runJobs();
    const refunded = newMail(f, email, before, /возвращ/);
    expect(refunded.subject).toBe('Lumen VPN: ваш платёж возвращён');
    const refundBody = mailParts(refunded);
    expect(refundBody.text).toContain(`Ваш платёж 4,99${NBSP}$ за «Plus Auto» возвращён.`);
    expect(refundBody.text).toContain('Обычно возврат поступает на карту в течение 5–10 рабочих дней');
    expect(refundBody.text).toContain(`Ваши аккаунты и история платежей: ${TEST_ORIGIN}/ru/dashboard`);
  });

  it("an English customer keeps today's pages and e-mails", async () => {
    const user = await f.newUser();
    const email = await emailOf(f, user);
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const session = f.stripe.getSession(sessionId)!;
    expect(session.success_url).toBe(`${TEST_ORIGIN}/thank-you?session_id={CHECKOUT_SESSION_ID}`);
    // Stripe's page in English too, said outright (issue 57): not the browser's language, which may be another.
    expect(session.locale).toBe('en');
    const before = f.env.smtp.messages.length;
    await f.stripe.pay(sessionId);
    await f.runJobs();
    const receipt = mailParts(newMail(f, email, before, /receipt for your payment/));
    expect(receipt.text).toContain('Thank you: we received your payment of $4.99 for Plus Monthly.');
    expect(receipt.text).toContain(`Open your dashboard: ${TEST_ORIGIN}/dashboard`);
  });

  it("a Persian customer's /sub page is Persian and right to left; VPN clients get the same configuration as before", async () => {
    const user = await f.newUser();
    await speaks(user, 'fa');
    const claimed = await f.call(user, 'POST', '/api/accounts', { planId: f.trialPlanId });
    expect(claimed.statusCode, claimed.body).toBe(201);
    const path = new URL(claimed.json().combinedUrl).pathname;

    const browser = await f.t.app.inject({
      method: 'GET',
      url: path,
      headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': 'Mozilla/5.0 (Linux; Android 14)', 'accept-language': 'en-US' },
    });
    expect(browser.statusCode).toBe(200);
    expect(browser.headers['content-type']).toMatch(/^text\/html/);
    expect(browser.headers['content-language']).toBe('fa');
    expect(browser.body).toContain('<html lang="fa" dir="rtl">');
    expect(browser.body).toContain('<h1>اشتراک VPN شما</h1>');
    expect(browser.body).toMatch(/[۰-۹]/); // Persian digits in sizes and dates
    expect(browser.body).toContain(`href="${TEST_ORIGIN}/fa/dashboard"`);
    expect(browser.body).not.toContain('Your VPN subscription');

    const client = await f.t.app.inject({ method: 'GET', url: path, headers: { 'user-agent': 'v2rayNG/1.8.5', 'accept-language': 'fa' } });
    expect(client.statusCode).toBe(200);
    expect(client.headers['content-type']).not.toMatch(/html/);
    expect(Buffer.from(client.body, 'base64').toString()).toMatch(/^vless:\/\//);

    // Once the account has expired, the client shows why in the owner's language, with the Persian dashboard to renew at.
    await f.env.database.db('vpn_accounts').where({ id: claimed.json().id }).update({ status: 'expired' });
    f.t.clock.advance(10); // past the few seconds /sub keeps an account row
    const blocked = await f.t.app.inject({ method: 'GET', url: path, headers: { 'user-agent': 'v2rayNG/1.8.5' } });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.headers['content-language']).toBe('fa');
    expect(blocked.body).toBe(`این اشتراک منقضی شده است. آن را در ${TEST_ORIGIN}/fa/dashboard تمدید کنید.`);
  });

  it("the server-health e-mail goes to an admin in the admin's language", async () => {
    await speaks(f.admin, 'zh-CN');
    try {
      const before = f.env.smtp.messages.length;
      const at = f.t.clock.now().toISOString();
      await createJobsRepo(f.env.database.db).enqueue(
        { type: SEND_SERVER_HEALTH_EMAIL, payload: { serverId: f.serverId, state: 'down', at }, dedupeKey: `i18n-health-${kind}-${at}` },
        f.t.clock.now(),
      );
      await f.runJobs();
      const mail = newMail(f, 'admin@example.com', before, /Germany/);
      expect(mail.subject).toBe('Lumen VPN：服务器 Germany 已宕机');
      expect(mailParts(mail).text).toContain(`管理面板中的服务器：${TEST_ORIGIN}/zh/admin`);
    } finally {
      await speaks(f.admin, 'en');
    }
  });

  describe('API error messages', () => {
    const verify = (headers: Record<string, string>) =>
      f.t.app.inject({ method: 'POST', url: '/api/auth/verify', headers, payload: { email: 'nobody-i18n@example.com', code: '000000', client: 'desktop' } });

    it('are in the language of Accept-Language, with the same code; without it (or in English), as before', async () => {
      const russian = await verify({ 'accept-language': 'ru' });
      const plain = await verify({});
      const english = await verify({ 'accept-language': 'en-US,en;q=0.9' });
      expect(russian.statusCode).toBe(400);
      expect(russian.json()).toMatchObject({ code: 'invalid_code', message: 'Неверный код', codeStatus: plain.json().codeStatus });
      expect(plain.json()).toMatchObject({ code: 'invalid_code', message: 'Invalid code' });
      expect(english.json()).toEqual(plain.json());
      // A cache keeps one answer per language.
      for (const res of [russian, plain, english]) expect(res.headers.vary).toBe('Accept-Language');
    });

    it('translate validation messages and their fields, and leave a message without a translation in English', async () => {
      const bad = await f.t.app.inject({
        method: 'POST',
        url: '/api/auth/otp',
        headers: { 'accept-language': 'fa-IR,fa;q=0.9' },
        payload: { email: 'not-an-address' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ code: 'validation_failed', message: 'یک نشانی ایمیل معتبر وارد کنید', fields: { email: 'یک نشانی ایمیل معتبر وارد کنید' } });

      const signedOut = await f.t.app.inject({ method: 'GET', url: '/api/accounts', headers: { 'accept-language': 'zh-CN' } });
      expect(signedOut.json()).toEqual({ code: 'unauthenticated', message: '请登录后继续。' });

      const noRoute = await f.t.app.inject({ method: 'GET', url: '/api/no-such-route', headers: { 'accept-language': 'ru' } });
      expect(noRoute.json()).toEqual({ code: 'not_found', message: 'No route for GET /api/no-such-route.' });
    });

    it("word a wait in seconds with the language's plural", async () => {
      const email = `wait-${kind}-${Date.now()}@example.com`;
      expect((await f.t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } })).statusCode).toBe(200);
      const again = await f.t.app.inject({ method: 'POST', url: '/api/auth/otp', headers: { 'accept-language': 'ru' }, payload: { email } });
      expect(again.statusCode).toBe(429);
      const seconds = Number(again.headers['retry-after']);
      expect(again.json().code).toBe('rate_limited');
      expect(again.json().message).toMatch(new RegExp(`^Подождите ${seconds} секунд[уы]?, прежде чем запрашивать новый код\\.$`));
      const english = await f.t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } });
      expect(english.json().message).toMatch(/^Please wait \d+ seconds before requesting a new code\.$/);
    });
  });
});
