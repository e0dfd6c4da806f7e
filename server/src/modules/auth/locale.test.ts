import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { bearer, buildTestApp, TEST_ORIGIN, type TestApp } from '../../../test/test-app.js';
import { localeFromAcceptLanguage } from '../../lib/locale.js';
import { renderOtpEmail } from '../../mail/otp-email.js';

describe('the language an Accept-Language header asks for', () => {
  it.each([
    ['ru-RU,ru;q=0.9,en-US;q=0.8', 'ru'],
    ['fa-IR', 'fa'],
    ['zh-CN,zh;q=0.9', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['de-DE,fr;q=0.8', 'en'],
    ['en-GB', 'en'],
    ['de;q=0.9, ru;q=0.5', 'ru'],
    ['*', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    ['%%%, ;;', 'en'],
  ])('%j → %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });
});

describe('the sign-in code e-mail in each language', () => {
  const render = (locale: 'en' | 'ru' | 'fa' | 'zh-CN') =>
    renderOtpEmail({ to: 'a@example.com', code: '123456', brandName: 'Lumen VPN', publicUrl: new URL('https://vpn.example.org'), locale });

  it('is English by default, word for word as before', () => {
    const mail = renderOtpEmail({ to: 'a@example.com', code: '123456', brandName: 'Lumen VPN', publicUrl: new URL('https://vpn.example.org') });
    expect(mail.subject).toBe('123456 is your Lumen VPN sign-in code');
    expect(mail.text).toContain('Enter it on the sign-in page within 10 minutes. It works once.');
    expect(mail.html).toContain('<html lang="en" dir="ltr">');
  });

  it('is Russian with the Russian plural of minutes', () => {
    const mail = render('ru');
    expect(mail.subject).toBe('123456 — ваш код для входа в Lumen VPN');
    expect(mail.text).toContain('в течение 10 минут.');
    expect(mail.html).toContain('<html lang="ru" dir="ltr">');
    expect(mail.html).toContain('отправлено на a@example.com');
  });

  it('is Persian, right to left, with Persian digits in the text and the code kept left to right', () => {
    const mail = render('fa');
    expect(mail.html).toContain('<html lang="fa" dir="rtl">');
    expect(mail.text).toContain('۱۰ دقیقه');
    expect(mail.html).toContain('<p dir="ltr"');
    expect(mail.subject.startsWith('123456')).toBe(true);
  });

  it('is Simplified Chinese', () => {
    const mail = render('zh-CN');
    expect(mail.subject).toBe('123456 是您的 Lumen VPN 登录验证码');
    expect(mail.text).toContain('10 分钟内');
    expect(mail.html).toContain('<html lang="zh-CN" dir="ltr">');
  });
});

describe.each(TEST_DATABASES)("the user's language (%s)", (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let n = 0;
  const newEmail = () => `lang${(n += 1)}-${Date.now()}@example.com`;

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp });
  });
  afterAll(async () => {
    await t.app.close();
  });

  const requestCode = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/auth/otp', headers, payload });
  const signIn = async (email: string) => {
    const code = await env.smtp.latestCode(email);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/verify', headers: { origin: TEST_ORIGIN }, payload: { email, code, client: 'desktop' } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { accessToken: string; user: { locale: string | null } };
  };

  it('sends the code in the language of the Accept-Language header, and the account takes it at sign-in', async () => {
    const email = newEmail();
    expect((await requestCode({ email }, { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5' })).statusCode).toBe(200);
    expect((await env.smtp.waitFor(email)).subject).toMatch(/^\d{6} — ваш код для входа в Lumen VPN$/);
    const session = await signIn(email);
    expect(session.user.locale).toBe('ru');
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(session.accessToken) })).json().locale).toBe('ru');
  });

  it("prefers the page's language given with the request, and refuses an unknown one", async () => {
    const email = newEmail();
    expect((await requestCode({ email, locale: 'fa' }, { 'accept-language': 'ru' })).statusCode).toBe(200);
    const mail = await env.smtp.waitFor(email);
    expect(mail.subject).toMatch(/^\d{6} کد ورود شما به Lumen VPN است$/);
    expect((await signIn(email)).user.locale).toBe('fa');

    const bad = await requestCode({ email: newEmail(), locale: 'xx' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('keeps English for a browser asking for a language the site does not speak, and lets the user change it', async () => {
    const email = newEmail();
    await requestCode({ email }, { 'accept-language': 'de-DE' });
    expect((await env.smtp.waitFor(email)).subject).toMatch(/ is your Lumen VPN sign-in code$/);
    const session = await signIn(email);
    expect(session.user.locale).toBe('en');

    const change = (payload: unknown, token: string | null = session.accessToken) =>
      t.app.inject({ method: 'PATCH', url: '/api/me', headers: token ? bearer(token) : {}, payload: payload as object });
    expect((await change({ locale: 'zh' })).json()).toMatchObject({ email, locale: 'zh-CN' });
    expect((await change({ locale: 'klingon' })).statusCode).toBe(400);
    expect((await change({ locale: 'ru', role: 'admin' })).statusCode).toBe(400);
    expect((await change({ locale: 'ru' }, null)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(session.accessToken) })).json()).toMatchObject({
      locale: 'zh-CN',
      role: 'user',
    });
  });
});
