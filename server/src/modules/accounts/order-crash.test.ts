import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, GB } from '../../../test/crash-harness.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { asMarzneshinUser } from '../../../test/fake-panels/marzneshin.js';

/**
 * The real server process (`node --import tsx server/src/main.ts`) killed with SIGKILL by a crash
 * point (CRASH_AT, test processes only) between two steps of provisioning, then started again on the
 * same database, armed at the next step, and so on: after each restart nothing is stuck, no panel user
 * is left without its account, and a trial comes back when it was not delivered.
 * The sweep runs every second and takes rows older than 3 s. A `running` job of a killed process is
 * taken over after the worker's lock timeout (10 minutes): the test moves its lock back in time.
 * Orders and renewals here; trial claims and paid provisioning in provisioning-crash.test.ts (two files, so the
 * suite's two workers kill and restart servers side by side).
 */
describe.each(TEST_DATABASES)('nothing stuck after a kill -9 (%s)', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(
    'an order paid partly with referral credit, killed before Stripe was asked: the follow-up closes it and the credit comes back, once',
    { timeout: 90_000 },
    async () => {
      const h = await createHarness(kind, cleanups, { stripe: true });
      await h.start('checkout:after-order');
      const { paidPlanId } = await h.setUpShop();
      const buyer = await h.signIn('saver@example.com');
      const longAgo = new Date(Date.now() - 30 * 86_400_000);
      await h
        .db()('wallet_movements')
        .insert({ user_id: buyer.userId, kind: 'earned', amount: 300, currency: 'usd', available_at: longAgo, created_at: longAgo });
      const balance = async () => Number((await h.db()('wallet_movements').where({ user_id: buyer.userId }).sum({ total: 'amount' }).first())?.total ?? 0);

      // Killed with the order and its credit written, before the Checkout Session was made.
      await h.killedBy(h.api(buyer, 'POST', '/api/checkout', { planId: paidPlanId }));
      const [order] = await h.db()('transactions').where({ user_id: buyer.userId });
      expect(order).toMatchObject({ status: 'pending', amount: 299, provider_transaction_id: null });
      expect(await balance()).toBe(0);
      expect(h.stripe!.listSessions()).toEqual([]);

      // Restarted: once the order is older than a Checkout Session lives, its follow-up closes it and gives the credit back.
      await h
        .db()('transactions')
        .where({ id: order.id })
        .update({ created_at: new Date(Date.now() - 2 * 3600_000) });
      await h.restart();
      await h
        .db()('jobs')
        .where({ type: 'check_checkout' })
        .update({ run_at: new Date(Date.now() - 1000) });
      await h.until(async () => (await h.db()('transactions').where({ id: order.id }).first()).status === 'failed');
      expect(await balance()).toBe(300);
      const moves = await h.db()('wallet_movements').where({ user_id: buyer.userId, transaction_id: order.id }).orderBy('id').select('kind', 'amount');
      expect(moves.map((row: { kind: string; amount: number }) => [row.kind, Number(row.amount)])).toEqual([
        ['spent', -300],
        ['restored', 300],
      ]);

      // It pays the next order.
      const next = await h.api(buyer, 'POST', '/api/checkout', { planId: paidPlanId });
      expect(next.status).toBe(200);
      expect(h.stripe!.getSession(next.body.sessionId)!.amount_total).toBe(299);
      await h.stop();
    },
  );

  it('a renewal killed after the panel was extended: applied once after the restart', { timeout: 90_000 }, async () => {
    const h = await createHarness(kind, cleanups, { stripe: true });
    await h.start();
    await h.setUpShop();
    const plan = await h.api(h.admin!, 'POST', '/api/admin/plans', {
      name: 'Auto',
      days: 30,
      dataLimitBytes: GB,
      price: 499,
      locations: 'all',
      billing: 'recurring',
    });
    expect(plan.status).toBe(201);
    const buyer = await h.signIn('renewer@example.com');
    const started = await h.api(buyer, 'POST', '/api/checkout', { planId: plan.body.id });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await h.stripe!.pay(started.body.sessionId);
    await h.until(async () => (await h.rowsOf(buyer))[0]?.status === 'active');
    const session = h.stripe!.getSession(started.body.sessionId)!;
    const stripeSubscription = session.subscription as string;
    const clock = h.stripe!.getCustomer(session.customer as string)!.test_clock as string;
    const periodEnd = () => h.stripe!.getSubscription(stripeSubscription)!.items.data[0]!.current_period_end;

    // The renewal's job extends the panel user, then the process dies before anything is recorded.
    await h.restart('renew:after-extend');
    const end = periodEnd();
    await h.stripe!.advanceClock(clock, end + 7200);
    await h.exited();
    const [account] = await h.rowsOf(buyer);
    const renewedEnd = periodEnd();
    expect(renewedEnd).toBeGreaterThan(end);
    const panelExpiry = () => new Date(`${asMarzneshinUser([...h.panelUsers()].find((u) => asMarzneshinUser(u).note === account.id)).expire_date}Z`).getTime();
    expect(panelExpiry()).toBe(renewedEnd * 1000 + 3 * 24 * 3600 * 1000);
    const renewal = await h.db()('transactions').where({ user_id: buyer.userId }).whereNotNull('provider_invoice_id').orderBy('created_at', 'desc').first();
    expect(JSON.parse(typeof renewal.metadata === 'string' ? renewal.metadata : JSON.stringify(renewal.metadata)).fulfilled_at).toBeUndefined();

    // Nothing armed: the job runs again, once; the same account, one renewal, the same expiry.
    await h.restart();
    await h.until(async () => (await h.db()('vpn_account_logs').where({ vpn_account_id: account.id, step: 'account_renewed' })).length === 1);
    await h.until(async () => (await h.db()('jobs').where({ type: 'provision_paid_account' }).whereNot({ status: 'done' })).length === 0);
    expect(await h.db()('transactions').where({ user_id: buyer.userId, status: 'succeeded' })).toHaveLength(2);
    expect(h.markerUsers()).toEqual([account.id]);
    expect(panelExpiry()).toBe(renewedEnd * 1000 + 3 * 24 * 3600 * 1000);
    await h.stop();
  });
});
