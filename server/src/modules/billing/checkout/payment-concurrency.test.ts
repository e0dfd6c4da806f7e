import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../../../../shared/accounts.js';
import { useBillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import type { StripeEventObject } from '../../../../test/fake-stripe/index.js';

const DAY_MS = 24 * 3600 * 1000;
const ROUNDS = 30;

/**
 * Races that SQLite hides (it runs one writer at a time) and PostgreSQL shows: each test sends its
 * requests at the same moment and checks that the money came out exact.
 */
describe.each(TEST_DATABASES)('payments under concurrency (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it(`two renewals of one account confirmed at the same moment add two periods (${ROUNDS} rounds)`, { timeout: 180_000 }, async () => {
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    const db = f.env.database.db;
    // The paid-period ledger: what the account is paid for.
    const paidEnd = async () =>
      new Date((await db('paid_periods').where({ vpn_account_id: accountId }).whereNull('voided_at').max({ end: 'ends_at' }).first())!.end);
    for (let round = 0; round < ROUNDS; round += 1) {
      const before = await paidEnd();
      const renewals = [await f.checkout(user, { accountId }), await f.checkout(user, { accountId })];
      const events = await f.payQuietly(() => Promise.all(renewals.map(({ sessionId }) => f.stripe.pay(sessionId))));
      const answers = await Promise.all(
        events.map((event) => {
          const { body, signature } = f.stripe.signedDelivery(event);
          return f.postWebhook(body, signature);
        }),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const added = ((await paidEnd()).getTime() - before.getTime()) / DAY_MS;
      expect(added, `round ${round}`).toBeCloseTo(60, 5);
    }
    await f.runJobs();
    const panelUser = asMarzneshinUser([...f.panel.users.values()].find((u) => asMarzneshinUser(u).note === accountId));
    expect(new Date(panelUser.expire_date!).getTime()).toBeCloseTo((await paidEnd()).getTime(), -4);
    expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(1);
    // One period per payment, each starting where the one before ends: none overlaps another, none is lost.
    const periods = await db('paid_periods').where({ vpn_account_id: accountId }).orderBy('starts_at', 'asc');
    expect(periods).toHaveLength(1 + 2 * ROUNDS);
    for (let i = 1; i < periods.length; i += 1)
      expect(new Date(periods[i].starts_at).getTime(), `period ${i}`).toBe(new Date(periods[i - 1].ends_at).getTime());
  });

  it('the same event delivered 5 times at once is applied by exactly one delivery', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const event = await f.payQuietly(() => f.stripe.pay(sessionId));
    const { body, signature } = f.stripe.signedDelivery(event);
    const answers = await Promise.all(Array.from({ length: 5 }, () => f.postWebhook(body, signature)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => (a.body as { duplicate?: boolean }).duplicate !== true)).toHaveLength(1);
    expect(await f.count('webhook_events', { id: event.id })).toBe(1);
    expect(await f.count('jobs', { type: 'provision_paid_account' })).toBeGreaterThanOrEqual(1);
  });

  it('records the follow-up job with the pending rows, before the provider is called', async () => {
    const user = await f.newUser();
    f.stripe.failNextCreates(5);
    const refused = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId });
    expect(refused.statusCode).toBe(502);
    expect(await f.count('transactions', { user_id: user.userId })).toBe(0);
    const started = await f.checkout(user, { planId: f.paidPlanId });
    const transactionId = f.stripe.getSession(started.sessionId)!.metadata!.transaction_id;
    expect(await f.count('jobs', { type: 'check_checkout', dedupe_key: `check_checkout:${transactionId}` })).toBe(1);
  });

  it('an amount that differs from the order is held for review: nothing is delivered, the admin sees it', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const event = await f.payQuietly(() => f.stripe.pay(sessionId));
    const altered = structuredClone(event) as unknown as StripeEventObject;
    Object.assign(altered, { id: `evt_1Altered${kind}` });
    Object.assign(altered.data.object, { amount_total: 1 });
    const { body, signature } = f.stripe.signedDelivery(altered);
    expect((await f.postWebhook(body, signature)).status).toBe(200);
    await f.runJobs();
    expect((await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json()).toMatchObject({ status: 'needs_review', error: expect.any(String) });
    expect((await f.call(user, 'GET', '/api/transactions')).json()).toEqual([expect.objectContaining({ status: 'needs_review' })]);
    expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(0);
    const listed = (await f.call(f.admin, 'GET', '/api/admin/transactions?status=needs_review')).json();
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ userEmail: expect.stringContaining('@'), status: 'needs_review', note: 'Paid $0.01, ordered $4.99', refundable: true }),
      ]),
    );
    const system = (await f.call(f.admin, 'GET', '/api/admin/system')).json();
    expect(system.payments.needsReview).toEqual(expect.arrayContaining([expect.objectContaining({ userEmail: expect.any(String), amount: 499 })]));
  });

  it('refuses to charge while no panel that covers the plan answers, and creates nothing', async () => {
    const user = await f.newUser();
    const sessionsBefore = f.stripe.listSessions().length;
    f.panel.faults.down = true;
    try {
      const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 'service_unavailable', message: ACCOUNT_MESSAGES.serviceUnavailable });
    } finally {
      f.panel.faults.down = false;
    }
    expect(f.stripe.listSessions()).toHaveLength(sessionsBefore);
    expect(await f.count('transactions', { user_id: user.userId })).toBe(0);
    expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(0);
  });
});
