import { describe, expect, it } from 'vitest';
import { useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import type { StripeEventObject } from '../../../../test/fake-stripe/index.js';
import { createJobsRepo } from '../../../jobs/jobs.repo.js';
import type { DesktopSession } from '../../../../test/test-app.js';
import { PROVISION_PAID_ACCOUNT } from './payment-confirmation.js';

/** One account on the panel, one succeeded transaction, one provisioning job, and the account active with its link. */
async function expectExactlyOnce(f: BillingFixture, user: DesktopSession, sessionId: string): Promise<void> {
  const session = f.stripe.getSession(sessionId)!;
  const { transaction_id: transactionId, vpn_account_id: accountId } = session.metadata!;
  expect(await f.count('transactions', { provider_transaction_id: sessionId, status: 'succeeded' })).toBe(1);
  expect(await f.count('transactions', { id: transactionId })).toBe(1);
  expect(await f.count('jobs', { type: PROVISION_PAID_ACCOUNT, dedupe_key: `${PROVISION_PAID_ACCOUNT}:${transactionId}` })).toBe(1);
  expect([...f.panel.users.values()].filter((u) => asMarzneshinUser(u).note === accountId)).toHaveLength(1);
  const status = (await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json();
  expect(status).toMatchObject({ status: 'succeeded', account: { id: accountId, status: 'active', combinedUrl: expect.stringContaining('/sub/') } });
  expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(1);
}

describe.each(TEST_DATABASES)('payments happen exactly once (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it('the same webhook delivered 3 times: processed once, acknowledged each time', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const event = await f.stripe.pay(sessionId);
    expect(await f.stripe.deliver(event)).toBe(200);
    expect(await f.stripe.deliver(event)).toBe(200);
    expect(f.stripe.deliveries.filter((d) => d.eventId === event.id).map((d) => d.status)).toEqual([200, 200, 200]);
    const { body, signature } = f.stripe.signedDelivery(event);
    expect(await f.postWebhook(body, signature)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    await f.runJobs();
    await expectExactlyOnce(f, user, sessionId);
  });

  it('the webhook and the return check racing each other', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const event = await f.payQuietly(() => f.stripe.pay(sessionId));
    const { body, signature } = f.stripe.signedDelivery(event);
    const results = await Promise.all([
      f.postWebhook(body, signature),
      f.call(user, 'GET', `/api/checkout/${sessionId}`),
      f.postWebhook(body, signature),
      f.call(user, 'GET', `/api/checkout/${sessionId}`),
      f.call(user, 'GET', `/api/checkout/${sessionId}`),
    ]);
    expect(results.map((r) => ('statusCode' in r ? r.statusCode : r.status))).toEqual([200, 200, 200, 200, 200]);
    await f.runJobs();
    await expectExactlyOnce(f, user, sessionId);
  });

  it('events out of order: async success before "completed", and a stray "expired" after payment', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const completed = await f.payQuietly(() => f.stripe.pay(sessionId, { async: true, evenIfNotOffered: true }));
    const succeeded = await f.payQuietly(() => f.stripe.succeedAsync(sessionId));
    expect(await f.stripe.deliver(succeeded)).toBe(200);
    expect(await f.count('transactions', { provider_transaction_id: sessionId, status: 'succeeded' })).toBe(1);
    expect(await f.stripe.deliver(completed)).toBe(200); // older snapshot: complete but unpaid
    // An "expired" for the same session arriving after the payment changes nothing.
    const expired = structuredClone(completed) as unknown as StripeEventObject;
    Object.assign(expired, { id: 'evt_1StrayExpired' + kind, type: 'checkout.session.expired' });
    Object.assign(expired.data.object, { status: 'expired', payment_status: 'unpaid' });
    const stray = f.stripe.signedDelivery(expired);
    expect((await f.postWebhook(stray.body, stray.signature)).status).toBe(200);
    await f.runJobs();
    await expectExactlyOnce(f, user, sessionId);
  });

  it('events out of order on a failed async payment: failed stays failed, the waiting account is removed', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const accountId = f.stripe.getSession(sessionId)!.metadata!.vpn_account_id;
    const completed = await f.payQuietly(() => f.stripe.pay(sessionId, { async: true, evenIfNotOffered: true }));
    const failed = await f.payQuietly(() => f.stripe.failAsync(sessionId));
    expect(await f.stripe.deliver(failed)).toBe(200);
    expect(await f.stripe.deliver(completed)).toBe(200);
    await f.runJobs();
    expect((await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json()).toMatchObject({ status: 'failed', error: expect.any(String) });
    expect(await f.count('vpn_accounts', { id: accountId })).toBe(0);
    expect([...f.panel.users.values()].filter((u) => asMarzneshinUser(u).note === accountId)).toHaveLength(0);
    expect((await f.env.database.db('subscriptions').where({ vpn_account_id: null, user_id: user.userId }).first())?.status).toBe('incomplete');
  });

  it('the server killed after payment and before provisioning: the account appears after restart', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    await f.stripe.pay(sessionId); // confirmed; its job is queued and nothing ran it
    await f.restart();
    await f.runJobs();
    await expectExactlyOnce(f, user, sessionId);
  });

  it('the server killed in the middle of provisioning, after the panel created the user: adopted after restart', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    await f.stripe.pay(sessionId);
    // The dead worker had claimed the job and the panel had created the user; then the process died.
    const claimed = await createJobsRepo(f.env.database.db).claimNext({
      workerId: 'dead-worker',
      now: f.t.clock.now(),
      lockTimeoutSeconds: 600,
      types: [PROVISION_PAID_ACCOUNT],
    });
    expect(claimed).toBeDefined();
    const accountId = f.stripe.getSession(sessionId)!.metadata!.vpn_account_id;
    const row = await f.env.database.db('vpn_accounts').where({ id: accountId }).first();
    const { createMarzneshinDriver } = await import('../../../panels/marzneshin.js');
    await createMarzneshinDriver({ url: f.panel.url, username: f.panel.admin.username, password: f.panel.admin.password, serviceId: '1' }).createAccount({
      username: row.username,
      dataLimitBytes: null,
      expiresAt: null,
      note: accountId!,
    });

    await f.restart();
    await f.runJobs(); // the receipt goes out; the provisioning job is still held by the dead worker's lease
    expect(await f.env.database.db('jobs').where({ id: claimed!.id }).first()).toMatchObject({ status: 'running', locked_by: 'dead-worker' });
    f.t.clock.advance(45);
    await f.runJobs();
    expect(await f.env.database.db('jobs').where({ id: claimed!.id }).first()).toMatchObject({ status: 'running', locked_by: 'dead-worker' });
    // Nobody renews a dead worker's lease: a minute after its last renewal the job is taken back and delivered.
    f.t.clock.advance(16);
    await f.runJobs();
    await expectExactlyOnce(f, user, sessionId);
  });

  it('the panel down at payment time: the account appears when the panel is back', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    f.panel.faults.down = true;
    try {
      await f.stripe.pay(sessionId);
      await f.runJobs();
      expect((await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json()).toEqual(expect.objectContaining({ status: 'succeeded' }));
      expect((await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json().account).toBeUndefined();
      f.t.clock.advance(30);
      await f.runJobs(); // still down: retried again later
    } finally {
      f.panel.faults.down = false;
    }
    expect(await f.runJobs()).toBe(0); // not due yet
    f.t.clock.advance(120);
    await f.runJobs();
    await expectExactlyOnce(f, user, sessionId);
  });
});

describe.each(TEST_DATABASES)('Stripe webhook signatures (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it('answers 400 to a bad, missing, foreign, stale or tampered signature, changing nothing', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const event = await f.payQuietly(() => f.stripe.pay(sessionId));
    const good = f.stripe.signedDelivery(event);
    const cases: Array<[string, string | undefined]> = [
      [good.body, undefined],
      [good.body, 't=1,v1=deadbeef'],
      [good.body, f.stripe.signedDelivery(event, { secret: 'whsec_someoneElse' }).signature],
      [good.body, f.stripe.signedDelivery(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 }).signature],
      [good.body.replace('"amount_total": 499', '"amount_total": 1'), good.signature],
    ];
    for (const [body, signature] of cases) {
      const res = await f.postWebhook(body, signature);
      expect(res, String(signature)).toEqual({ status: 400, body: { code: 'invalid_signature', message: expect.any(String) } });
    }
    expect(await f.count('transactions', { provider_transaction_id: sessionId, status: 'pending' })).toBe(1);
    expect(await f.count('webhook_events')).toBe(0);
    expect(await f.count('jobs', { type: PROVISION_PAID_ACCOUNT })).toBe(0);

    expect(await f.postWebhook(good.body, good.signature)).toEqual({ status: 200, body: { received: true } });
    expect(await f.count('webhook_events', { id: event.id })).toBe(1);
  });

  it('acknowledges an event type it does not handle, and one for a session that is not ours', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const event = await f.payQuietly(() => f.stripe.pay(sessionId));
    const other = structuredClone(event) as unknown as StripeEventObject;
    Object.assign(other, { id: `evt_1Other${kind}`, type: 'customer.created' });
    const foreign = structuredClone(event) as unknown as StripeEventObject;
    Object.assign(foreign, { id: `evt_1Foreign${kind}` });
    Object.assign(foreign.data.object, { id: 'cs_test_notOurs', metadata: {} });
    for (const e of [other, foreign]) {
      const { body, signature } = f.stripe.signedDelivery(e);
      expect((await f.postWebhook(body, signature)).status).toBe(200);
    }
    expect(await f.count('transactions', { provider_transaction_id: sessionId, status: 'pending' })).toBe(1);
  });
});
