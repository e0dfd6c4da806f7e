import { beforeAll, describe, expect, it } from 'vitest';
import { GB, useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { signInDesktop, type DesktopSession } from '../../../../test/test-app.js';
import { YOOKASSA, useFakeYookassa } from '../../../../test/yookassa-fixture.js';
import { schedulePeriodicJob } from '../../../jobs/periodic-jobs.js';
import { SCAN_STORE_RENEWALS } from './store-renewals.js';

const DAY = 24 * 3600;

/**
 * A plan this server renews with a saved YooKassa card changes plan through ours (issue 55): the unused days are
 * credited, the difference is paid by any method, and from then on the saved card renews the new plan, at its price,
 * from the new paid end. Only to another plan that renews (a one-off one would silently stop renewing); a downgrade set
 * to wait makes the next renewal the new plan's, and calling it off puts the renewal back.
 */
describe.each(TEST_DATABASES)('plan changes of plans renewed here (%s)', (kind) => {
  const shop = useFakeYookassa(() => f);
  const f: BillingFixture = useBillingFixture(kind, { env: () => shop.env() });
  const db = () => f.env.database.db;
  let proAutoId = '';
  let proOnceId = '';
  let n = 0;

  beforeAll(async () => {
    shop.fake.setWebhookUrl(shop.webhookUrl());
    expect((await f.call(f.admin, 'PUT', '/api/admin/payments/yookassa', { enabled: true, ...YOOKASSA })).statusCode).toBe(200);
    expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { currency: 'rub' })).statusCode).toBe(200);
    await schedulePeriodicJob(f.t.app.services.jobs, SCAN_STORE_RENEWALS, f.t.clock.now());
    const plan = async (body: Record<string, unknown>) => {
      const res = await f.call(f.admin, 'POST', '/api/admin/plans', { locations: 'all', days: 30, dataLimitBytes: 50 * GB, price: 999, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    proAutoId = await plan({ name: 'Pro Auto', billing: 'recurring' });
    proOnceId = await plan({ name: 'Pro Once' });
  });

  const signIn = (email: string) => signInDesktop(f.t, f.env.smtp, email);
  const admin = () => signIn('admin@example.com');
  const subscriptionRow = (id: string) => db()('subscriptions').where({ id }).first();
  /** The subscription's metadata (text on SQLite, JSON on PostgreSQL). */
  const metadataOf = async (id: string) => {
    const { metadata } = await subscriptionRow(id);
    return typeof metadata === 'string' ? JSON.parse(metadata) : metadata;
  };
  /** A customer on the 499 ₽ monthly plan bought through YooKassa (the card saved), ten days ago (signed in again now). */
  async function onDayTen(planId = f.recurringPlanId) {
    const email = `store-changer${(n += 1)}-${kind}@example.com`;
    const started = await f.call(await signIn(email), 'POST', '/api/checkout', { planId, method: 'yookassa' });
    expect(started.statusCode, started.body).toBe(200);
    const { sessionId, subscriptionId } = started.json() as { sessionId: string; subscriptionId: string };
    await shop.fake.pay(sessionId);
    await f.runJobs();
    const row = await subscriptionRow(subscriptionId);
    const methodRef = (await db()('saved_payment_methods').where({ id: row.saved_method_id }).first()).method_ref as string;
    f.t.clock.advance(10 * DAY);
    return { user: await signIn(email), subscriptionId, accountId: row.vpn_account_id as string, methodRef };
  }
  const change = (user: DesktopSession, accountId: string, body: Record<string, unknown>) =>
    f.call(user, 'POST', `/api/accounts/${accountId}/change-plan`, body);
  const chargesOf = (methodRef: string) =>
    shop.fake.requests.filter(
      (request) => request.method === 'POST' && request.path === '/v3/payments' && JSON.parse(request.body).payment_method_id === methodRef,
    );

  it('an upgrade on day 10 is paid through YooKassa, and the saved card renews the new plan at its price from the new end', async () => {
    const { user, subscriptionId, accountId, methodRef } = await onDayTen();
    const quoted = await f.call(user, 'POST', `/api/accounts/${accountId}/change-plan/quote`, { planId: proAutoId });
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(quoted.json()).toMatchObject({ credit: 332, creditDays: 20, charge: 667, takesEffect: 'now' });
    const started = await change(user, accountId, { planId: proAutoId, method: 'yookassa' });
    expect(started.statusCode, started.body).toBe(200);
    const now = f.t.clock.now();
    await shop.fake.pay(started.json().sessionId);
    await f.runJobs();
    const newEnd = now.getTime() + 30 * DAY * 1000;
    expect(await db()('vpn_accounts').where({ id: accountId }).first()).toMatchObject({ plan_id: proAutoId });
    const renewing = await subscriptionRow(subscriptionId);
    expect(renewing.status).toBe('active');
    expect(await metadataOf(subscriptionId)).toMatchObject({ plan_id: proAutoId, plan_name: 'Pro Auto', price: 999, renewed_by: 'store' });
    expect(new Date(renewing.current_period_end).getTime()).toBe(newEnd);
    const shown = ((await f.call(user, 'GET', '/api/subscriptions')).json() as Array<Record<string, unknown>>).find((entry) => entry.id === subscriptionId);
    expect(shown).toMatchObject({ autoRenews: true, renewalAmount: 999 });
    // Three days before the new end, the saved card pays the new plan's price; the account runs 30 more days.
    f.t.clock.advance(Math.ceil((newEnd - 3 * DAY * 1000 + 60_000 - f.t.clock.now().getTime()) / 1000));
    await f.runJobs();
    expect(chargesOf(methodRef)).toHaveLength(1);
    expect(JSON.parse(chargesOf(methodRef)[0]!.body)).toMatchObject({ amount: { value: '9.99', currency: 'RUB' } });
    expect(new Date((await db()('vpn_accounts').where({ id: accountId }).first()).paid_until).getTime()).toBe(newEnd + 30 * DAY * 1000);
  });

  it('a plan that does not renew is refused (the card would silently stop renewing), and nothing changes', async () => {
    const { user, subscriptionId, accountId } = await onDayTen();
    const refused = await change(user, accountId, { planId: proOnceId, method: 'yookassa' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'renewal_mismatch' });
    expect(await metadataOf(subscriptionId)).toMatchObject({ plan_id: f.recurringPlanId, price: 499 });
  });

  it('a downgrade set to wait makes the next renewal the new plan’s; called off, the renewal is the old plan’s again', async () => {
    expect((await f.call(await admin(), 'PUT', '/api/admin/settings', { planChangeDowngrade: 'period_end' })).statusCode).toBe(200);
    try {
      const { user, subscriptionId, accountId } = await onDayTen(proAutoId);
      const waiting = await change(user, accountId, { planId: f.recurringPlanId });
      expect(waiting.statusCode, waiting.body).toBe(200);
      expect(waiting.json()).toMatchObject({ takesEffect: 'period_end' });
      expect(await metadataOf(subscriptionId)).toMatchObject({ plan_id: f.recurringPlanId, price: 499 });
      expect((await f.call(user, 'DELETE', `/api/accounts/${accountId}/change-plan`)).statusCode).toBe(204);
      expect(await metadataOf(subscriptionId)).toMatchObject({ plan_id: proAutoId, price: 999 });
    } finally {
      expect((await f.call(await admin(), 'PUT', '/api/admin/settings', { planChangeDowngrade: 'wallet' })).statusCode).toBe(200);
    }
  });
});
