import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../shared/site-template.js';
import {
  formatDay,
  renderAccountPausedEmail,
  renderDeviceLimitEmail,
  renderPartialPaymentEmail,
  renderPaymentFailedEmail,
  renderPlanEndingEmail,
  renderReceiptEmail,
  renderRenewalReminderEmail,
  renderSubscriptionCanceledEmail,
  renderSubscriptionResumedEmail,
} from './billing-emails.js';
import type { MailMessage } from './mailer.js';
import { money } from './money.js';

const DASHBOARD = 'https://vpn.example.com/dashboard';
const MANAGE_BILLING = 'https://vpn.example.com/dashboard?billing=manage';

function buildBase(overrides: { brandName?: string } = {}) {
  return { to: 'a@example.com', brandName: overrides.brandName ?? 'Acme VPN', publicUrl: new URL('https://vpn.example.com') };
}

function buildReceipt(overrides: Partial<Parameters<typeof renderReceiptEmail>[0]> = {}) {
  return renderReceiptEmail({
    ...buildBase(),
    planName: 'Monthly',
    amount: 499,
    currency: 'usd',
    paidAt: new Date('2026-11-24T23:30:00Z'),
    periodEnd: new Date('2026-12-24T23:30:00Z'),
    renewal: false,
    recurring: true,
    nextChargeAt: new Date('2026-12-24T23:30:00Z'),
    receiptNumber: 'R-2026-0042',
    ...overrides,
  });
}

function buildCanceled(overrides: Partial<Parameters<typeof renderSubscriptionCanceledEmail>[0]> = {}) {
  return renderSubscriptionCanceledEmail({
    ...buildBase(),
    planName: 'Monthly',
    endsAt: new Date('2026-12-24T12:00:00Z'),
    byAdmin: false,
    now: new Date('2026-12-01T12:00:00Z'),
    ...overrides,
  });
}

function buildPlanEnding(overrides: Partial<Parameters<typeof renderPlanEndingEmail>[0]> = {}) {
  return renderPlanEndingEmail({
    ...buildBase(),
    planName: 'Yearly',
    endsAt: new Date('2026-12-24T08:00:00Z'),
    accountName: 'alice-laptop',
    now: new Date('2026-12-21T20:00:00Z'),
    ...overrides,
  });
}

/** The fact is in the plain text as written and in the HTML escaped. */
function expectSaid(mail: MailMessage, ...facts: string[]) {
  for (const fact of facts) {
    expect(mail.text).toContain(fact);
    expect(mail.html).toContain(escapeHtml(fact));
  }
}

function expectNotSaid(mail: MailMessage, ...facts: string[]) {
  for (const fact of facts) {
    expect(mail.text).not.toContain(fact);
    expect(mail.html).not.toContain(escapeHtml(fact));
  }
}

function expectButton(mail: MailMessage, label: string, href: string) {
  expect(mail.text).toContain(`${label}: ${href}`);
  expect(mail.html).toMatch(new RegExp(`<a href="${escapeRegExp(escapeHtml(href))}"[^>]*>${escapeRegExp(label)}</a>`));
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('formatDay', () => {
  it('writes the day, the month in English and the year', () => {
    expect(formatDay(new Date('2026-12-24T12:00:00Z'))).toBe('24 December 2026');
    expect(formatDay(new Date('2027-01-05T00:00:00Z'))).toBe('5 January 2027');
  });

  it('uses the UTC day whatever the local time zone', () => {
    const saved = process.env.TZ;
    try {
      process.env.TZ = 'Pacific/Kiritimati';
      expect(formatDay(new Date('2026-12-24T23:30:00Z'))).toBe('24 December 2026');
      process.env.TZ = 'Pacific/Pago_Pago';
      expect(formatDay(new Date('2026-12-24T00:30:00Z'))).toBe('24 December 2026');
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});

describe('money', () => {
  it('formats cents in the currency', () => {
    expect(money(499, 'usd')).toBe('$4.99');
    expect(money(1250, 'EUR')).toBe('€12.50');
  });
});

describe('renderReceiptEmail', () => {
  it('lists the amount, plan, day paid and receipt number, with a link to the dashboard', () => {
    const mail = buildReceipt();
    expect(mail.to).toBe('a@example.com');
    expect(mail.subject).toBe('Acme VPN: receipt for your payment');
    expectSaid(mail, 'we received your payment of $4.99 for Monthly', '24 November 2026', 'R-2026-0042', 'Acme VPN');
    expect(mail.text).toMatch(/^Amount: +\$4\.99$/m);
    expect(mail.text).toMatch(/^Receipt number: R-2026-0042$/m);
    expectButton(mail, 'Open your dashboard', DASHBOARD);
  });

  it('says a first purchase made the account active until the end of the period', () => {
    const mail = buildReceipt({ renewal: false });
    expectSaid(mail, 'Your VPN account is active until 24 December 2026.');
    expectNotSaid(mail, 'extended');
  });

  it('says a renewal extended the account until the end of the period', () => {
    const mail = buildReceipt({ renewal: true, periodEnd: new Date('2027-01-24T00:00:00Z') });
    expectSaid(mail, 'Your VPN account has been extended until 24 January 2027.');
    expectNotSaid(mail, 'is active until');
  });

  it('leaves the end date out when the period end is not known', () => {
    const mail = buildReceipt({ periodEnd: null });
    expectSaid(mail, 'Your VPN account is active.');
  });

  it('gives the next charge and how to cancel auto-renew for a recurring plan', () => {
    const mail = buildReceipt({ recurring: true, nextChargeAt: new Date('2026-12-24T23:30:00Z') });
    expectSaid(mail, 'Next charge: $4.99 on 24 December 2026.', 'You can cancel auto-renew any time from your dashboard.');
  });

  it('omits the next charge of a recurring plan when its date is not known', () => {
    const mail = buildReceipt({ recurring: true, nextChargeAt: null });
    expectNotSaid(mail, 'Next charge');
    expectSaid(mail, 'You can cancel auto-renew any time from your dashboard.');
  });

  it('says a one-off payment will not be charged again', () => {
    const mail = buildReceipt({ recurring: false, nextChargeAt: null });
    expectSaid(mail, 'This was a one-off payment: nothing will be charged again automatically.');
    expectNotSaid(mail, 'Next charge', 'auto-renew');
  });
});

describe('renderRenewalReminderEmail', () => {
  const mail = renderRenewalReminderEmail({
    ...buildBase(),
    planName: 'Monthly',
    amount: 499,
    currency: 'usd',
    chargeAt: new Date('2026-12-24T05:00:00Z'),
  });

  it('names the renewal day in the subject', () => {
    expect(mail.subject).toBe('Acme VPN: your subscription renews on 24 December 2026');
  });

  it('says what will be charged when, and how to stop it or change the card', () => {
    expectSaid(
      mail,
      'Your Monthly subscription renews on 24 December 2026.',
      'The card on file will be charged $4.99 on 24 December 2026.',
      'cancel auto-renew on your dashboard before then',
      'Manage billing',
    );
    expectButton(mail, 'Open your dashboard', DASHBOARD);
  });
});

describe('renderPlanEndingEmail', () => {
  it('counts the days left in the subject and names the account, plan and end day', () => {
    const mail = buildPlanEnding();
    expect(mail.subject).toBe('Acme VPN: your plan ends in 3 days — renew');
    expectSaid(mail, 'Your VPN account alice-laptop on Yearly ends on 24 December 2026.', 'renew it from your dashboard to keep it running');
    expectButton(mail, 'Renew on your dashboard', DASHBOARD);
  });

  it('says tomorrow and today when the end is that close', () => {
    expect(buildPlanEnding({ now: new Date('2026-12-23T23:59:00Z') }).subject).toBe('Acme VPN: your plan ends tomorrow — renew');
    expect(buildPlanEnding({ now: new Date('2026-12-24T00:00:00Z') }).subject).toBe('Acme VPN: your plan ends today — renew');
  });

  it('says the plan has ended when the end day has passed', () => {
    const mail = buildPlanEnding({ now: new Date('2026-12-25T09:00:00Z') });
    expect(mail.subject).toBe('Acme VPN: your plan has ended — renew');
    expectSaid(mail, 'Your VPN account alice-laptop on Yearly ended on 24 December 2026.', 'switch it on again');
  });
});

describe('renderDeviceLimitEmail', () => {
  it('names the account and its limit, says how to make room, and links to the dashboard', () => {
    const mail = renderDeviceLimitEmail({ ...buildBase(), accountName: 'alice-laptop', limit: 2 });
    expect(mail.subject).toBe('Acme VPN: a new device could not connect');
    expectSaid(
      mail,
      'A new device tried to connect to your VPN alice-laptop, but it already uses 2 of its 2 devices.',
      'Remove a device you no longer use in your dashboard, or choose a plan with more devices.',
    );
    expectButton(mail, 'Open your dashboard', DASHBOARD);
  });

  it('counts one device in the singular', () => {
    expectSaid(renderDeviceLimitEmail({ ...buildBase(), accountName: 'bob', limit: 1 }), 'it already uses 1 of its 1 device.');
  });

  it("is written in the customer's language, with the dashboard in it", () => {
    const mail = renderDeviceLimitEmail({ ...buildBase(), locale: 'ru', accountName: 'alice-laptop', limit: 5 });
    expect(mail.subject).toBe('Acme VPN: новое устройство не смогло подключиться');
    expectSaid(mail, 'на нём уже используется 5 из 5 устройств.');
    expectButton(mail, 'Открыть личный кабинет', 'https://vpn.example.com/ru/dashboard');
  });
});

describe('renderPaymentFailedEmail', () => {
  function buildFailed(nextAttemptAt: Date | null) {
    return renderPaymentFailedEmail({
      ...buildBase(),
      planName: 'Monthly',
      amount: 499,
      currency: 'usd',
      graceEndsAt: new Date('2026-12-31T00:00:00Z'),
      nextAttemptAt,
    });
  }

  it('says the charge failed, how long the VPN keeps working, and links to update the card', () => {
    const mail = buildFailed(null);
    expect(mail.subject).toBe('Acme VPN: your payment did not go through');
    expectSaid(mail, 'The renewal charge of $4.99 for Monthly did not go through.', 'Your VPN keeps working until 31 December 2026.');
    expectButton(mail, 'Update your card', MANAGE_BILLING);
    expectNotSaid(mail, 'try the card again');
  });

  it('gives the next automatic retry when there is one', () => {
    const mail = buildFailed(new Date('2026-12-27T10:00:00Z'));
    expectSaid(mail, 'We will try the card again automatically on 27 December 2026.');
  });
});

describe('renderAccountPausedEmail', () => {
  it('says the renewal could not be charged, the account is paused, and how it comes back', () => {
    const mail = renderAccountPausedEmail({ ...buildBase(), planName: 'Monthly', amount: 499, currency: 'usd' });
    expect(mail.subject).toBe('Acme VPN: your VPN account is paused');
    expectSaid(
      mail,
      'The renewal of $4.99 for Monthly could not be charged, so your VPN account has been paused.',
      'as soon as the payment goes through, the account is switched on again and extended',
    );
    expectButton(mail, 'Update your card', MANAGE_BILLING);
  });
});

describe('renderPartialPaymentEmail', () => {
  it('says what arrived of what was due, that nothing was set up, and that it will be refunded', () => {
    const mail = renderPartialPaymentEmail({ ...buildBase(), planName: 'Monthly', amount: 499, currency: 'usd', amountPaid: 250 });
    expect(mail.subject).toBe('Acme VPN: your crypto payment was not completed');
    expectSaid(
      mail,
      'Your crypto invoice for Monthly expired before it was paid in full: we received $2.50 of $4.99.',
      'nothing has been set up or extended',
      'We will refund the $2.50 you sent.',
    );
    expectButton(mail, 'Open your dashboard', DASHBOARD);
  });

  it("is written in the customer's language, amounts included", () => {
    const mail = renderPartialPaymentEmail({ ...buildBase(), locale: 'ru', planName: 'Месяц', amount: 499, currency: 'usd', amountPaid: 250 });
    expect(mail.subject).toBe('Acme VPN: ваш криптоплатёж не завершён');
    expectSaid(mail, `мы получили ${money(250, 'usd', 'ru')} из ${money(499, 'usd', 'ru')}`);
  });
});

describe('renderSubscriptionCanceledEmail', () => {
  it('says auto-renew is off and the account stays active until a future end, with how to resume', () => {
    const mail = buildCanceled();
    expect(mail.subject).toBe('Acme VPN: your subscription was cancelled');
    expectSaid(
      mail,
      'Your Monthly subscription has been cancelled.',
      'Auto-renew is off: there will be no further charges.',
      'Your VPN account stays active until 24 December 2026.',
      'press Resume on your dashboard before then',
    );
    expectButton(mail, 'Open your dashboard', DASHBOARD);
  });

  it('says the account has ended, without the resume sentence, when the end has passed', () => {
    const mail = buildCanceled({ now: new Date('2026-12-24T12:00:00Z') });
    expectSaid(mail, 'Your VPN account has ended.');
    expectNotSaid(mail, 'stays active', 'Resume');
  });

  it('says the account has ended when there is no end date', () => {
    const mail = buildCanceled({ endsAt: null });
    expectSaid(mail, 'Your VPN account has ended.');
    expectNotSaid(mail, 'stays active', 'Resume');
  });

  it('says an administrator cancelled it and points to support instead of Resume', () => {
    const mail = buildCanceled({ byAdmin: true });
    expectSaid(mail, 'Acme VPN has cancelled your Monthly subscription.', 'contact Acme VPN support', 'stays active until 24 December 2026');
    expectNotSaid(mail, 'Resume');
  });
});

describe('renderSubscriptionResumedEmail', () => {
  const resumed = (overrides: Partial<Parameters<typeof renderSubscriptionResumedEmail>[0]> = {}) =>
    renderSubscriptionResumedEmail({
      ...buildBase(),
      planName: 'Monthly',
      amount: 499,
      currency: 'usd',
      renewsAt: new Date('2026-12-24T12:00:00Z'),
      ...overrides,
    });

  it('says auto-renew is back on, when and how much is charged next, and how to stop it again', () => {
    const mail = resumed();
    expect(mail.subject).toBe('Acme VPN: auto-renew is back on');
    expectSaid(
      mail,
      'Auto-renew is back on for your Monthly subscription.',
      `the card on file will be charged ${money(499, 'usd', 'en')} on 24 December 2026`,
      'cancel auto-renew on your dashboard',
    );
    expectButton(mail, 'Open your dashboard', DASHBOARD);
  });

  it("is written in the customer's language, the day and amount in its own digits", () => {
    expect(resumed({ locale: 'ru' }).subject).toBe('Acme VPN: автопродление снова включено');
    const fa = resumed({ locale: 'fa' });
    expectSaid(fa, 'تمدید خودکار اشتراک «Monthly» شما دوباره روشن شد.', formatDay(new Date('2026-12-24T12:00:00Z'), 'fa'), money(499, 'usd', 'fa'));
    expect(fa.text).not.toMatch(/24|2026/);
    expectSaid(resumed({ locale: 'zh-CN' }), '您的“Monthly”订阅已重新开启自动续订。');
  });

  it('says it renews automatically when the next charge date is not known', () => {
    expectSaid(resumed({ renewsAt: null }), 'renews automatically with the card on file');
  });
});

describe('every billing e-mail', () => {
  const brandName = 'Bob & <Co>';
  const planName = 'Pro "Max" <1y>';
  const base = { ...buildBase({ brandName }), planName };
  const charge = { ...base, amount: 499, currency: 'usd' };
  const day = new Date('2026-12-24T12:00:00Z');
  const now = new Date('2026-12-01T12:00:00Z');
  const mails: Array<[string, MailMessage]> = [
    ['receipt', renderReceiptEmail({ ...charge, paidAt: now, periodEnd: day, renewal: true, recurring: true, nextChargeAt: day, receiptNumber: '<R&1>' })],
    ['renewal reminder', renderRenewalReminderEmail({ ...charge, chargeAt: day })],
    ['plan ending', renderPlanEndingEmail({ ...base, endsAt: day, accountName: '<script>x</script>', now })],
    ['payment failed', renderPaymentFailedEmail({ ...charge, graceEndsAt: day, nextAttemptAt: day })],
    ['account paused', renderAccountPausedEmail(charge)],
    ['partial crypto payment', renderPartialPaymentEmail({ ...charge, amountPaid: 250 })],
    ['subscription cancelled', renderSubscriptionCanceledEmail({ ...base, endsAt: day, byAdmin: true, now })],
    ['auto-renew back on', renderSubscriptionResumedEmail({ ...charge, renewsAt: day })],
  ];

  it.each(mails)('%s: puts the brand in the subject and frame and escapes names in the HTML', (_, mail) => {
    expect(mail.subject).toContain(brandName);
    expect(mail.text).toContain(planName);
    expect(mail.html).toContain('Bob &amp; &lt;Co&gt;');
    expect(mail.html).toContain('Pro &quot;Max&quot; &lt;1y&gt;');
    expect(mail.html).not.toContain('<Co>');
    expect(mail.html).not.toContain('<1y>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<R&1>');
    expect(mail.html).toContain('https://vpn.example.com/dashboard');
    expect(mail.text).toContain('https://vpn.example.com/dashboard');
  });
});
