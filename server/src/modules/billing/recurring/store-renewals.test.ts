import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import { mailParts } from '../../../../test/smtp-catcher.js';
import type { DesktopSession } from '../../../../test/test-app.js';
import { YOOKASSA, useFakeYookassa } from '../../../../test/yookassa-fixture.js';
import { SEND_RENEWAL_REMINDERS } from './send-renewal-reminders.js';
import { SCAN_STORE_RENEWALS } from './store-renewals.js';
import { schedulePeriodicJob } from '../../../jobs/periodic-jobs.js';

const DAY = 24 * 3600;

/**
 * Recurring plans bought through YooKassa, renewed by this server (YooKassa has no subscriptions): the first
 * payment saves the card, and the renewal job charges it before each period ends, exactly once per period
 * (racing runners, lost answers and restarts included); a declined card is tried three times, e-mailed in the
 * customer's language each time, and then the plan ends with its period. Cancel, Resume and removing the card.
 */
describe.each(TEST_DATABASES)('plans renewed here with a saved YooKassa card (%s)', (kind) => {
  const shop = useFakeYookassa(() => f);
  const f: BillingFixture = useBillingFixture(kind, { env: () => shop.env() });
  const db = () => f.env.database.db;

  beforeAll(async () => {
    shop.fake.setWebhookUrl(shop.webhookUrl());
    expect((await f.call(f.admin, 'PUT', '/api/admin/payments/yookassa', { enabled: true, ...YOOKASSA })).statusCode).toBe(200);
    expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { currency: 'rub' })).statusCode).toBe(200);
    // The periodic scan, as main.ts queues it (the fixture queues no periodic job of its own).
    await schedulePeriodicJob(f.t.app.services.jobs, SCAN_STORE_RENEWALS, f.t.clock.now());
    await schedulePeriodicJob(f.t.app.services.jobs, SEND_RENEWAL_REMINDERS, f.t.clock.now());
  });

  interface Subscribed {
    user: DesktopSession;
    subscriptionId: string;
    accountId: string;
    methodId: string;
    periodEnd: Date;
  }

  /** A customer buys the monthly plan through YooKassa and pays by card on its page (the card is saved). */
  async function subscribe(options: { method?: 'bank_card' | 'sbp' } = {}): Promise<Subscribed & { paymentId: string }> {
    const user = await f.newUser();
    const started = await f.call(user, 'POST', '/api/checkout', { planId: f.recurringPlanId, method: 'yookassa' });
    expect(started.statusCode, started.body).toBe(200);
    const { sessionId, subscriptionId } = started.json() as { sessionId: string; subscriptionId: string };
    await shop.fake.pay(sessionId, options.method ? { method: options.method } : {});
    await f.runJobs();
    const row = await db()('subscriptions').where({ id: subscriptionId }).first();
    return {
      user,
      subscriptionId,
      accountId: row.vpn_account_id,
      methodId: row.saved_method_id,
      periodEnd: new Date(row.current_period_end),
      paymentId: sessionId,
    };
  }

  const subscriptionOf = async (s: Subscribed) =>
    ((await f.call(s.user, 'GET', '/api/subscriptions')).json() as Array<Record<string, unknown>>).find((entry) => entry.id === s.subscriptionId)!;
  /** The charges of saved cards the fake has been asked to make. */
  const chargesOf = (methodRef: string) =>
    shop.fake.requests.filter(
      (request) => request.method === 'POST' && request.path === '/v3/payments' && JSON.parse(request.body).payment_method_id === methodRef,
    );
  const methodRefOf = async (s: Subscribed) => (await db()('saved_payment_methods').where({ id: s.methodId }).first()).method_ref as string;
  const renewalsOf = (s: Subscribed) => db()('transactions').where({ subscription_id: s.subscriptionId }).whereNotNull('provider_invoice_id');
  const panelExpiryOf = (accountId: string) => {
    const user = [...f.panel.users.values()].map(asMarzneshinUser).find((candidate) => candidate.note === accountId)!;
    return new Date(`${user.expire_date}Z`).getTime();
  };
  /** The panel keeps whole seconds. */
  const seconds = (at: Date | number) => Math.floor(new Date(at).getTime() / 1000) * 1000;
  const mailsTo = async (user: DesktopSession, subject: RegExp) => {
    const { email } = await db()('user_profiles').where({ id: user.userId }).first();
    return f.env.smtp.messages.filter((m) => m.to.includes(email) && subject.test(m.subject));
  };
  /** Moves our clock to `at` (never back) and runs what is due: the scan, then the period's renewal job. */
  const runAt = async (at: Date) => {
    const ahead = Math.ceil((at.getTime() - f.t.clock.now().getTime()) / 1000);
    if (ahead > 0) f.t.clock.advance(ahead);
    await f.runJobs();
  };

  it('the first payment saves the card; the dashboard says when it renews and with which card; no grace after the period', async () => {
    const s = await subscribe();
    expect(s.methodId).toEqual(expect.any(String));
    const payment = shop.fake.getPayment(s.paymentId)!;
    const created = shop.fake.requests.find(
      (request) => request.method === 'POST' && request.path === '/v3/payments' && JSON.parse(request.body).metadata?.order_id === payment.metadata?.order_id,
    )!;
    expect(JSON.parse(created.body)).toMatchObject({ save_payment_method: true });
    expect(await db()('saved_payment_methods').where({ id: s.methodId }).first()).toMatchObject({
      user_id: s.user.userId,
      provider: 'yookassa',
      method_ref: payment.payment_method!.id,
      title: 'Bank card *4444',
    });
    expect(await subscriptionOf(s)).toMatchObject({
      status: 'active',
      billing: 'recurring',
      autoRenews: true,
      renewedHere: true,
      renewalAmount: 499,
      currency: 'rub',
      renewsAt: new Date(s.periodEnd.getTime() - 3 * DAY * 1000).toISOString(),
      savedMethod: { id: s.methodId, title: 'Bank card *4444' },
      error: null,
    });
    expect(panelExpiryOf(s.accountId)).toBe(seconds(s.periodEnd));
    expect((await f.call(s.user, 'GET', '/api/payment-methods')).json()).toEqual([{ id: s.methodId, title: 'Bank card *4444', createdAt: expect.any(String) }]);
    // A second customer sees none of it.
    const other = await f.newUser();
    expect((await f.call(other, 'GET', '/api/payment-methods')).json()).toEqual([]);
    expect((await f.call(null, 'GET', '/api/payment-methods')).statusCode).toBe(401);
  });

  it('is charged once, three days before the period ends, and the account runs on for another period', async () => {
    const s = await subscribe();
    const ref = await methodRefOf(s);
    // Reminded three days before the charge (which is three days before the period ends), with no billing portal to point to.
    await runAt(new Date(s.periodEnd.getTime() - 6 * DAY * 1000 + 3600_000));
    const [reminder] = await mailsTo(s.user, /renews on/);
    expect(reminder).toBeDefined();
    const chargeDay = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(s.periodEnd.getTime() - 3 * DAY * 1000));
    expect(mailParts(reminder!).text).toContain(chargeDay);
    expect(mailParts(reminder!).text).toContain('remove the saved card');
    expect(mailParts(reminder!).text).not.toContain('Manage billing');
    await runAt(new Date(s.periodEnd.getTime() - 4 * DAY * 1000));
    expect(chargesOf(ref)).toHaveLength(0);
    await runAt(new Date(s.periodEnd.getTime() - 3 * DAY * 1000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(1);
    expect(JSON.parse(chargesOf(ref)[0]!.body)).toMatchObject({ amount: { value: '4.99', currency: 'RUB' }, capture: true, payment_method_id: ref });
    const [renewal] = await renewalsOf(s);
    expect(renewal).toMatchObject({ status: 'succeeded', amount: 499, currency: 'rub' });
    const next = new Date(s.periodEnd.getTime() + 30 * DAY * 1000);
    expect(new Date((await db()('subscriptions').where({ id: s.subscriptionId }).first()).current_period_end).getTime()).toBe(next.getTime());
    await shop.fake.waitForDeliveries();
    await f.runJobs();
    expect(panelExpiryOf(s.accountId)).toBe(seconds(next));
    expect(await mailsTo(s.user, /receipt/i)).toHaveLength(2);
    // Its notification, and the scan running again, change nothing.
    await runAt(new Date(f.t.clock.now().getTime() + 3600_000));
    expect(chargesOf(ref)).toHaveLength(1);
    expect(await f.count('paid_periods', { transaction_id: renewal.id })).toBe(1);
    const history = (await f.call(s.user, 'GET', '/api/transactions')).json() as Array<{ renewal: boolean; status: string; method: string }>;
    expect(history.filter((entry) => entry.renewal)).toEqual([expect.objectContaining({ status: 'succeeded', method: 'yookassa' })]);
  });

  it('two runners at once charge once', async () => {
    const s = await subscribe();
    const ref = await methodRefOf(s);
    f.t.clock.advance(Math.ceil((s.periodEnd.getTime() - 3 * DAY * 1000 - f.t.clock.now().getTime()) / 1000) + 60);
    const { storeRenewals } = f.t.app.services;
    const answers = await Promise.allSettled(Array.from({ length: 6 }, () => storeRenewals.charge(s.subscriptionId, s.periodEnd)));
    expect(answers.filter((answer) => answer.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    expect(chargesOf(ref)).toHaveLength(1);
    expect(await f.count('transactions', { subscription_id: s.subscriptionId, status: 'succeeded' })).toBe(2);
    expect(await f.count('paid_periods', { subscription_id: s.subscriptionId })).toBe(2);
    await f.runJobs();
    expect(chargesOf(ref)).toHaveLength(1);
  });

  it('a charge whose answer was lost (and a restart) is sent again with its key: one payment, one period', async () => {
    const s = await subscribe();
    const ref = await methodRefOf(s);
    shop.fake.setWebhookUrl(null);
    try {
      shop.fake.loseNextAnswer('POST', /^\/v3\/payments$/);
      await runAt(new Date(s.periodEnd.getTime() - 3 * DAY * 1000 + 60_000));
      const [renewal] = await renewalsOf(s);
      // Recorded before it was sent: the try and its key; the payment YooKassa made is not known here yet.
      expect(renewal).toMatchObject({ status: 'pending', charge_attempts: 1 });
      expect(chargesOf(ref)).toHaveLength(1);
      await f.restart();
      f.t.clock.advance(15 * 60 + 5);
      await f.runJobs();
      const posts = chargesOf(ref);
      expect(posts).toHaveLength(2);
      expect(posts[1]!.idempotenceKey).toBe(posts[0]!.idempotenceKey);
      expect(shop.fake.listPayments().filter((payment) => payment.payment_method?.id === ref && payment.id !== s.paymentId)).toHaveLength(1);
      expect((await renewalsOf(s))[0]).toMatchObject({ status: 'succeeded', charge_attempts: 1 });
      expect(await f.count('paid_periods', { subscription_id: s.subscriptionId })).toBe(2);
    } finally {
      shop.fake.setWebhookUrl(shop.webhookUrl());
    }
  });

  it("a declined card is tried three times, e-mailed each time in the customer's language; then the plan ends with its period", async () => {
    const s = await subscribe();
    const ref = await methodRefOf(s);
    expect((await f.call(s.user, 'PATCH', '/api/me', { locale: 'ru' })).statusCode).toBe(200);
    shop.fake.scriptSavedCharges(ref, ['insufficient_funds', 'insufficient_funds', 'card_expired']);

    await runAt(new Date(s.periodEnd.getTime() - 3 * DAY * 1000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(1);
    expect(await subscriptionOf(s)).toMatchObject({ status: 'past_due', autoRenews: true, graceEndsAt: s.periodEnd.toISOString() });
    const [first] = await mailsTo(s.user, /платёж не прошёл/);
    expect(mailParts(first!).text).toContain('Мы автоматически попробуем списать оплату с карты ещё раз');
    expect(mailParts(first!).text).toContain('продлите тариф в личном кабинете');
    expect(panelExpiryOf(s.accountId)).toBe(seconds(s.periodEnd));

    await runAt(new Date(s.periodEnd.getTime() - 2 * DAY * 1000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(2);
    await runAt(new Date(s.periodEnd.getTime() - 1 * DAY * 1000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(3);
    expect(new Set(chargesOf(ref).map((request) => request.idempotenceKey)).size).toBe(3);
    const mails = await mailsTo(s.user, /платёж не прошёл/);
    expect(mails).toHaveLength(3);
    expect(mailParts(mails[2]!).text).toContain('Это была последняя попытка');
    expect(await subscriptionOf(s)).toMatchObject({ status: 'canceled', autoRenews: false, error: BILLING_MESSAGES.renewalFailed });
    const [renewal] = await renewalsOf(s);
    expect(renewal).toMatchObject({ status: 'failed', charge_attempts: 3 });
    // Nothing more is tried; the account runs to the end of what was paid, and no further.
    await runAt(new Date(s.periodEnd.getTime() + 3600_000));
    expect(chargesOf(ref)).toHaveLength(3);
    expect(panelExpiryOf(s.accountId)).toBe(seconds(s.periodEnd));
    const logs = await db()('vpn_account_logs').where({ vpn_account_id: s.accountId, step: 'renewal_failed' });
    expect(logs).toHaveLength(3);
  });

  it('a charge YooKassa refuses outright (the saved method is gone) counts as a declined try, e-mailed, no payment made', async () => {
    const s = await subscribe();
    // The method YooKassa no longer knows: it answers 400 to the charge.
    await db()('saved_payment_methods').where({ id: s.methodId }).update({ method_ref: '2d5b6a4e-000f-5000-9000-000000000000' });
    await runAt(new Date(s.periodEnd.getTime() - 3 * DAY * 1000 + 60_000));
    const [renewal] = await renewalsOf(s);
    expect(renewal).toMatchObject({ status: 'failed', charge_attempts: 1 });
    expect(JSON.parse(typeof renewal.metadata === 'string' ? renewal.metadata : JSON.stringify(renewal.metadata)).charges).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'declined', reason: 'invalid_request' }),
    ]);
    expect(await subscriptionOf(s)).toMatchObject({ status: 'past_due' });
    expect(await mailsTo(s.user, /did not go through/)).toHaveLength(1);
    // Nothing stuck: the job waits for the next try, it does not hammer YooKassa.
    expect(await db()('jobs').where({ type: 'charge_store_renewal', status: 'failed' })).toEqual([]);
  });

  it('its first payment refunded in full: the plan ends here at once, and nothing is charged or asked of YooKassa later', async () => {
    const s = await subscribe();
    const ref = await methodRefOf(s);
    const [first] = await db()('transactions').where({ subscription_id: s.subscriptionId });
    // As the admin's Refund does (through the service: the fixture's admin session does not outlive the clock's jumps).
    const refunded = await f.t.app.services.refunds.refundTransaction({ id: null, email: 'admin@example.com' }, first.id, { reason: 'requested_by_customer' });
    expect(refunded).toMatchObject({ status: 'refunded' });
    expect(await subscriptionOf(s)).toMatchObject({ status: 'canceled', autoRenews: false });
    await runAt(new Date(s.periodEnd.getTime() - 3 * DAY * 1000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(0);
    expect(await db()('jobs').where({ type: 'end_refunded_subscription' })).toEqual([]);
  });

  it('declined once, paid on the second try: active again, one period added', async () => {
    const s = await subscribe();
    const ref = await methodRefOf(s);
    shop.fake.scriptSavedCharges(ref, ['insufficient_funds']);
    await runAt(new Date(s.periodEnd.getTime() - 3 * DAY * 1000 + 60_000));
    expect((await subscriptionOf(s)).status).toBe('past_due');
    await runAt(new Date(s.periodEnd.getTime() - 2 * DAY * 1000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(2);
    expect(await subscriptionOf(s)).toMatchObject({ status: 'active', graceEndsAt: null, error: null });
    expect((await renewalsOf(s))[0]).toMatchObject({ status: 'succeeded' });
    expect(await f.count('paid_periods', { subscription_id: s.subscriptionId })).toBe(2);
    await runAt(new Date(s.periodEnd.getTime() - 1 * DAY * 1000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(2);
  });

  it('renewed by hand after a declined try: the next try is not made, and auto-renew goes off', async () => {
    const s = await subscribe();
    const ref = await methodRefOf(s);
    shop.fake.scriptSavedCharges(ref, ['insufficient_funds']);
    await runAt(new Date(s.periodEnd.getTime() - 3 * DAY * 1000 + 60_000));
    const byHand = await f.call(s.user, 'POST', '/api/checkout', { accountId: s.accountId, method: 'yookassa' });
    expect(byHand.statusCode, byHand.body).toBe(200);
    await shop.fake.pay(byHand.json().sessionId);
    await f.runJobs();
    await runAt(new Date(s.periodEnd.getTime() - 2 * DAY * 1000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(1);
    expect(await subscriptionOf(s)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, autoRenews: false });
    expect(panelExpiryOf(s.accountId)).toBe(seconds(s.periodEnd.getTime() + 30 * DAY * 1000));
  });

  it("cancel and resume change nothing at YooKassa; cancelled, it is not charged; someone else's is a 404", async () => {
    const s = await subscribe();
    const ref = await methodRefOf(s);
    const other = await f.newUser();
    expect((await f.call(other, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`)).statusCode).toBe(404);
    expect((await f.call(null, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`)).statusCode).toBe(401);
    const before = shop.fake.requests.length;
    const { email } = await db()('user_profiles').where({ id: s.user.userId }).first();
    const mailsBefore = f.env.smtp.messages.length;
    const cancelled = await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ cancelAtPeriodEnd: true, autoRenews: false, renewedHere: true });
    await f.runJobs();
    expect((await f.env.smtp.waitFor(email, { after: mailsBefore })).subject).toMatch(/cancelled/);
    await runAt(new Date(s.periodEnd.getTime() - 3 * DAY * 1000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(0);
    const resumed = await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`);
    expect(resumed.json()).toMatchObject({ cancelAtPeriodEnd: false, autoRenews: true });
    expect(shop.fake.requests.length).toBe(before);
    // Turned back on inside the charging window: charged within the hour.
    await runAt(new Date(f.t.clock.now().getTime() + 3600_000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(1);
    expect((await renewalsOf(s))[0]).toMatchObject({ status: 'succeeded' });
  });

  it("removing the card turns auto-renew off on its plans; it cannot be resumed without one; someone else's card is a 404", async () => {
    const s = await subscribe();
    const ref = await methodRefOf(s);
    const other = await f.newUser();
    expect((await f.call(other, 'DELETE', `/api/payment-methods/${s.methodId}`)).statusCode).toBe(404);
    expect((await f.call(null, 'DELETE', `/api/payment-methods/${s.methodId}`)).statusCode).toBe(401);
    expect((await f.call(s.user, 'DELETE', '/api/payment-methods/nope')).json()).toEqual({ code: 'not_found', message: BILLING_MESSAGES.savedMethodNotFound });
    const removed = await f.call(s.user, 'DELETE', `/api/payment-methods/${s.methodId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ stoppedRenewing: 1 });
    expect((await f.call(s.user, 'DELETE', `/api/payment-methods/${s.methodId}`)).statusCode).toBe(404);
    expect((await f.call(s.user, 'GET', '/api/payment-methods')).json()).toEqual([]);
    expect(await subscriptionOf(s)).toMatchObject({ cancelAtPeriodEnd: true, autoRenews: false, savedMethod: null });
    const resumed = await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`);
    expect(resumed.statusCode).toBe(409);
    expect(resumed.json()).toEqual({ code: 'no_saved_method', message: BILLING_MESSAGES.noSavedMethod });
    expect(await f.count('audit_log', { action: 'payment_method.remove', target_id: s.methodId })).toBe(1);
    await runAt(new Date(s.periodEnd.getTime() - 3 * DAY * 1000 + 60_000));
    expect(chargesOf(ref)).toHaveLength(0);
  });

  it('a payment that saved no card (SBP) runs its period with auto-renew off, and says why', async () => {
    const s = await subscribe({ method: 'sbp' });
    expect(s.methodId).toBeNull();
    expect(await subscriptionOf(s)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      autoRenews: false,
      savedMethod: null,
      error: BILLING_MESSAGES.methodNotSaved,
    });
    expect((await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`)).json().code).toBe('no_saved_method');
    // It can be renewed by hand like any plan that does not renew.
    expect((await f.call(s.user, 'POST', '/api/checkout', { accountId: s.accountId, method: 'yookassa' })).statusCode).toBe(200);
  });
});
