import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { STRIPE_KEYS, useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import type { DesktopSession } from '../../../../test/test-app.js';
import { toDate, toDateOrNull } from '../../../db/values.js';

const DAY_MS = 24 * 3600 * 1000;
const GRACE_MS = 3 * DAY_MS;
/** The panel keeps whole seconds. */
const toSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

interface LedgerRow {
  transactionId: string;
  billing: string;
  startsAt: number;
  endsAt: number;
  voided: string | null;
}

/** The account's rows in the paid-period ledger, oldest first. */
async function ledgerOf(f: BillingFixture, accountId: string): Promise<LedgerRow[]> {
  const rows: Array<Record<string, unknown>> = await f.env.database
    .db('paid_periods as p')
    .join('subscriptions as s', 's.id', 'p.subscription_id')
    .where('p.vpn_account_id', accountId)
    .select('p.*', 's.billing')
    .orderBy('p.starts_at', 'asc');
  return rows.map((row) => ({
    transactionId: row.transaction_id as string,
    billing: row.billing as string,
    startsAt: toDate(row.starts_at).getTime(),
    endsAt: toDate(row.ends_at).getTime(),
    voided: toDateOrNull(row.voided_at) ? (row.void_reason as string) : null,
  }));
}

function panelExpiry(f: BillingFixture, accountId: string): number {
  const user = [...f.panel.users.values()].map(asMarzneshinUser).find((u) => u.note === accountId);
  if (!user) throw new Error(`no panel user for ${accountId}`);
  return new Date(`${user.expire_date}Z`).getTime();
}

const transactionOf = (f: BillingFixture, sessionId: string) => f.stripe.getSession(sessionId)!.metadata!.transaction_id!;

async function payOneOff(f: BillingFixture, user: DesktopSession, body: { planId: string } | { accountId: string }) {
  const { sessionId } = await f.checkout(user, body);
  await f.stripe.pay(sessionId);
  await f.runJobs();
  return { sessionId, transactionId: transactionOf(f, sessionId), paymentRef: f.stripe.getSession(sessionId)!.payment_intent as string };
}

async function subscribe(f: BillingFixture) {
  const user = await f.newUser();
  const { sessionId, subscriptionId } = await f.checkout(user, { planId: f.recurringPlanId });
  await f.stripe.pay(sessionId);
  await f.runJobs();
  const session = f.stripe.getSession(sessionId)!;
  const stripeSubscription = session.subscription as string;
  const clock = f.stripe.getCustomer(session.customer as string)!.test_clock as string;
  return { user, subscriptionId, accountId: session.metadata!.vpn_account_id!, stripeSubscription, clock };
}

const stripePeriod = (f: BillingFixture, stripeSubscription: string) => {
  const item = f.stripe.getSubscription(stripeSubscription)!.items.data[0]!;
  return { start: item.current_period_start * 1000, end: item.current_period_end * 1000 };
};

describe.each(TEST_DATABASES)('the paid-period ledger (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it('one-off payments: a purchase and two renewals are three chained periods; a full refund of the middle one voids it and moves the last back', async () => {
    const user = await f.newUser();
    const bought = await payOneOff(f, user, { planId: f.paidPlanId });
    const accountId = f.stripe.getSession(bought.sessionId)!.metadata!.vpn_account_id!;
    const second = await payOneOff(f, user, { accountId });
    const third = await payOneOff(f, user, { accountId });
    const ledger = await ledgerOf(f, accountId);
    expect(ledger.map((p) => [p.transactionId, p.billing, p.voided])).toEqual([
      [bought.transactionId, 'one_off', null],
      [second.transactionId, 'one_off', null],
      [third.transactionId, 'one_off', null],
    ]);
    expect(ledger[1]!.startsAt).toBe(ledger[0]!.endsAt);
    expect(ledger[2]!.startsAt).toBe(ledger[1]!.endsAt);
    for (const period of ledger) expect(period.endsAt - period.startsAt).toBe(30 * DAY_MS);
    expect(panelExpiry(f, accountId)).toBe(toSecond(ledger[2]!.endsAt));

    await f.stripe.refund(second.paymentRef);
    await f.runJobs();
    const after = await ledgerOf(f, accountId);
    expect(after.find((p) => p.transactionId === second.transactionId)).toMatchObject({
      voided: 'refunded',
      startsAt: ledger[1]!.startsAt,
      endsAt: ledger[1]!.endsAt,
    });
    // The account loses exactly the refunded period: the one chained after it now starts where it started.
    expect(after.find((p) => p.transactionId === third.transactionId)).toMatchObject({
      voided: null,
      startsAt: ledger[1]!.startsAt,
      endsAt: ledger[1]!.endsAt,
    });
    expect(panelExpiry(f, accountId)).toBe(toSecond(ledger[1]!.endsAt));
    // The subscription of the moved period shows where it is now.
    const shown = (await f.call(user, 'GET', '/api/subscriptions')).json() as Array<{ currentPeriodEnd: string; status: string }>;
    expect(
      shown
        .filter((s) => s.status === 'active')
        .map((s) => new Date(s.currentPeriodEnd).getTime())
        .sort(),
    ).toEqual([ledger[0]!.endsAt, ledger[1]!.endsAt]);

    // A renewal paid now starts where what is still paid ends.
    const fourth = await payOneOff(f, user, { accountId });
    expect((await ledgerOf(f, accountId)).find((p) => p.transactionId === fourth.transactionId)).toMatchObject({
      startsAt: ledger[1]!.endsAt,
      endsAt: ledger[2]!.endsAt,
    });
  });

  it('a lost dispute voids the period its payment bought; with nothing left the account is paused', async () => {
    const user = await f.newUser();
    const bought = await payOneOff(f, user, { planId: f.paidPlanId });
    const accountId = f.stripe.getSession(bought.sessionId)!.metadata!.vpn_account_id!;
    const opened = await f.stripe.openDispute(bought.paymentRef);
    await f.stripe.closeDispute(opened.data.object.id, 'lost');
    await f.runJobs();
    expect(await ledgerOf(f, accountId)).toEqual([expect.objectContaining({ transactionId: bought.transactionId, voided: 'dispute_lost' })]);
    const panelUser = [...f.panel.users.values()].map(asMarzneshinUser).find((u) => u.note === accountId)!;
    expect(panelUser.enabled).toBe(false);
  });

  it('recurring invoices: the first and each renewal are the periods Stripe billed; the panel runs to the last one plus grace', async () => {
    const s = await subscribe(f);
    const first = stripePeriod(f, s.stripeSubscription);
    await f.stripe.advanceClock(s.clock, first.end / 1000 + 2 * 3600);
    await f.runJobs();
    const second = stripePeriod(f, s.stripeSubscription);
    const ledger = await ledgerOf(f, s.accountId);
    expect(ledger.map((p) => [p.billing, p.startsAt, p.endsAt, p.voided])).toEqual([
      ['recurring', first.start, first.end, null],
      ['recurring', second.start, second.end, null],
    ]);
    expect(panelExpiry(f, s.accountId)).toBe(second.end + GRACE_MS);

    // A full refund of the first invoice voids it; the renewal chained after it moves back; the subscription ends, without grace.
    const firstTransaction = ledger[0]!.transactionId;
    const paymentRef = (await f.env.database.db('transactions').where({ id: firstTransaction }).first()).provider_payment_id as string;
    await f.stripe.refund(paymentRef);
    await f.runJobs();
    const after = await ledgerOf(f, s.accountId);
    expect(after.map((p) => [p.startsAt, p.endsAt, p.voided])).toEqual([
      [first.start, first.end, 'refunded'],
      [first.start, first.start + (second.end - second.start), null],
    ]);
    expect(panelExpiry(f, s.accountId)).toBe(after[1]!.endsAt);
  });

  it('a one-off renewal bought while auto-renew is off, then Resume: refused; an invoice for those days anyway is held, never applied', async () => {
    const s = await subscribe(f);
    const period = stripePeriod(f, s.stripeSubscription);
    expect((await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/cancel`)).statusCode).toBe(200);
    await f.runJobs();
    // Auto-renew off: the account can be renewed by hand, from the end of the recurring period.
    const renewal = await payOneOff(f, s.user, { accountId: s.accountId });
    const ledger = await ledgerOf(f, s.accountId);
    expect(ledger.map((p) => [p.billing, p.startsAt, p.endsAt])).toEqual([
      ['recurring', period.start, period.end],
      ['one_off', period.end, period.end + 30 * DAY_MS],
    ]);
    expect(panelExpiry(f, s.accountId)).toBe(period.end + 30 * DAY_MS);

    const resume = await f.call(s.user, 'POST', `/api/subscriptions/${s.subscriptionId}/resume`);
    expect(resume.statusCode).toBe(409);
    expect(resume.json()).toEqual({ code: 'paid_ahead', message: BILLING_MESSAGES.paidAheadByOneOff });
    expect(f.stripe.getSubscription(s.stripeSubscription)!.cancel_at_period_end).toBe(true);

    // Turned back on at Stripe (its dashboard), where we cannot refuse it: the next invoice bills days already paid.
    const changed = await fetch(`${f.stripe.url}/v1/subscriptions/${s.stripeSubscription}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${STRIPE_KEYS.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'cancel_at_period_end=false',
    });
    expect(changed.status).toBe(200);
    await f.runJobs();
    await f.stripe.advanceClock(s.clock, period.end / 1000 + 2 * 3600);
    await f.runJobs();
    expect(f.stripe.listInvoices(s.stripeSubscription)).toHaveLength(2);
    const held = await f.env.database.db('transactions').where({ subscription_id: s.subscriptionId }).whereNot({ id: ledger[0]!.transactionId }).first();
    expect(held.status).toBe('needs_review');
    // Nothing more is credited: the account keeps exactly the one-off period it paid for.
    expect(await ledgerOf(f, s.accountId)).toEqual(ledger);
    const listed = (await f.call(f.admin, 'GET', `/api/admin/transactions?status=needs_review`)).json() as Array<{
      id: string;
      refundable: boolean;
      note: string;
    }>;
    expect(listed.find((t) => t.id === held.id)).toMatchObject({ refundable: true, note: expect.stringContaining('already paid') });
    expect(renewal.transactionId).toBe(ledger[1]!.transactionId);
  });
});
