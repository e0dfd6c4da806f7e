import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, AutoRenewBody } from '../../../shared/accounts.js';
import { WALLET_MESSAGES } from '../../../shared/wallet.js';
import { EmailSchema, OtpCodeSchema, UpdateMeBody } from '../../../shared/auth.js';
import { BILLING_MESSAGES } from '../../../shared/billing.js';
import { CheckoutBody } from '../../../shared/billing-schemas.js';
import { MESSAGES, type ApiErrorBody } from '../../../shared/errors.js';
import { LOCALES, type Locale } from '../../../shared/locales.js';
import { rateLimited, unauthenticated, validationFailed } from '../errors.js';
import { EMAIL_CATALOGUES } from '../mail/messages/index.js';
import { renderRenewalReminderEmail } from '../mail/billing-emails.js';
import { renderRefundEmail } from '../mail/refund-email.js';
import { renderServerHealthEmail } from '../mail/server-health-email.js';
import { PAGE_CATALOGUES } from '../modules/subscription/page-messages/index.js';
import { renderSubscriptionPage } from '../modules/subscription/subscription-page.js';
import { SUBSCRIPTION_MESSAGES } from '../modules/subscription/subscription.service.js';
import { CUSTOMER_MESSAGES, ERROR_CATALOGUES, localizeErrorBody, translateErrorMessage } from './index.js';
import { DEVICE_MESSAGES } from '../modules/devices/devices.service.js';

/** The arguments an ICU message uses (placeholders, plural and select values), however deeply nested. */
function argumentsOf(message: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (elements: ReturnType<IntlMessageFormat['getAst']>) => {
    for (const element of elements) {
      // Literals (type 0) carry text in `value`; every other element with a string `value` names an argument.
      if (element.type !== 0 && 'value' in element && typeof element.value === 'string') names.add(element.value);
      if ('options' in element) for (const option of Object.values(element.options)) walk(option.value);
      if ('children' in element) walk(element.children);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst());
  return [...names].sort();
}

const OTHER_LOCALES = LOCALES.filter((locale): locale is Exclude<Locale, 'en'> => locale !== 'en');

describe.each([
  ['e-mails', EMAIL_CATALOGUES],
  ['the /sub page', PAGE_CATALOGUES],
])('the catalogue of %s', (_name, catalogues: Readonly<Record<Locale, Readonly<Record<string, string>>>>) => {
  const english = catalogues.en;

  it.each(OTHER_LOCALES)('%s has exactly the English keys, none empty', (locale) => {
    expect(Object.keys(catalogues[locale]).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(catalogues[locale])) expect(text.trim(), key).not.toBe('');
  });

  it.each(OTHER_LOCALES)('%s parses as ICU and uses the same placeholders as English', (locale) => {
    for (const [key, text] of Object.entries(catalogues[locale])) {
      expect(argumentsOf(text, locale), `${locale} ${key}`).toEqual(argumentsOf(english[key]!, 'en'));
    }
  });
});

describe('the API error tables', () => {
  it.each(OTHER_LOCALES)('%s translates every customer message, and no other', (locale) => {
    const table = ERROR_CATALOGUES[locale];
    expect(Object.keys(table.messages).sort()).toEqual([...CUSTOMER_MESSAGES].sort());
    for (const [english, text] of Object.entries(table.messages)) {
      expect(text.trim(), english).not.toBe('');
      expect(text, english).not.toBe(english);
    }
    for (const text of Object.values(table.timed)) expect(argumentsOf(text, locale)).toEqual(['seconds']);
  });

  it('lists the messages the server really sends customers', () => {
    const parsed = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error!.issues[0]!.message;
    const sent = [
      MESSAGES.invalidOtp,
      MESSAGES.otpSendFailed,
      MESSAGES.unexpected,
      ACCOUNT_MESSAGES.serviceUnavailable,
      ACCOUNT_MESSAGES.trialUsed,
      ACCOUNT_MESSAGES.customFailed,
      BILLING_MESSAGES.planNotFound,
      BILLING_MESSAGES.subscriptionNotFound,
      BILLING_MESSAGES.checkoutFailed,
      BILLING_MESSAGES.alreadyRenews,
      BILLING_MESSAGES.openRenewalUnreachable,
      BILLING_MESSAGES.renewalJustPaid,
      BILLING_MESSAGES.checkStatusFailedDashboard,
      BILLING_MESSAGES.notConfigured,
      BILLING_MESSAGES.stripeNotInitialized,
      BILLING_MESSAGES.cryptoNotImplemented,
      BILLING_MESSAGES.subscriptionChangeFailed,
      BILLING_MESSAGES.oneOffNotCancelable,
      BILLING_MESSAGES.notRenewing,
      BILLING_MESSAGES.noBillingAccount,
      BILLING_MESSAGES.portalFailed,
      BILLING_MESSAGES.noSavedMethod,
      BILLING_MESSAGES.savedMethodNotFound,
      BILLING_MESSAGES.trialPaid,
      BILLING_MESSAGES.trialInProgress,
      WALLET_MESSAGES.insufficient,
      WALLET_MESSAGES.topUpLimits,
      WALLET_MESSAGES.topUpsOff,
      parsed(AutoRenewBody.safeParse({ enabled: 'yes' })),
      DEVICE_MESSAGES.accountNotFound,
      DEVICE_MESSAGES.deviceNotFound,
      SUBSCRIPTION_MESSAGES.notFound,
      SUBSCRIPTION_MESSAGES.pending,
      SUBSCRIPTION_MESSAGES.paidPending,
      SUBSCRIPTION_MESSAGES.unavailable,
      unauthenticated().message,
      validationFailed({}).message,
      parsed(EmailSchema.safeParse(undefined)),
      parsed(EmailSchema.safeParse('nope')),
      parsed(EmailSchema.safeParse(`${'a'.repeat(250)}@example.com`)),
      parsed(OtpCodeSchema.safeParse(undefined)),
      parsed(OtpCodeSchema.safeParse('12')),
      parsed(CheckoutBody.safeParse({})),
      parsed(CheckoutBody.safeParse({ planId: 'p', method: 'cash' })),
      parsed(UpdateMeBody.safeParse({ locale: 'xx' })),
    ];
    for (const message of sent) expect(CUSTOMER_MESSAGES, message).toContain(message);
  });

  it('translates a known message and its fields, keeps the code, and leaves unknown messages and English alone', () => {
    const body: ApiErrorBody = {
      code: 'validation_failed',
      message: 'Enter a valid email address',
      fields: { email: 'Enter a valid email address', other: 'Something new' },
    };
    expect(localizeErrorBody(body, 'en')).toBe(body);
    expect(localizeErrorBody(body, 'ru')).toEqual({
      code: 'validation_failed',
      message: 'Введите корректный адрес электронной почты',
      fields: { email: 'Введите корректный адрес электронной почты', other: 'Something new' },
    });
    expect(translateErrorMessage('No route for GET /api/nope.', 'zh-CN')).toBe('No route for GET /api/nope.');
  });

  it('words a wait with the plural of its seconds, and only when the message is the English one for them', () => {
    const limited = rateLimited(21);
    expect(translateErrorMessage(limited.message, 'ru', 21)).toBe('Слишком много запросов. Попробуйте ещё раз через 21 секунду.');
    expect(translateErrorMessage(rateLimited(5).message, 'ru', 5)).toBe('Слишком много запросов. Попробуйте ещё раз через 5 секунд.');
    expect(translateErrorMessage(rateLimited(3).message, 'fa', 3)).toContain('۳');
    expect(translateErrorMessage('Please wait 42 seconds before requesting a new code.', 'zh-CN', 42)).toBe('请等待 42 秒后再请求新的验证码。');
    expect(translateErrorMessage(limited.message, 'ru', 22)).toBe(limited.message);
  });
});

describe('e-mails and the /sub page in each language', () => {
  const publicUrl = new URL('https://vpn.example.com');
  const reminder = (locale?: Locale) =>
    renderRenewalReminderEmail({
      to: 'a@example.com',
      brandName: 'Acme VPN',
      publicUrl,
      planName: 'Monthly',
      amount: 499,
      currency: 'usd',
      chargeAt: new Date('2026-12-24T05:00:00Z'),
      locale,
    });

  it('English stays word for word as before', () => {
    const mail = reminder();
    expect(mail.subject).toBe('Acme VPN: your subscription renews on 24 December 2026');
    expect(mail.text).toContain('The card on file will be charged $4.99 on 24 December 2026.');
    expect(mail.text).toContain('Open your dashboard: https://vpn.example.com/dashboard');
    expect(reminder('en')).toEqual(mail);
  });

  it('Russian: Russian texts, money and days, and links to the Russian pages', () => {
    const mail = reminder('ru');
    expect(mail.subject).toBe('Acme VPN: ваша подписка продлится 24 декабря 2026 г.');
    expect(mail.text).toContain('С привязанной карты будет списано 4,99\u00a0$ 24 декабря 2026 г.');
    expect(mail.text).toContain('Открыть личный кабинет: https://vpn.example.com/ru/dashboard');
    expect(mail.html).toContain('<html lang="ru" dir="ltr">');
    expect(mail.html).toContain('href="https://vpn.example.com/ru/dashboard"');
    expect(mail.html).toContain('<a href="https://vpn.example.com/ru/" style="color:#6366f1">https://vpn.example.com</a> · отправлено на a@example.com');
  });

  it('Persian: right to left, Persian digits and calendar; Chinese: its own money and dates', () => {
    const fa = reminder('fa');
    expect(fa.html).toContain('<html lang="fa" dir="rtl">');
    expect(fa.text).toContain('۴٫۹۹');
    expect(fa.text).toContain('۱۴۰۵'); // the Solar Hijri year of December 2026
    expect(fa.text).toContain('https://vpn.example.com/fa/dashboard');
    const zh = reminder('zh-CN');
    expect(zh.subject).toBe('Acme VPN：您的订阅将于 2026年12月24日 续订');
    expect(zh.text).toContain('US$4.99');
    expect(zh.text).toContain('https://vpn.example.com/zh/dashboard');
  });

  it('the refund e-mail: claim link text and amounts in the language, English unchanged', () => {
    const input = {
      to: 'a@example.com',
      brandName: 'Acme VPN',
      publicUrl,
      planName: 'Monthly',
      amountRefunded: 100,
      amountPaid: 499,
      currency: 'usd',
      full: false,
      claimUrl: 'https://pay.example.com/claim/1',
    };
    const english = renderRefundEmail(input);
    expect(english.subject).toBe('Acme VPN: part of your payment was refunded');
    expect(english.text).toContain('$1.00 of your payment of $4.99 for Monthly has been refunded.');
    expect(english.text).toContain('Claim your refund: https://pay.example.com/claim/1');
    const russian = renderRefundEmail({ ...input, locale: 'ru' });
    expect(russian.subject).toBe('Acme VPN: часть вашего платежа возвращена');
    expect(russian.text).toContain('Из вашего платежа 4,99\u00a0$ за «Monthly» возвращено 1,00\u00a0$.');
    expect(russian.text).toContain('Получить возврат: https://pay.example.com/claim/1');
    expect(russian.html).toMatch(/<a href="https:\/\/pay\.example\.com\/claim\/1"[^>]*>Получить возврат<\/a>/);
    expect(russian.text).toContain('https://vpn.example.com/ru/dashboard');
  });

  it('the server-health e-mail: English as before, other languages with the admin panel in their language', () => {
    const input = {
      to: 'admin@example.com',
      brandName: 'Acme VPN',
      publicUrl,
      serverName: 'DE-1',
      state: 'down' as const,
      at: new Date('2026-12-24T05:00:00Z'),
      lastError: 'timeout',
    };
    const english = renderServerHealthEmail(input);
    expect(english.subject).toBe('Acme VPN: server DE-1 is down');
    expect(english.text).toContain('since Thu, 24 Dec 2026 05:00:00 GMT.');
    expect(english.text).toContain('Servers in the admin panel: https://vpn.example.com/admin');
    const chinese = renderServerHealthEmail({ ...input, locale: 'zh-CN' });
    expect(chinese.subject).toBe('Acme VPN：服务器 DE-1 已宕机');
    expect(chinese.text).toContain('最后一次错误：timeout');
    expect(chinese.text).toContain('https://vpn.example.com/zh/admin');
  });

  it('the /sub page: lang and dir, texts, sizes and dates in the language', () => {
    const page = (locale?: Locale) =>
      renderSubscriptionPage({
        brandName: 'Acme VPN',
        supportEmail: 'help@example.com',
        subscriptionUrl: 'https://vpn.example.com/sub/tok',
        dashboardUrl: 'https://vpn.example.com/dashboard',
        supportUrl: 'https://vpn.example.com/support',
        username: 'alice',
        status: 'active',
        notice: null,
        usedBytes: 5 * 1024 ** 3,
        limitBytes: 50 * 1024 ** 3,
        expiresAt: new Date('2030-01-31T12:00:00Z'),
        platform: 'android',
        now: new Date('2030-01-01T12:00:00Z'),
        qrSvg: '<svg></svg>',
        locale,
      });
    const english = page();
    expect(english).toContain('<html lang="en" dir="ltr">');
    expect(english).toContain('5.00 GB of 50.00 GB');
    expect(english).toContain('31 Jan 2030');
    expect(english).toContain('(30 days left)');
    const russian = page('ru');
    expect(russian).toContain('<html lang="ru" dir="ltr">');
    expect(russian).toContain('5,00 ГБ из 50,00 ГБ');
    expect(russian).toContain('осталось 30 дней');
    expect(russian).toContain('Открыть в Hiddify');
    const persian = page('fa');
    expect(persian).toContain('<html lang="fa" dir="rtl">');
    expect(persian).toContain('اشتراک VPN شما');
    expect(persian).toContain('۳۰ روز مانده');
    expect(page('zh-CN')).toContain('剩余 30 天');
  });
});

describe("the customer's word for the sign-in code", () => {
  // The sign-in page says '6-digit code': the API's messages and the e-mails never say 'OTP'.
  it.each(LOCALES)('is never "OTP" in the %s error messages and e-mails', (locale) => {
    const errors = locale === 'en' ? [...CUSTOMER_MESSAGES] : Object.values(ERROR_CATALOGUES[locale].messages);
    for (const text of [...errors, ...Object.values(EMAIL_CATALOGUES[locale])]) expect(text).not.toMatch(/\bOTP\b/i);
  });
});
