import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../../../shared/constants.js';
import { GB, useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import { mailParts } from '../../../../test/smtp-catcher.js';
import { signInDesktop, type DesktopSession } from '../../../../test/test-app.js';

const DAY = 24 * 3600;
const GRACE_MS = 3 * DAY_MS;

/**
 * Switching an account a Stripe card subscription renews to another plan (issue 55): the subscription moves to the new
 * plan's price at Stripe, which prorates it (to the second, previewed first for the quote), charges the difference to
 * the card at once or, for a downgrade, credits the customer's Stripe balance; the proration invoice, paid, is the
 * change's own movement here (the ledger cut at the change, the account and its panel user on the new plan, its
 * renewals billing it). Refused cleanly otherwise; a webhook twice applies once; two changes at once make one.
 */
describe.each(TEST_DATABASES)('plan changes of card subscriptions (%s)', (kind) => {
  const f: BillingFixture = useBillingFixture(kind);
  const db = () => f.env.database.db;
  let proPlanId = '';
  let litePlanId = '';
  let yearlyPlanId = '';

  beforeAll(async () => {
    const plan = async (body: Record<string, unknown>) => {
      const res = await f.call(f.admin, 'POST', '/api/admin/plans', { locations: 'all', billing: 'recurring', ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    proPlanId = await plan({ name: 'Pro Auto', days: 30, dataLimitBytes: 50 * GB, price: 999, deviceLimit: 5 });
    litePlanId = await plan({ name: 'Lite Auto', days: 30, dataLimitBytes: 5 * GB, price: 199, deviceLimit: 1 });
    yearlyPlanId = await plan({ name: 'Plus Yearly', days: 365, dataLimitBytes: 10 * GB, price: 4999 });
  });

  let n = 0;
  const signIn = (email: string) => signInDesktop(f.t, f.env.smtp, email);
  const panelUserOf = async (accountId: string) => {
    const { username } = await db()('vpn_accounts').where({ id: accountId }).first();
    return asMarzneshinUser(f.panel.users.get(username));
  };
  const accountOf = async (user: DesktopSession, accountId: string) =>
    ((await f.call(user, 'GET', '/api/accounts')).json() as Array<Record<string, unknown>>).find((account) => account.id === accountId)!;
  const quote = (user: DesktopSession | null, accountId: string, planId: string) =>
    f.call(user, 'POST', `/api/accounts/${accountId}/change-plan/quote`, { planId });
  const change = (user: DesktopSession | null, accountId: string, body: Record<string, unknown>) =>
    f.call(user, 'POST', `/api/accounts/${accountId}/change-plan`, body);
  const metadataOf = (row: { metadata: unknown }) => (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) as Record<string, unknown>;

  /**
   * A customer subscribed to `planId` by card, ten days into the period: the Stripe test clock and ours both there (and
   * signed in again). `at`: the instant a change now is prorated for.
   */
  const onDayTen = async (planId = f.recurringPlanId) => {
    const email = `card-changer${(n += 1)}-${kind}@example.com`;
    const buyer = await signIn(email);
    const { sessionId, subscriptionId } = await f.checkout(buyer, { planId });
    await f.stripe.pay(sessionId);
    await f.runJobs();
    const session = f.stripe.getSession(sessionId)!;
    const customer = session.customer as string;
    const stripeSubscription = session.subscription as string;
    const item = f.stripe.getSubscription(stripeSubscription)!.items.data[0]!;
    // Ten days in at Stripe, or where our clock is already (earlier tests moved it on: it never goes back).
    const target = Math.max(item.current_period_start + 10 * DAY, Math.ceil(f.t.clock.now().getTime() / 1000));
    await f.stripe.advanceClock(f.stripe.getCustomer(customer)!.test_clock as string, target);
    f.t.clock.advance(target - f.t.clock.now().getTime() / 1000);
    const user = await signIn(email);
    await f.runJobs();
    return {
      user,
      email,
      customer,
      subscriptionId,
      stripeSubscription,
      accountId: session.metadata!.vpn_account_id!,
      start: item.current_period_start,
      end: item.current_period_end,
      at: () => Math.floor(f.t.clock.now().getTime() / 1000),
    };
  };
  /** Stripe's proration: the unused (or remaining) share of the period at `price`, to the second. */
  const prorated = (price: number, s: { start: number; end: number }, at: number) => Math.round((price * (s.end - at)) / (s.end - s.start));
  const periodsOf = async (accountId: string) =>
    (await db()('paid_periods').where({ vpn_account_id: accountId }).whereNull('voided_at').orderBy('starts_at')).map((row) => ({
      start: new Date(row.starts_at).getTime() / 1000,
      end: new Date(row.ends_at).getTime() / 1000,
      transactionId: row.transaction_id as string,
      cutBy: (row.cut_by_transaction_id as string | null) ?? null,
    }));

  it('an upgrade mid-period: Stripe’s proration quoted and charged once, the same panel user on the new plan, renewals at the new price', async () => {
    const s = await onDayTen();
    const before = await panelUserOf(s.accountId);
    const link = (await accountOf(s.user, s.accountId)).subscriptionUrl;
    const at = s.at();
    const credit = prorated(499, s, at);
    const debit = prorated(999, s, at);
    const quoted = await quote(s.user, s.accountId, proPlanId);
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(quoted.json()).toEqual({
      accountId: s.accountId,
      fromPlanId: f.recurringPlanId,
      planId: proPlanId,
      currency: 'usd',
      price: 999,
      credit,
      creditDays: Math.round((s.end - at) / DAY),
      charge: debit - credit,
      walletCredit: 0,
      takesEffect: 'now',
      effectiveAt: new Date(at * 1000).toISOString(),
      expiresAt: new Date(s.end * 1000).toISOString(),
      balanceCredit: 0,
    });
    // A quote changes nothing at Stripe.
    expect(f.stripe.listInvoices(s.stripeSubscription)).toHaveLength(1);

    const started = await change(s.user, s.accountId, { planId: proPlanId });
    expect(started.statusCode, started.body).toBe(200);
    const { sessionId, takesEffect, subscriptionId } = started.json();
    expect({ takesEffect, subscriptionId }).toEqual({ takesEffect: 'now', subscriptionId: s.subscriptionId });
    await f.stripe.waitForDeliveries();
    await f.runJobs();

    // At Stripe: the same subscription on the new price, one proration invoice paid by one card payment.
    const stripeSub = f.stripe.getSubscription(s.stripeSubscription)!;
    expect(stripeSub.items.data[0]!.price.unit_amount).toBe(999);
    expect(stripeSub.metadata).toMatchObject({ subscription_id: s.subscriptionId, plan_id: proPlanId, plan_change_id: sessionId });
    const invoices = f.stripe.listInvoices(s.stripeSubscription);
    expect(invoices).toHaveLength(2);
    expect(invoices[1]).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_paid: debit - credit });
    expect(f.stripe.invoicePaymentIntents(invoices[1]!.id)).toHaveLength(1);
    const status = (await f.call(s.user, 'GET', `/api/checkout/${sessionId}`)).json();
    expect(status).toMatchObject({ status: 'succeeded', subscriptionId: s.subscriptionId });

    // Here: the account and its panel user on the new plan (name, link and expiry as they were).
    const after = await panelUserOf(s.accountId);
    expect(after.username).toBe(before.username);
    expect(after.data_limit).toBe(50 * GB);
    expect(new Date(`${after.expire_date}Z`).getTime()).toBe(s.end * 1000 + GRACE_MS);
    expect(await accountOf(s.user, s.accountId)).toMatchObject({
      planId: proPlanId,
      planName: 'Pro Auto',
      subscriptionUrl: link,
      deviceLimit: 5,
      dataLimitBytes: 50 * GB,
    });
    const ours = await db()('subscriptions').where({ id: s.subscriptionId }).first();
    expect(metadataOf(ours)).toMatchObject({ plan_id: proPlanId, plan_name: 'Pro Auto', price: 999, data_limit: 50 * GB, device_limit: 5, kind: 'purchase' });
    // The ledger: the first period cut at the change, the change's own from there to the period end.
    const changeTx = await db()('transactions').where({ id: sessionId }).first();
    expect(changeTx).toMatchObject({ status: 'succeeded', amount: debit - credit, provider_invoice_id: invoices[1]!.id });
    expect(await periodsOf(s.accountId)).toEqual([
      { start: s.start, end: at, transactionId: expect.any(String), cutBy: sessionId },
      { start: at, end: s.end, transactionId: sessionId, cutBy: null },
    ]);
    const receipt = f.env.smtp.messages.filter((m) => m.to.includes(s.email) && /receipt/i.test(m.subject)).at(-1)!;
    expect(mailParts(receipt).text).toContain('Your VPN account is on Pro Auto now');

    // The next renewal bills the new price and delivers the new plan, chained after the change.
    await f.stripe.advanceClock(f.stripe.getCustomer(s.customer)!.test_clock as string, s.end + 2 * 3600);
    await f.runJobs();
    const renewal = f.stripe.listInvoices(s.stripeSubscription)[2]!;
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 999 });
    expect(await db()('transactions').where({ provider_invoice_id: renewal.id }).first()).toMatchObject({ status: 'succeeded', amount: 999 });
    const periods = await periodsOf(s.accountId);
    expect(periods).toHaveLength(3);
    expect(periods[2]).toMatchObject({ start: s.end });
    for (let i = 1; i < periods.length; i += 1) expect(periods[i]!.start).toBeGreaterThanOrEqual(periods[i - 1]!.end);
    expect((await panelUserOf(s.accountId)).data_limit).toBe(50 * GB);
    expect(await accountOf(s.user, s.accountId)).toMatchObject({ planId: proPlanId, deviceLimit: 5 });
  });

  it('a refund of the change puts the account back on its plan before, with the days it had; the subscription ends, never charging the new price', async () => {
    const s = await onDayTen();
    const [first] = await periodsOf(s.accountId);
    const started = await change(s.user, s.accountId, { planId: proPlanId });
    expect(started.statusCode, started.body).toBe(200);
    await f.stripe.waitForDeliveries();
    await f.runJobs();
    const { sessionId } = started.json();
    expect((await accountOf(s.user, s.accountId)).planId).toBe(proPlanId);
    const refunded = await f.call(await signIn('admin@example.com'), 'POST', `/api/admin/transactions/${sessionId}/refund`, {});
    expect(refunded.statusCode, refunded.body).toBe(200);
    await f.stripe.waitForDeliveries();
    await f.runJobs();
    expect(await accountOf(s.user, s.accountId)).toMatchObject({ planId: f.recurringPlanId, deviceLimit: null, dataLimitBytes: 10 * GB });
    // The period the change had cut runs to its end again; the change's own is gone.
    expect(await periodsOf(s.accountId)).toEqual([{ start: s.start, end: s.end, transactionId: first!.transactionId, cutBy: null }]);
    const panel = await panelUserOf(s.accountId);
    expect(panel.data_limit).toBe(10 * GB);
    expect(new Date(`${panel.expire_date}Z`).getTime()).toBe(s.end * 1000);
    expect(f.stripe.getSubscription(s.stripeSubscription)!.status).toBe('canceled');
  });

  it('a downgrade charges nothing: Stripe credits the customer’s balance there (not the wallet), and the account is on the cheaper plan', async () => {
    const s = await onDayTen(proPlanId);
    const at = s.at();
    const credit = prorated(999, s, at);
    const debit = prorated(199, s, at);
    const quoted = (await quote(s.user, s.accountId, litePlanId)).json();
    expect(quoted).toMatchObject({ price: 199, credit, charge: 0, walletCredit: 0, balanceCredit: credit - debit, takesEffect: 'now' });
    const started = await change(s.user, s.accountId, { planId: litePlanId, method: 'card' });
    expect(started.statusCode, started.body).toBe(200);
    await f.stripe.waitForDeliveries();
    await f.runJobs();
    expect(f.stripe.getCustomer(s.customer)!.balance).toBe(-(credit - debit));
    const invoice = f.stripe.listInvoices(s.stripeSubscription)[1]!;
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 0, total: debit - credit });
    expect(f.stripe.invoicePaymentIntents(invoice.id)).toEqual([]);
    expect((await f.call(s.user, 'GET', '/api/wallet')).json().balance).toBe(0);
    expect(await db()('transactions').where({ id: started.json().sessionId }).first()).toMatchObject({ status: 'succeeded', amount: 0 });
    expect(await accountOf(s.user, s.accountId)).toMatchObject({ planId: litePlanId, deviceLimit: 1, dataLimitBytes: 5 * GB });
    expect((await panelUserOf(s.accountId)).data_limit).toBe(5 * GB);
    expect(metadataOf(await db()('subscriptions').where({ id: s.subscriptionId }).first())).toMatchObject({ plan_id: litePlanId, price: 199 });
  });

  it('is refused cleanly: signed out, someone else’s, bad input, a one-off or yearly plan, another method; a declined card changes nothing', async () => {
    const s = await onDayTen();
    const other = await f.newUser();
    expect((await quote(null, s.accountId, proPlanId)).statusCode).toBe(401);
    expect((await change(null, s.accountId, { planId: proPlanId })).statusCode).toBe(401);
    expect((await quote(other, s.accountId, proPlanId)).statusCode).toBe(404);
    expect((await change(other, s.accountId, { planId: proPlanId })).statusCode).toBe(404);
    for (const body of [{}, { planId: '' }, { planId: proPlanId, method: 'stars' }, { planId: proPlanId, extra: 1 }]) {
      const res = await change(s.user, s.accountId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    for (const planId of [f.paidPlanId, yearlyPlanId]) {
      const res = await quote(s.user, s.accountId, planId);
      expect(res.statusCode, planId).toBe(409);
      expect(res.json().code).toBe('renewal_mismatch');
      expect((await change(s.user, s.accountId, { planId })).json().code).toBe('renewal_mismatch');
    }
    expect((await change(s.user, s.accountId, { planId: proPlanId, method: 'wallet' })).json().code).toBe('renewal_mismatch');
    expect((await quote(s.user, s.accountId, f.recurringPlanId)).json().code).toBe('same_plan');

    f.stripe.setCardDeclines(s.customer, true);
    const declined = await change(s.user, s.accountId, { planId: proPlanId });
    expect(declined.statusCode, declined.body).toBe(402);
    expect(declined.json().code).toBe('card_declined');
    expect(f.stripe.getSubscription(s.stripeSubscription)!.items.data[0]!.price.unit_amount).toBe(499);
    expect(f.stripe.listInvoices(s.stripeSubscription)).toHaveLength(1);
    expect(await accountOf(s.user, s.accountId)).toMatchObject({ planId: f.recurringPlanId });
    expect(await periodsOf(s.accountId)).toHaveLength(1);
    // Nothing is left open: with a card that pays, the change is made.
    f.stripe.setCardDeclines(s.customer, false);
    expect((await change(s.user, s.accountId, { planId: proPlanId })).statusCode).toBe(200);
    await f.stripe.waitForDeliveries();
    expect(await accountOf(s.user, s.accountId)).toMatchObject({ planId: proPlanId });
  });

  it('its webhooks delivered twice (and again after it was made) apply it once', async () => {
    const s = await onDayTen();
    const from = f.stripe.events.length;
    const started = await f.payQuietly(() => change(s.user, s.accountId, { planId: proPlanId }));
    expect(started.statusCode, started.body).toBe(200);
    const events = f.stripe.events.slice(from);
    expect(events.map((event) => event.type)).toContain('invoice.paid');
    for (const event of events) for (let i = 0; i < 2; i += 1) expect(await f.stripe.deliver(event)).toBe(200);
    await f.runJobs();
    const transactionId = started.json().sessionId as string;
    expect(await f.count('paid_periods', { transaction_id: transactionId })).toBe(1);
    expect(await f.count('paid_periods', { vpn_account_id: s.accountId })).toBe(2);
    expect(await f.count('transactions', { subscription_id: s.subscriptionId })).toBe(2);
    expect(await f.count('jobs', { dedupe_key: `provision_paid_account:${transactionId}` })).toBe(1);
    const logs = await db()('vpn_account_logs').where({ vpn_account_id: s.accountId, step: 'plan_changed' });
    expect(logs).toHaveLength(1);
    expect(f.env.smtp.messages.filter((m) => m.to.includes(s.email) && /receipt/i.test(m.subject))).toHaveLength(2);
  });

  // PostgreSQL only (skipped on SQLite): both changes must really hold the account at once, and SQLite's single writer runs them one after the other.
  it.runIf(kind === 'postgres')('two changes at once make one', async () => {
    const s = await onDayTen();
    const answers = await Promise.all([change(s.user, s.accountId, { planId: proPlanId }), change(s.user, s.accountId, { planId: proPlanId })]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    await f.stripe.waitForDeliveries();
    await f.runJobs();
    expect(f.stripe.listInvoices(s.stripeSubscription)).toHaveLength(2);
    const changes = (await db()('transactions').where({ subscription_id: s.subscriptionId })).filter((row) => metadataOf(row).kind === 'change');
    expect(changes).toHaveLength(1);
    expect(await f.count('paid_periods', { vpn_account_id: s.accountId, cut_at: null })).toBe(1);
    expect(await accountOf(s.user, s.accountId)).toMatchObject({ planId: proPlanId });
  });
});
