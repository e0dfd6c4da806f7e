import { afterEach, describe, expect, it } from 'vitest';
import { CRASH_YOOKASSA, createHarness, GB, type Json } from '../../../../test/crash-harness.js';
import { TEST_DATABASES } from '../../../../test/databases.js';

const DAY_MS = 24 * 3600 * 1000;
const parse = (value: unknown): Json => (typeof value === 'string' ? JSON.parse(value) : value);

/**
 * A renewal this server charges (a plan bought through YooKassa): the real process is killed right after the
 * saved card was charged, before anything of the payment was recorded. Started again, the try is sent again with
 * its idempotence key, YooKassa answers with the payment it made, and the period is added once.
 */
describe.each(TEST_DATABASES)('a renewal the store charges, killed between the charge and its record (%s)', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('after the restart: one payment at YooKassa, one renewal, one more period', { timeout: 90_000 }, async () => {
    const h = await createHarness(kind, cleanups, { yookassa: true });
    const shop = h.yookassa!;
    await h.start();
    await h.setUpShop();
    const admin = h.admin!;
    expect((await h.api(admin, 'PUT', '/api/admin/payments/yookassa', { enabled: true, ...CRASH_YOOKASSA })).status).toBe(200);
    expect((await h.api(admin, 'PUT', '/api/admin/settings', { currency: 'rub' })).status).toBe(200);
    const plan = await h.api(admin, 'POST', '/api/admin/plans', {
      name: 'Auto',
      days: 30,
      dataLimitBytes: GB,
      price: 499,
      locations: 'all',
      billing: 'recurring',
    });
    expect(plan.status).toBe(201);
    const buyer = await h.signIn('renewer@example.com');
    const started = await h.api(buyer, 'POST', '/api/checkout', { planId: plan.body.id, method: 'yookassa' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await shop.pay(started.body.sessionId);
    await h.until(async () => (await h.rowsOf(buyer))[0]?.status === 'active');
    const subscription = await h.db()('subscriptions').where({ user_id: buyer.userId }).first();
    const method = await h.db()('saved_payment_methods').where({ id: subscription.saved_method_id }).first();
    expect(method).toMatchObject({ title: 'Bank card *4444' });

    // Its paid period now ends in two days: its card is due to be charged. The scan runs as the next process starts.
    const end = new Date(Date.now() + 2 * DAY_MS);
    await h.db()('subscriptions').where({ id: subscription.id }).update({ current_period_end: end });
    await h.db()('paid_periods').where({ subscription_id: subscription.id }).update({ ends_at: end });
    await h
      .db()('jobs')
      .where({ type: 'scan_store_renewals' })
      .update({ run_at: new Date(Date.now() - 1000) });
    const charges = () =>
      shop.requests.filter(
        (request) => request.method === 'POST' && request.path === '/v3/payments' && JSON.parse(request.body).payment_method_id === method.method_ref,
      );
    const renewalPayments = () =>
      shop.listPayments().filter((payment) => payment.payment_method?.id === method.method_ref && payment.id !== started.body.sessionId);

    // Killed right after YooKassa charged the card: the try and its key are recorded, its payment is not.
    await h.restart('store-renewal:after-charge');
    await h.until(async () => charges().length === 1);
    await h.exited();
    expect(renewalPayments()).toHaveLength(1);
    expect(renewalPayments()[0]).toMatchObject({ status: 'succeeded', amount: { value: '4.99', currency: 'RUB' } });
    const [recorded] = await h.db()('transactions').where({ subscription_id: subscription.id }).whereNotNull('provider_invoice_id');
    expect(recorded).toMatchObject({ status: 'pending', charge_attempts: 1, provider_transaction_id: null });
    expect(parse(recorded.metadata).charges).toEqual([expect.objectContaining({ attempt: 1, key: `${recorded.id}:1` })]);
    expect(parse(recorded.metadata).charges[0].payment_id).toBeUndefined();

    // Started again with nothing armed: once the try's sender can no longer be waiting for its answer (its 20 s lease), the
    // same try is sent again with its key, and YooKassa answers with its payment.
    await h.restart();
    await h.until(async () => (await h.db()('transactions').where({ id: recorded.id }).first()).status === 'succeeded', 50_000);
    expect(charges()).toHaveLength(2);
    expect(charges()[1]!.idempotenceKey).toBe(charges()[0]!.idempotenceKey);
    expect(renewalPayments()).toHaveLength(1);
    expect(await h.db()('paid_periods').where({ subscription_id: subscription.id })).toHaveLength(2);
    const renewed = await h.db()('subscriptions').where({ id: subscription.id }).first();
    expect(new Date(renewed.current_period_end).getTime()).toBe(end.getTime() + 30 * DAY_MS);
    expect(await h.db()('transactions').where({ subscription_id: subscription.id, status: 'succeeded' })).toHaveLength(2);
    await h.stop();
  });
});
