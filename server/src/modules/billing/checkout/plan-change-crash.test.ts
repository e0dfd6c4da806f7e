import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, GB, type Json } from '../../../../test/crash-harness.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';

/**
 * A plan change with the real process killed between its steps (issue 55): after its order is written and before
 * Stripe is asked (the follow-up closes it; the customer changes again), and after a paid change's panel user got the
 * new limits but before anything of it was recorded (the job, taken over, does it again: the same panel user, with the
 * new plan's limits and services, one period, one receipt).
 */
describe.each(TEST_DATABASES)('a plan change killed between its steps (%s)', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('killed before Stripe is asked, then after the panel: one change, delivered once', { timeout: 120_000 }, async () => {
    const h = await createHarness(kind, cleanups, { stripe: true });
    await h.start();
    const { paidPlanId } = await h.setUpShop();
    const pro = await h.api(h.admin!, 'POST', '/api/admin/plans', {
      name: 'Pro',
      days: 30,
      dataLimitBytes: 5 * GB,
      price: 1999,
      servers: [{ serverId: h.serverId, serviceId: '1,2' }],
    });
    expect(pro.status, JSON.stringify(pro.body)).toBe(201);
    const buyer = await h.signIn('changer@example.com');
    const bought = await h.api(buyer, 'POST', '/api/checkout', { planId: paidPlanId });
    await h.stripe!.pay(bought.body.sessionId);
    await h.until(async () => (await h.rowsOf(buyer))[0]?.status === 'active');
    const [account] = await h.rowsOf(buyer);
    const panelUser = () => asMarzneshinUser([...h.panelUsers()].find((user) => asMarzneshinUser(user).username === account.username));

    // 1. Killed with the change's order written, before its Checkout Session was made.
    await h.restart('plan-change:after-order');
    // (The session outlives restarts: the app secret is on disk.)
    await h.killedBy(h.api(buyer, 'POST', `/api/accounts/${account.id}/change-plan`, { planId: pro.body.id }));
    const [order] = await h.db()('transactions').where({ user_id: buyer.userId }).whereNull('provider_transaction_id');
    expect(order).toMatchObject({ status: 'pending' });
    expect(h.stripe!.listSessions()).toHaveLength(1);

    // 2. Restarted: the change waits for that order until its follow-up closes it (older than a session lives); then the
    // customer changes again and pays. The delivery is killed once the panel user has the new limits.
    await h.restart('renew:after-extend');
    const customer = buyer;
    expect((await h.api(customer, 'POST', `/api/accounts/${account.id}/change-plan`, { planId: pro.body.id })).body).toMatchObject({
      code: 'change_in_progress',
    });
    await h
      .db()('transactions')
      .where({ id: order.id })
      .update({ created_at: new Date(Date.now() - 2 * 3600_000) });
    await h
      .db()('jobs')
      .where({ type: 'check_checkout' })
      .update({ run_at: new Date(Date.now() - 1000) });
    await h.until(async () => (await h.db()('transactions').where({ id: order.id }).first()).status === 'failed');
    const started = await h.api(customer, 'POST', `/api/accounts/${account.id}/change-plan`, { planId: pro.body.id });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await h.stripe!.pay(started.body.sessionId);
    await h.exited();
    expect(panelUser().data_limit).toBe(5 * GB);

    // 3. Nothing armed: the job, taken over, extends again and moves the services; one period and one receipt for it.
    await h.restart();
    await h.until(async () => (await h.db()('jobs').where({ type: 'provision_paid_account' }).whereNot({ status: 'done' })).length === 0, 30_000);
    const moved = panelUser();
    expect(moved.username).toBe(account.username);
    expect([...moved.service_ids].sort()).toEqual([1, 2]);
    const row = await h.db()('vpn_accounts').where({ id: account.id }).first();
    expect(row).toMatchObject({ plan_id: pro.body.id, subscription_url: account.subscription_url });
    const [paid] = await h.db()('transactions').where({ provider_transaction_id: started.body.sessionId });
    expect(paid).toMatchObject({ status: 'succeeded' });
    expect(await h.db()('paid_periods').where({ transaction_id: paid.id })).toHaveLength(1);
    expect((await h.db()('vpn_accounts').where({ user_id: buyer.userId })) as Json[]).toHaveLength(1);
    await h.stop();
  });
});
