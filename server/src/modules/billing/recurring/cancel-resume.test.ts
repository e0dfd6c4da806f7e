import { describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { panelExpiryOf, stripePeriodEnd, subscribeToRecurring, type Subscriber } from '../../../../test/recurring-subscriber.js';
import { mailParts } from '../../../../test/smtp-catcher.js';
import { formatDay } from '../../../mail/billing-emails.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Cancel auto-renew and Resume as the customer sees them: every screen shows the same date (what was
 * paid for, not the panel's expiry with its renewal grace), and each change is told by e-mail.
 */
describe.each(TEST_DATABASES)('cancel and resume auto-renew (%s)', (kind) => {
  const f = useBillingFixture(kind);

  const emailOf = async (s: Subscriber): Promise<string> => (await f.env.database.db('user_profiles').where({ id: s.user.userId }).first()).email;
  const mailsTo = async (s: Subscriber, subject: RegExp) => {
    const email = await emailOf(s);
    return f.env.smtp.messages.filter((m) => m.to.includes(email) && subject.test(m.subject));
  };

  /** The account's expiry (`/api/accounts`) and its subscription's dates (`/api/subscriptions`), as the dashboard reads them. */
  async function shownDates(s: Subscriber) {
    const account = ((await f.call(s.user, 'GET', '/api/accounts')).json() as Array<{ id: string; expireDate: string }>).find((a) => a.id === s.accountId)!;
    const subscription = (
      (await f.call(s.user, 'GET', '/api/subscriptions')).json() as Array<{ id: string; currentPeriodEnd: string; renewsAt: string | null }>
    ).find((entry) => entry.id === s.subscriptionId)!;
    const found = await f.call(s.user, 'GET', `/api/accounts/${s.accountId}`);
    return {
      account: account.expireDate,
      one: found.statusCode === 200 ? found.json().expireDate : account.expireDate,
      periodEnd: subscription.currentPeriodEnd,
      renewsAt: subscription.renewsAt,
    };
  }

  it('the account shows the paid end, as the subscription does, though the panel carries the grace period', async () => {
    const s = await subscribeToRecurring(f);
    const paidEnd = new Date(stripePeriodEnd(f, s) * 1000).toISOString();
    expect(panelExpiryOf(f, s.accountId)).toBe(new Date(paidEnd).getTime() + 3 * DAY_MS);
    expect(await shownDates(s)).toEqual({ account: paidEnd, one: paidEnd, periodEnd: paidEnd, renewsAt: paidEnd });

    // Auto-renew off: the same day, before and after the panel has been brought to the paid end.
    expect((await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`)).statusCode).toBe(200);
    expect(await shownDates(s)).toEqual({ account: paidEnd, one: paidEnd, periodEnd: paidEnd, renewsAt: null });
    await f.runJobs();
    expect(panelExpiryOf(f, s.accountId)).toBe(new Date(paidEnd).getTime());
    expect(await shownDates(s)).toEqual({ account: paidEnd, one: paidEnd, periodEnd: paidEnd, renewsAt: null });

    expect((await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`)).statusCode).toBe(200);
    await f.runJobs();
    expect(await shownDates(s)).toEqual({ account: paidEnd, one: paidEnd, periodEnd: paidEnd, renewsAt: paidEnd });
  });

  it('resuming sends the "auto-renew is back on" e-mail over SMTP, once, in the customer\'s language', async () => {
    const s = await subscribeToRecurring(f);
    const end = new Date(stripePeriodEnd(f, s) * 1000);
    expect((await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`)).statusCode).toBe(200);
    await f.runJobs();
    expect(await mailsTo(s, /cancelled/)).toHaveLength(1);
    expect(await mailsTo(s, /auto-renew is back on/)).toHaveLength(0);

    expect((await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`)).statusCode).toBe(200);
    await f.runJobs();
    // Resume again: nothing changed, nothing more to tell.
    expect((await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`)).statusCode).toBe(200);
    await f.runJobs();
    const resumed = await mailsTo(s, /auto-renew is back on/);
    expect(resumed).toHaveLength(1);
    const { text, html } = mailParts(resumed[0]!);
    expect(text).toContain('Auto-renew is back on for your');
    expect(text).toContain(`on ${formatDay(end, 'en')}`);
    expect(html).toContain('Auto-renew is back on for your');

    // In Russian for a customer who reads Russian.
    await f.env.database.db('user_profiles').where({ id: s.user.userId }).update({ locale: 'ru' });
    expect((await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`)).statusCode).toBe(200);
    await f.runJobs();
    expect((await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`)).statusCode).toBe(200);
    await f.runJobs();
    const russian = await mailsTo(s, /автопродление снова включено/);
    expect(russian).toHaveLength(1);
    expect(mailParts(russian[0]!).text).toContain(formatDay(end, 'ru'));
  });
});
