import { describe, expect, it } from 'vitest';
import { useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { emailOf } from '../../../../test/billing-mail.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import type { DesktopSession } from '../../../../test/test-app.js';
import { SEND_RENEWAL_REMINDERS } from './send-renewal-reminders.js';
import { createJobsRepo } from '../../../jobs/jobs.repo.js';

const DAY = 24 * 3600;

async function mailsTo(f: BillingFixture, user: DesktopSession, subject: RegExp) {
  const email = await emailOf(f, user);
  return f.env.smtp.messages.filter((m) => m.to.includes(email) && subject.test(m.subject));
}

/** One pass of the hourly reminders job, now. */
async function runReminders(f: BillingFixture, pass: string): Promise<void> {
  await createJobsRepo(f.env.database.db).enqueue({ type: SEND_RENEWAL_REMINDERS, payload: {}, dedupeKey: `test-reminders-${pass}` }, f.t.clock.now());
  await f.runJobs();
}

/**
 * 3 days before a renewal charge (or before a one-off plan's last period ends) the customer is told,
 * once; nothing when the admin has switched reminders off, or once auto-renew is cancelled.
 */
describe.each(TEST_DATABASES)('renewal reminders (%s)', (kind) => {
  const f = useBillingFixture(kind);
  let pass = 0;
  const nextPass = () => `${kind}-${(pass += 1)}-${Date.now()}`;

  /** Runs `body` with our clock `days` ahead (the Stripe test clocks stay at the purchase), then puts it back. */
  async function daysLater(days: number, body: () => Promise<void>): Promise<void> {
    f.t.clock.advance(days * DAY);
    try {
      await body();
    } finally {
      f.t.clock.advance(-days * DAY);
    }
  }

  it('a renewing plan: "renews on" 3 days before the charge, once; a one-off plan: "ends in N days — renew", once', async () => {
    const subscriber = await f.newUser();
    const { sessionId } = await f.checkout(subscriber, { planId: f.recurringPlanId });
    await f.stripe.pay(sessionId);
    const oneOff = await f.newUser();
    await f.buyAccount(oneOff);
    await f.runJobs();

    await runReminders(f, nextPass());
    expect(await mailsTo(f, subscriber, /renews on/i)).toHaveLength(0);
    expect(await mailsTo(f, oneOff, /ends/i)).toHaveLength(0);

    await daysLater(28, async () => {
      await runReminders(f, nextPass());
      await runReminders(f, nextPass());
    });
    const reminders = await mailsTo(f, subscriber, /renews on/i);
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.raw).toContain('$4.99');
    const ending = await mailsTo(f, oneOff, /ends in \d+ days|ends tomorrow/i);
    expect(ending).toHaveLength(1);
    expect(ending[0]!.raw).toMatch(/renew/i);
  });

  it('nothing when reminders are switched off, or after auto-renew was cancelled', async () => {
    const cancelled = await f.newUser();
    const first = await f.checkout(cancelled, { planId: f.recurringPlanId });
    await f.stripe.pay(first.sessionId);
    await f.runJobs();
    expect((await f.call(cancelled, 'POST', `/api/subscriptions/${first.subscriptionId}/cancel`)).statusCode).toBe(200);
    const quiet = await f.newUser();
    const second = await f.checkout(quiet, { planId: f.recurringPlanId });
    await f.stripe.pay(second.sessionId);
    await f.runJobs();

    const off = await f.call(f.admin, 'PUT', '/api/admin/settings', { renewalReminders: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ renewalReminders: false, renewalGraceDays: 3 });
    try {
      await daysLater(28, () => runReminders(f, nextPass()));
      expect(await mailsTo(f, quiet, /renews on/i)).toHaveLength(0);
    } finally {
      await f.call(f.admin, 'PUT', '/api/admin/settings', { renewalReminders: true });
    }
    await daysLater(28, () => runReminders(f, nextPass()));
    expect(await mailsTo(f, quiet, /renews on/i)).toHaveLength(1);
    expect(await mailsTo(f, cancelled, /renews on/i)).toHaveLength(0);
  });

  it('settings: the grace period is whole days from 0 to 30; someone who is not an admin cannot change it', async () => {
    expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { renewalGraceDays: 31 })).statusCode).toBe(400);
    expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { renewalGraceDays: 1.5 })).statusCode).toBe(400);
    expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { renewalReminders: 'yes' })).statusCode).toBe(400);
    const user = await f.newUser();
    expect((await f.call(user, 'PUT', '/api/admin/settings', { renewalGraceDays: 0 })).statusCode).toBe(403);
    expect((await f.call(f.admin, 'GET', '/api/admin/settings')).json()).toMatchObject({ renewalGraceDays: 3, renewalReminders: true });
  });
});
