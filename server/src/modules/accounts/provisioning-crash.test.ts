import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, GB, type Json } from '../../../test/crash-harness.js';
import { TEST_DATABASES } from '../../../test/databases.js';

/**
 * The real server process (`node --import tsx server/src/main.ts`) killed with SIGKILL by a crash
 * point (CRASH_AT, test processes only) between two steps of provisioning, then started again on the
 * same database, armed at the next step, and so on: after each restart nothing is stuck, no panel user
 * is left without its account, and a trial comes back when it was not delivered.
 * The sweep runs every second and takes rows older than 3 s. A `running` job of a killed process is
 * taken over after the worker's lock timeout (10 minutes): the test moves its lock back in time.
 */
describe.each(TEST_DATABASES)('nothing stuck after a kill -9 (%s)', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a trial claim killed between any two steps: the trial comes back, or is delivered exactly once', { timeout: 90_000 }, async () => {
    const h = await createHarness(kind, cleanups);
    await h.start();
    const { trialPlanId } = await h.setUpShop();
    const first = await h.signIn('first@example.com');

    // 1. Killed right after the row was saved: no panel call was ever recorded.
    await h.restart('account:after-insert');
    await h.killedBy(h.api(first, 'POST', '/api/accounts', { planId: trialPlanId }));
    const [afterInsert] = await h.rowsOf(first);
    expect(afterInsert).toMatchObject({ status: 'suspended', provisioning_server_id: null, trial_user_id: first.userId });

    // 2. The sweep removed it, so the trial is free again; killed after recording the intent, before the panel call.
    await h.restart('provision:before-create');
    await h.until(async () => (await h.rowsOf(first)).length === 0);
    await h.killedBy(h.api(first, 'POST', '/api/accounts', { planId: trialPlanId }));
    const [beforeCreate] = await h.rowsOf(first);
    expect(beforeCreate).toMatchObject({ status: 'suspended', provisioning_server_id: h.serverId });
    expect(h.markerUsers()).toEqual([]);

    // 3. Removed again (the panel has no such user); killed after the panel created the user.
    await h.restart('provision:after-create');
    await h.until(async () => (await h.rowsOf(first)).length === 0);
    await h.killedBy(h.api(first, 'POST', '/api/accounts', { planId: trialPlanId }));
    const [afterCreate] = await h.rowsOf(first);
    expect(afterCreate).toMatchObject({ status: 'suspended', subscription_url: null });
    expect(h.markerUsers()).toEqual([afterCreate.id]);

    // 4. The sweep adopted that user: the trial was delivered, once. Another customer's claim is killed after the save.
    await h.restart('account:after-save');
    await h.until(async () => (await h.rowsOf(first))[0]?.status === 'active');
    expect(await h.trialUsed(first)).toBe(true);
    expect((await h.api(first, 'GET', '/api/accounts')).body).toEqual([
      expect.objectContaining({ id: afterCreate.id, status: 'active', combinedUrl: expect.stringContaining('/sub/') }),
    ]);
    expect((await h.api(first, 'POST', '/api/accounts', { planId: trialPlanId })).body.code).toBe('trial_used');
    const second = await h.signIn('second@example.com');
    await h.killedBy(h.api(second, 'POST', '/api/accounts', { planId: trialPlanId }));

    // 5. Nothing armed: each customer has one active trial, each panel user belongs to one of them, nothing waits.
    await h.restart();
    const [delivered] = await h.rowsOf(second);
    expect(delivered).toMatchObject({ status: 'active' });
    expect(await h.trialUsed(second)).toBe(true);
    expect((await h.api(second, 'POST', '/api/accounts', { planId: trialPlanId })).body.code).toBe('trial_used');
    await h.runCleanupJobsNow();
    expect(h.markerUsers().sort()).toEqual([afterCreate.id, delivered.id].sort());
    expect(await h.db()('vpn_accounts').where({ status: 'suspended' })).toEqual([]);
    const third = await h.signIn('third@example.com');
    expect((await h.api(third, 'POST', '/api/accounts', { planId: trialPlanId })).status).toBe(201);
    await h.stop();
  });

  it('paid provisioning killed between any two steps: the order is delivered exactly once', { timeout: 90_000 }, async () => {
    const h = await createHarness(kind, cleanups, { stripe: true });
    await h.start('fulfil:before-provision');
    const { paidPlanId } = await h.setUpShop();
    const buyer = await h.signIn('buyer@example.com');
    const started = await h.api(buyer, 'POST', '/api/checkout', { planId: paidPlanId });
    expect(started.status).toBe(200);

    // 1. Paid; the provisioning job is killed as it starts: nothing recorded on the row.
    await h.stripe!.pay(started.body.sessionId);
    await h.exited();
    const [waiting] = await h.rowsOf(buyer);
    expect(waiting).toMatchObject({ status: 'suspended', provisioning_server_id: null });

    // 2. The job, taken over, records its server and username and is killed before the panel call.
    await h.restart('provision:before-create');
    await h.exited();
    expect((await h.rowsOf(buyer))[0]).toMatchObject({ id: waiting.id, status: 'suspended', provisioning_server_id: h.serverId });
    expect(h.markerUsers()).toEqual([]);

    // 3. Killed after the panel created the user.
    await h.restart('provision:after-create');
    await h.exited();
    const [afterCreate] = await h.rowsOf(buyer);
    expect(afterCreate).toMatchObject({ id: waiting.id, status: 'suspended', subscription_url: null });
    expect(h.markerUsers()).toEqual([waiting.id]);

    // 4. The next attempt starts on the recorded server and adopts that user; killed after saving, before the job is done.
    await h.restart('fulfil:after-save');
    await h.exited();
    expect((await h.rowsOf(buyer))[0]).toMatchObject({ id: waiting.id, status: 'active', master_server_id: h.serverId, username: afterCreate.username });

    // 5. Nothing armed: the job finishes; one account, one panel user; the sweep never touched the paid row.
    await h.restart();
    let status: Json;
    await h.until(async () => (status = (await h.api(buyer, 'GET', `/api/checkout/${started.body.sessionId}`)).body)?.account !== undefined);
    expect(status).toMatchObject({ status: 'succeeded', account: { id: waiting.id, status: 'active', dataLimitBytes: GB } });
    await h.until(async () => (await h.db()('jobs').where({ type: 'provision_paid_account', status: 'done' })).length === 1);
    await h.runCleanupJobsNow();
    expect(h.markerUsers()).toEqual([waiting.id]);
    expect(await h.db()('vpn_accounts').where({ status: 'suspended' })).toEqual([]);
    expect(await h.db()('vpn_account_logs').where({ vpn_account_id: waiting.id }).whereLike('step', 'stuck_account%')).toEqual([]);
    await h.stop();
  });
});
