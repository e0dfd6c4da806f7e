import { beforeAll, describe, expect, it } from 'vitest';
import { GB } from '../../../test/billing-fixture.js';
import { emailOf } from '../../../test/billing-mail.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { panelExpiryOf } from '../../../test/recurring-subscriber.js';
import { buttons, useTelegramFixture, type TelegramSender as Person } from '../../../test/telegram-kit.js';
import { signInDesktop, type DesktopSession } from '../../../test/test-app.js';
import { toDate } from '../../db/values.js';
import { createJobsRepo } from '../../jobs/jobs.repo.js';
import { schedulePeriodicJob } from '../../jobs/periodic-jobs.js';
import { DEFER_RENEWAL } from '../billing/recurring/defer-renewal.js';
import { RECONCILE_SUBSCRIPTIONS } from '../billing/recurring/reconcile-subscriptions.js';

const TOKEN = '7000041:AAFixtureBotTokenForStarsSubscribing1';
const BOT = { id: 7000041, username: 'lumen_subscribe_bot', first_name: 'Lumen VPN' };
const STARS = 250;
const PERIOD = 2_592_000;
const HOUR = 3600;
const DAY_MS = 24 * 3600 * 1000;
const GRACE_MS = 3 * DAY_MS;

/**
 * A monthly recurring plan sold in the bot is a Telegram Stars subscription: Telegram charges it every 30 days, each
 * charge a payment of its own that extends the same account, and auto-renew is turned off and on from the dashboard.
 */
describe.each(TEST_DATABASES)('Telegram Stars subscriptions (%s)', (kind) => {
  const { f, telegram, say, tap, deliver, pointWebhookAtApp } = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  const db = () => f.env.database.db;
  let monthlyPlanId: string;
  let nextPerson = 9400;
  let nextUpdate = 700_000;

  beforeAll(async () => {
    const saved = await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN });
    expect(saved.statusCode, saved.body).toBe(200);
    await pointWebhookAtApp();
    const plan = await f.call(f.admin, 'POST', '/api/admin/plans', {
      name: 'Stars Monthly',
      days: 30,
      dataLimitBytes: 20 * GB,
      price: 499,
      starsPrice: STARS,
      billing: 'recurring',
    });
    expect(plan.statusCode, plan.body).toBe(201);
    monthlyPlanId = plan.json().id;
  });

  const unixNow = () => Math.floor(f.t.clock.now().getTime() / 1000);
  /** The app's clock moved to `unix` (the fake's payments are dated by it). */
  const moveTo = (unix: number) => f.t.clock.advance(unix - f.t.clock.now().getTime() / 1000);
  /** Signed in again now: the clock moves by weeks here, past the sessions' lifetime. */
  const freshSession = async (user: DesktopSession) => signInDesktop(f.t, f.env.smtp, await emailOf(f, user));
  const admin = () => signInDesktop(f.t, f.env.smtp, 'admin@example.com');
  const reconcile = async () => {
    await schedulePeriodicJob(createJobsRepo(db()), RECONCILE_SUBSCRIPTIONS, f.t.clock.now());
    await f.runJobs();
  };
  const sentTo = (person: Person) => telegram().sent.filter((sent) => sent.chatId === person.id);
  const subscriptionRow = (id: string) => db()('subscriptions').where({ id }).first();
  const transactionsOf = (subscriptionId: string) => db()('transactions').where({ subscription_id: subscriptionId }).orderBy('created_at', 'asc');

  async function linkedCustomer(): Promise<{ customer: DesktopSession; person: Person }> {
    const customer = await f.newUser();
    const person = { id: (nextPerson += 1), first_name: 'Ann' };
    const url = (await f.call(customer, 'POST', '/api/me/telegram-link')).json().url as string;
    const replies = await say(person, `/start ${new URL(url).searchParams.get('start')}`);
    expect(replies[0]!.text).toContain('linked to your');
    return { customer, person };
  }

  /** The ⭐ of the monthly plan pressed and its invoice paid, as Telegram carries it out: the subscription it started. */
  async function subscribe(person: Person) {
    const replies = await tap(person, `stars:plan:${monthlyPlanId}`);
    const pay = buttons(replies[0]!).find((button) => button.url?.startsWith('https://t.me/$'));
    expect(pay, replies[0]?.text).toBeDefined();
    const invoice = telegram().invoices.find((made) => made.link === pay!.url)!;
    const paid = await telegram().payInvoice(TOKEN, { userId: person.id, link: pay!.url!, date: unixNow() });
    expect(paid).toMatchObject({ approved: true });
    const transaction = await db()('transactions').where({ id: invoice.payload }).first();
    return {
      reply: replies[0]!,
      button: pay!,
      invoice,
      paid,
      chargeId: paid.chargeId!,
      transactionId: invoice.payload,
      subscriptionId: transaction.subscription_id as string,
      until: telegram().starSubscription(TOKEN, paid.chargeId!)!.until,
    };
  }

  async function accountOf(customer: DesktopSession) {
    const accounts = (await f.call(await freshSession(customer), 'GET', '/api/accounts')).json() as Array<{ id: string; expireDate: string; status: string }>;
    expect(accounts).toHaveLength(1);
    return accounts[0]!;
  }

  it('sells a monthly recurring plan as a Stars subscription: the first payment delivers once and links the subscription to the account', async () => {
    const { customer, person } = await linkedCustomer();
    const s = await subscribe(person);
    expect(s.reply.text).toContain('⭐250 a month, renewed automatically every 30 days');
    expect(s.button.text).toBe('Subscribe: ⭐250 a month');
    expect(s.invoice).toMatchObject({ method: 'createInvoiceLink', currency: 'XTR', prices: [{ amount: STARS }], subscriptionPeriod: PERIOD });
    expect(sentTo(person).at(-1)?.text).toContain('Thank you! ⭐250 received');

    expect(await db()('transactions').where({ id: s.transactionId }).first()).toMatchObject({
      status: 'succeeded',
      amount: STARS,
      currency: 'xtr',
      provider_payment_id: s.chargeId,
      provider_invoice_id: s.chargeId,
    });
    const row = await subscriptionRow(s.subscriptionId);
    expect(row).toMatchObject({ billing: 'recurring', status: 'active', provider_subscription_id: `${person.id}:${s.chargeId}`, user_id: customer.userId });
    expect(toDate(row.current_period_end).getTime()).toBe(s.until * 1000);
    expect(s.until - (s.paid.successfulPaymentUpdate!.message as { date: number }).date).toBe(PERIOD);

    await f.runJobs();
    const account = await accountOf(customer);
    expect(account).toMatchObject({ status: 'active', id: row.vpn_account_id });
    expect(new Date(account.expireDate).getTime()).toBe(s.until * 1000);
    // It renews: the panel keeps the renewal grace period, and the dashboard lists it as renewing on the period's end.
    expect(panelExpiryOf(f, account.id)).toBe(s.until * 1000 + GRACE_MS);
    const listed = (await f.call(await freshSession(customer), 'GET', '/api/subscriptions')).json() as Array<{ id: string; renewsAt: string | null }>;
    expect(listed.find((entry) => entry.id === s.subscriptionId)?.renewsAt).toBe(new Date(s.until * 1000).toISOString());

    // The same update again: nothing more is delivered, nothing refunded, nothing stopped.
    expect((await deliver(s.paid.successfulPaymentUpdate!)).status).toBe(200);
    await f.runJobs();
    expect(await f.count('paid_periods', { subscription_id: s.subscriptionId })).toBe(1);
    expect(await f.count('vpn_accounts', { user_id: customer.userId })).toBe(1);
    expect(telegram().refunds).toEqual([]);
    expect(telegram().callsTo('editUserStarSubscription', TOKEN)).toEqual([]);
  });

  it('applies a renewal charge once, however often its update comes: the same account, 30 days more', async () => {
    const { customer, person } = await linkedCustomer();
    const s = await subscribe(person);
    await f.runJobs();
    const before = await accountOf(customer);
    // Two days before: no "your card will be charged" reminder (Telegram charges the Stars; there is no card).
    moveTo(s.until - 2 * 24 * HOUR);
    await f.runJobs();
    const email = await emailOf(f, customer);
    expect(f.env.smtp.messages.filter((mail) => mail.to.includes(email) && /renews on/.test(mail.subject))).toEqual([]);

    moveTo(s.until);
    const renewal = await telegram().renewStarSubscription(TOKEN, s.chargeId);
    expect(renewal).toMatchObject({ renewed: true, until: s.until + PERIOD });
    expect(sentTo(person).at(-1)?.text).toContain('your VPN is renewed for another 30 days');
    const repliesBefore = sentTo(person).length;
    // Telegram sends it again: the same update, and another update carrying the same payment.
    expect((await deliver(renewal.successfulPaymentUpdate!)).status).toBe(200);
    const again = { ...(renewal.successfulPaymentUpdate as { message: Record<string, unknown> }), update_id: (nextUpdate += 1) };
    expect((await deliver(again)).status).toBe(200);
    await f.runJobs();
    // Nothing more is said of it but its one receipt (billing notices reach Telegram as well as e-mail).
    const told = sentTo(person).slice(repliesBefore);
    expect(told.map((sent) => sent.text?.split('\n')[0])).toEqual(['Lumen VPN: receipt for your payment']);
    expect(told[0]!.text).toContain('⭐250');

    const transactions = await transactionsOf(s.subscriptionId);
    expect(transactions.map((row) => [row.status, row.provider_invoice_id, Number(row.amount), row.currency])).toEqual([
      ['succeeded', s.chargeId, STARS, 'xtr'],
      ['succeeded', renewal.chargeId, STARS, 'xtr'],
    ]);
    expect(await f.count('paid_periods', { subscription_id: s.subscriptionId })).toBe(2);
    const after = await accountOf(customer);
    expect(after.id).toBe(before.id);
    expect(new Date(after.expireDate).getTime() - new Date(before.expireDate).getTime()).toBe(30 * DAY_MS);
    expect(toDate((await subscriptionRow(s.subscriptionId)).current_period_end).getTime()).toBe(renewal.until * 1000);
    expect(await f.count('vpn_accounts', { user_id: customer.userId })).toBe(1);
  });

  it('finds a renewal whose update never came in the bot’s Star transactions, at the reconcile', async () => {
    const { customer, person } = await linkedCustomer();
    const s = await subscribe(person);
    await f.runJobs();
    const before = await accountOf(customer);

    moveTo(s.until);
    const renewal = await telegram().renewStarSubscription(TOKEN, s.chargeId, { deliver: false });
    expect(renewal.successfulPaymentUpdate).toBeNull();
    await f.runJobs();
    expect(await f.count('transactions', { subscription_id: s.subscriptionId })).toBe(1);

    // The reconcile reads it two hours after the period's end, and applies the renewal once.
    moveTo(s.until + 2 * HOUR);
    await reconcile();
    moveTo(s.until + 4 * HOUR);
    await reconcile();
    expect((await transactionsOf(s.subscriptionId)).map((row) => [row.status, row.provider_invoice_id])).toEqual([
      ['succeeded', s.chargeId],
      ['succeeded', renewal.chargeId],
    ]);
    const after = await accountOf(customer);
    expect(new Date(after.expireDate).getTime() - new Date(before.expireDate).getTime()).toBe(30 * DAY_MS);
    expect((await subscriptionRow(s.subscriptionId)).status).toBe('active');
    // Its update arriving late after all changes nothing, and says nothing.
    const replies = sentTo(person).length;
    const late = {
      update_id: (nextUpdate += 1),
      message: {
        message_id: nextUpdate,
        date: s.until,
        chat: { id: person.id, type: 'private', first_name: 'Ann' },
        from: { id: person.id, is_bot: false, first_name: 'Ann' },
        successful_payment: {
          currency: 'XTR',
          total_amount: STARS,
          invoice_payload: s.transactionId,
          telegram_payment_charge_id: renewal.chargeId,
          provider_payment_charge_id: `${person.id}_2`,
          is_recurring: true,
          subscription_expiration_date: renewal.until,
        },
      },
    };
    expect((await deliver(late)).status).toBe(200);
    await f.runJobs();
    expect(await f.count('paid_periods', { subscription_id: s.subscriptionId })).toBe(2);
    expect(sentTo(person)).toHaveLength(replies);
    expect(telegram().refunds.filter((refund) => refund.chargeId === renewal.chargeId)).toEqual([]);
  });

  it('turns auto-renew off and on from the dashboard with editUserStarSubscription; someone else’s is 404 and not signed in 401', async () => {
    const { customer, person } = await linkedCustomer();
    const s = await subscribe(person);
    await f.runJobs();
    const edits = () =>
      telegram()
        .callsTo('editUserStarSubscription', TOKEN)
        .filter((call) => call.params.user_id === person.id);

    const stranger = await f.newUser();
    const theirs = await f.call(stranger, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe('not_found');
    expect((await f.call(null, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`)).statusCode).toBe(401);
    expect(edits()).toEqual([]);
    expect(Boolean((await subscriptionRow(s.subscriptionId)).cancel_at_period_end)).toBe(false);

    const canceled = await f.call(customer, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toMatchObject({ cancelAtPeriodEnd: true, renewsAt: null });
    expect(edits().map((call) => call.params)).toEqual([{ user_id: person.id, telegram_payment_charge_id: s.chargeId, is_canceled: true }]);
    expect(telegram().starSubscription(TOKEN, s.chargeId)).toMatchObject({ canceledByBot: true });
    // Off, the panel no longer carries the renewal grace.
    await f.runJobs();
    expect(panelExpiryOf(f, (await accountOf(customer)).id)).toBe(s.until * 1000);

    const resumed = await f.call(customer, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ cancelAtPeriodEnd: false, renewsAt: new Date(s.until * 1000).toISOString() });
    expect(edits().map((call) => call.params.is_canceled)).toEqual([true, false]);
    expect(telegram().starSubscription(TOKEN, s.chargeId)).toMatchObject({ canceledByBot: false });

    // A reconcile in between (Telegram cannot say whether auto-renew is on) leaves it as the customer set it.
    await f.call(customer, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`);
    await reconcile();
    expect(Boolean((await subscriptionRow(s.subscriptionId)).cancel_at_period_end)).toBe(true);
  });

  it('is not renewed once turned off: the period ends with no charge, the subscription ends, and the account is not extended', async () => {
    const { customer, person } = await linkedCustomer();
    const s = await subscribe(person);
    await f.runJobs();
    expect((await f.call(customer, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`)).statusCode).toBe(200);
    await f.runJobs();

    moveTo(s.until);
    expect(await telegram().renewStarSubscription(TOKEN, s.chargeId)).toMatchObject({ renewed: false, chargeId: null });
    moveTo(s.until + 7 * HOUR);
    await reconcile();
    const row = await subscriptionRow(s.subscriptionId);
    expect(row.status).toBe('canceled');
    expect(await f.count('transactions', { subscription_id: s.subscriptionId })).toBe(1);
    const account = await accountOf(customer);
    expect(new Date(account.expireDate).getTime()).toBe(s.until * 1000);
    expect(panelExpiryOf(f, account.id)).toBe(s.until * 1000);
  });

  it('ends a subscription whose renewal never comes (turned off in Telegram, or too few Stars), as a provider’s ended subscription', async () => {
    const { customer, person } = await linkedCustomer();
    const s = await subscribe(person);
    await f.runJobs();
    // Nothing is charged at the period's end (the fake models no payer's balance: the renewal is simply not made).
    moveTo(s.until + 2 * HOUR);
    await reconcile();
    expect((await subscriptionRow(s.subscriptionId)).status).toBe('active');
    moveTo(s.until + 7 * HOUR);
    await reconcile();
    await f.runJobs();
    expect(await subscriptionRow(s.subscriptionId)).toMatchObject({ status: 'canceled' });
    // The grace period is gone with it: the panel ends at what was paid.
    expect(panelExpiryOf(f, (await accountOf(customer)).id)).toBe(s.until * 1000);
  });

  it('cannot move a subscription’s next charge: the deferral is refused as something Telegram cannot do, and not retried', async () => {
    const { person } = await linkedCustomer();
    const s = await subscribe(person);
    await f.runJobs();
    const until = new Date((s.until + 10 * 24 * HOUR) * 1000);
    await createJobsRepo(db()).enqueue(
      {
        type: DEFER_RENEWAL,
        payload: { subscriptionId: s.subscriptionId, until: until.toISOString() },
        dedupeKey: `test-defer-${s.subscriptionId}`,
        maxAttempts: 200,
      },
      f.t.clock.now(),
    );
    await f.runJobs();
    expect(
      await db()('jobs')
        .where({ dedupe_key: `test-defer-${s.subscriptionId}` })
        .first(),
    ).toMatchObject({ status: 'done' });
    expect(toDate((await subscriptionRow(s.subscriptionId)).current_period_end).getTime()).toBe(s.until * 1000);
    expect(
      telegram()
        .callsTo('editUserStarSubscription', TOKEN)
        .filter((call) => call.params.user_id === person.id),
    ).toEqual([]);
  });

  it('refunds a renewal with refundStarPayment from the admin’s Payments; the subscription ends and Telegram stops renewing it', async () => {
    const { customer, person } = await linkedCustomer();
    const s = await subscribe(person);
    await f.runJobs();
    moveTo(s.until);
    const renewal = await telegram().renewStarSubscription(TOKEN, s.chargeId);
    await f.runJobs();
    const renewalTransaction = (await transactionsOf(s.subscriptionId)).find((row) => row.provider_invoice_id === renewal.chargeId)!;

    const refunded = await f.call(await admin(), 'POST', `/api/admin/transactions/${renewalTransaction.id}/refund`, {});
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ status: 'refunded', amountRefunded: STARS, method: 'stars', currency: 'xtr' });
    expect(telegram().refunds.filter((refund) => refund.chargeId === renewal.chargeId)).toEqual([
      expect.objectContaining({ userId: person.id, amount: STARS }),
    ]);
    expect(telegram().refunds.filter((refund) => refund.chargeId === s.chargeId)).toEqual([]);
    await f.runJobs();
    expect((await subscriptionRow(s.subscriptionId)).status).toBe('canceled');
    expect(telegram().starSubscription(TOKEN, s.chargeId)).toMatchObject({ canceledByBot: true });
    // The renewal's 30 days come off the account; the first period stays.
    expect(new Date((await accountOf(customer)).expireDate).getTime()).toBe(s.until * 1000);
  });

  it('sends back the Stars of a renewal of a subscription that has ended here, and stops it renewing', async () => {
    const { person } = await linkedCustomer();
    const s = await subscribe(person);
    await f.runJobs();
    // Ended here (the admin ended it now) while Telegram still charges it (turned back on in Telegram, say).
    const ended = await f.call(await admin(), 'POST', `/api/admin/subscriptions/${s.subscriptionId}/cancel`, { when: 'now' });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(telegram().starSubscription(TOKEN, s.chargeId)).toMatchObject({ canceledByBot: true });
    await fetch(`${telegram().url}/bot${TOKEN}/editUserStarSubscription`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: person.id, telegram_payment_charge_id: s.chargeId, is_canceled: false }),
    });
    moveTo(s.until);
    const renewal = await telegram().renewStarSubscription(TOKEN, s.chargeId);
    expect(telegram().refunds).toContainEqual(expect.objectContaining({ chargeId: renewal.chargeId, amount: STARS }));
    expect(telegram().starSubscription(TOKEN, s.chargeId)).toMatchObject({ canceledByBot: true });
    expect(await f.count('transactions', { subscription_id: s.subscriptionId })).toBe(1);
  });

  it('keeps one-off plans one-off in Stars, and the site still never takes Stars', async () => {
    const { person } = await linkedCustomer();
    const oneOff = await f.call(await admin(), 'POST', '/api/admin/plans', {
      name: 'Stars Once',
      days: 30,
      dataLimitBytes: 20 * GB,
      price: 499,
      starsPrice: 100,
    });
    expect(oneOff.statusCode, oneOff.body).toBe(201);
    const replies = await tap(person, `stars:plan:${oneOff.json().id}`);
    const pay = buttons(replies[0]!).find((button) => button.url?.startsWith('https://t.me/$'))!;
    expect(pay.text).toBe('Pay ⭐100');
    expect(telegram().invoices.find((made) => made.link === pay.url)).toMatchObject({ subscriptionPeriod: null });

    const web = await f.call(await f.newUser(), 'POST', '/api/checkout', { planId: monthlyPlanId, method: 'stars' });
    expect(web.statusCode).toBe(400);
    expect(web.json().code).toBe('validation_failed');
    expect((await f.call(null, 'GET', '/api/config')).json().paymentMethods).not.toContain('stars');
  });

  // PostgreSQL only (skipped on SQLite): they must really run at once, and SQLite's single writer runs them one after the other.
  it.runIf(kind === 'postgres')('applies a renewal once when its update, a copy of it and the reconcile come at the same moment', async () => {
    const { customer, person } = await linkedCustomer();
    const s = await subscribe(person);
    await f.runJobs();
    const before = await accountOf(customer);
    moveTo(s.until);
    const renewal = await telegram().renewStarSubscription(TOKEN, s.chargeId, { deliver: false });
    moveTo(s.until + 2 * HOUR);
    const update = {
      message: {
        message_id: (nextUpdate += 1),
        date: renewal.until - PERIOD,
        chat: { id: person.id, type: 'private', first_name: 'Ann' },
        from: { id: person.id, is_bot: false, first_name: 'Ann' },
        successful_payment: {
          currency: 'XTR',
          total_amount: STARS,
          invoice_payload: s.transactionId,
          telegram_payment_charge_id: renewal.chargeId,
          provider_payment_charge_id: `${person.id}_2`,
          is_recurring: true,
          subscription_expiration_date: renewal.until,
        },
      },
    };
    await schedulePeriodicJob(createJobsRepo(db()), RECONCILE_SUBSCRIPTIONS, f.t.clock.now());
    await Promise.all([deliver({ ...update, update_id: (nextUpdate += 1) }), deliver({ ...update, update_id: (nextUpdate += 1) }), f.runJobs()]);
    await f.runJobs();
    expect((await transactionsOf(s.subscriptionId)).filter((row) => row.provider_invoice_id === renewal.chargeId)).toHaveLength(1);
    expect(await f.count('paid_periods', { subscription_id: s.subscriptionId })).toBe(2);
    const after = await accountOf(customer);
    expect(new Date(after.expireDate).getTime() - new Date(before.expireDate).getTime()).toBe(30 * DAY_MS);
  });
});
