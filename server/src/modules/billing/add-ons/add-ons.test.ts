import { beforeAll, describe, expect, it } from 'vitest';
import { GB, useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import { signInDesktop, type DesktopSession } from '../../../../test/test-app.js';

/**
 * Add-ons (issue 55): the operator's catalogue, and accounts buying them like any order: "+1 device" admits a third
 * device on a 2-device plan at `/sub` and its refund takes the slot back; "+50 GB" raises the panel user's data
 * limit by exactly 50 GB and re-enables a user that had run out.
 */
describe.each(TEST_DATABASES)('add-ons (%s)', (kind) => {
  const f: BillingFixture = useBillingFixture(kind);
  const db = () => f.env.database.db;
  let duoPlanId = '';
  let deviceAddOnId = '';
  let trafficAddOnId = '';

  beforeAll(async () => {
    const plan = await f.call(f.admin, 'POST', '/api/admin/plans', {
      name: 'Duo',
      days: 30,
      dataLimitBytes: 10 * GB,
      price: 499,
      locations: 'all',
      deviceLimit: 2,
    });
    expect(plan.statusCode, plan.body).toBe(201);
    duoPlanId = plan.json().id;
    const devices = await f.call(f.admin, 'POST', '/api/admin/add-ons', {
      name: '+1 device',
      kind: 'devices',
      amount: 1,
      price: 199,
      appliesTo: [duoPlanId],
      translations: { ru: { name: '+1 устройство' } },
    });
    expect(devices.statusCode, devices.body).toBe(201);
    deviceAddOnId = devices.json().id;
    const traffic = await f.call(f.admin, 'POST', '/api/admin/add-ons', { name: '+50 GB', kind: 'traffic', amount: 50 * GB, price: 299, until: 'forever' });
    expect(traffic.statusCode, traffic.body).toBe(201);
    trafficAddOnId = traffic.json().id;
  });

  const accountOn = async (planId: string) => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId });
    await f.stripe.pay(sessionId);
    await f.runJobs();
    return { user, accountId: f.stripe.getSession(sessionId)!.metadata!.vpn_account_id! };
  };
  const buy = (user: DesktopSession | null, accountId: string, body: Record<string, unknown>) =>
    f.call(user, 'POST', `/api/accounts/${accountId}/add-ons`, body);
  const panelUserOf = async (accountId: string) => asMarzneshinUser(f.panel.users.get((await db()('vpn_accounts').where({ id: accountId }).first()).username));
  const admin = () => signInDesktop(f.t, f.env.smtp, 'admin@example.com');
  const refund = async (sessionId: string) => {
    const [transaction] = await db()('transactions').where({ provider_transaction_id: sessionId });
    const res = await f.call(await admin(), 'POST', `/api/admin/transactions/${transaction.id}/refund`, {});
    expect(res.statusCode, res.body).toBe(200);
    await f.runJobs();
  };

  it('the admin defines, changes and deletes add-ons; customers cannot', async () => {
    const list = await f.call(f.admin, 'GET', '/api/admin/add-ons');
    expect(list.statusCode).toBe(200);
    expect(list.json().find((addOn: { id: string }) => addOn.id === deviceAddOnId)).toMatchObject({
      name: '+1 device',
      kind: 'devices',
      amount: 1,
      price: 199,
      appliesTo: [duoPlanId],
      until: 'period_end',
      status: 'active',
      translations: { ru: { name: '+1 устройство' } },
    });
    const customer = await f.newUser();
    expect((await f.call(null, 'GET', '/api/admin/add-ons')).statusCode).toBe(401);
    expect((await f.call(customer, 'GET', '/api/admin/add-ons')).statusCode).toBe(403);
    expect((await f.call(customer, 'POST', '/api/admin/add-ons', { name: 'x', kind: 'devices', amount: 1, price: 1 })).statusCode).toBe(403);
    for (const [body, field] of [
      [{ name: 'x', kind: 'cpu', amount: 1, price: 1 }, 'kind'],
      [{ name: 'x', kind: 'devices', amount: 1000, price: 1 }, 'amount'],
      [{ name: 'x', kind: 'traffic', amount: 10, price: 1 }, 'amount'],
      [{ name: 'x', kind: 'devices', amount: 1, price: 0 }, 'price'],
      [{ name: 'x', kind: 'devices', amount: 1, price: 1, appliesTo: ['no-such-plan'] }, 'appliesTo'],
    ] as const) {
      const res = await f.call(f.admin, 'POST', '/api/admin/add-ons', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields).toHaveProperty(field);
    }
    const made = (await f.call(f.admin, 'POST', '/api/admin/add-ons', { name: 'Spare', kind: 'devices', amount: 2, price: 100 })).json();
    const patched = await f.call(f.admin, 'PATCH', `/api/admin/add-ons/${made.id}`, { price: 150, status: 'disabled' });
    expect(patched.json()).toMatchObject({ price: 150, status: 'disabled' });
    expect((await f.call(f.admin, 'PATCH', '/api/admin/add-ons/nope', { price: 150 })).statusCode).toBe(404);
    expect((await f.call(f.admin, 'PATCH', `/api/admin/add-ons/${made.id}`, {})).statusCode).toBe(400);
    expect((await f.call(f.admin, 'DELETE', `/api/admin/add-ons/${made.id}`)).statusCode).toBe(204);
    expect((await f.call(f.admin, 'DELETE', `/api/admin/add-ons/${made.id}`)).statusCode).toBe(404);
  });

  it('"+1 device" admits a third device at /sub; its refund takes the slot back at the next refresh', async () => {
    const { user, accountId } = await accountOn(duoPlanId);
    const account = (await f.call(user, 'GET', '/api/accounts')).json().find((a: { id: string }) => a.id === accountId);
    const path = new URL(account.combinedUrl).pathname;
    const refused = async (hwid: string) =>
      (await f.t.app.inject({ method: 'GET', url: path, headers: { 'user-agent': 'Happ/3.2.1', 'x-hwid': hwid } })).headers['x-hwid-max-devices-reached'] ===
      'true';
    expect(await refused('phone')).toBe(false);
    expect(await refused('laptop')).toBe(false);
    expect(await refused('tablet')).toBe(true);

    const offers = (await f.call(user, 'GET', `/api/accounts/${accountId}/add-ons`)).json();
    expect(offers.offered.map((offer: { id: string }) => offer.id).sort()).toEqual([deviceAddOnId, trafficAddOnId].sort());
    expect(offers.active).toEqual([]);
    const started = await buy(user, accountId, { addOnId: deviceAddOnId });
    expect(started.statusCode, started.body).toBe(200);
    expect(f.stripe.getSession(started.json().sessionId)!.amount_total).toBe(199);
    await f.stripe.pay(started.json().sessionId);
    await f.runJobs();
    expect((await f.call(user, 'GET', '/api/accounts')).json().find((a: { id: string }) => a.id === accountId).deviceLimit).toBe(3);
    expect((await f.call(user, 'GET', `/api/accounts/${accountId}/add-ons`)).json().active).toEqual([
      expect.objectContaining({ name: '+1 device', kind: 'devices', amount: 1, until: 'period_end', endsAt: expect.any(String) }),
    ]);
    f.t.clock.advance(120); // past the admission cache
    expect(await refused('tablet')).toBe(false);
    expect(await refused('tv')).toBe(true);

    await refund(started.json().sessionId);
    f.t.clock.advance(120);
    expect(await refused('tablet')).toBe(true);
    expect(await refused('phone')).toBe(false);
    expect((await f.call(user, 'GET', `/api/accounts/${accountId}/add-ons`)).json().active).toEqual([]);
  });

  it('"+50 GB" raises the panel data limit by exactly 50 GB and re-enables a user that ran out; its refund takes it back', async () => {
    const { user, accountId } = await accountOn(f.paidPlanId);
    const panel = await panelUserOf(accountId);
    panel.used_traffic = 10 * GB;
    expect((await f.t.app.services.servers.driverFor((await f.t.app.services.servers.findServerRecord(f.serverId))!).getAccount(panel.username))!.status).toBe(
      'limited',
    );
    const bought = await buy(user, accountId, { addOnId: trafficAddOnId });
    expect(bought.statusCode, bought.body).toBe(200);
    await f.stripe.pay(bought.json().sessionId);
    await f.runJobs();
    expect((await panelUserOf(accountId)).data_limit).toBe(60 * GB);
    expect((await f.call(user, 'GET', '/api/accounts')).json().find((a: { id: string }) => a.id === accountId)).toMatchObject({
      status: 'active',
      dataLimitBytes: 60 * GB,
    });
    // Run again (a restart, a second runner): the limit it set is the one it sets again.
    await f.t.app.services.fulfilment.fulfil((await db()('account_add_ons').where({ vpn_account_id: accountId }).first()).transaction_id);
    expect((await panelUserOf(accountId)).data_limit).toBe(60 * GB);

    await refund(bought.json().sessionId);
    expect((await panelUserOf(accountId)).data_limit).toBe(10 * GB);
  });

  it('is refused cleanly: signed out, someone else’s account, bad input, an unknown add-on, another plan, a short balance', async () => {
    const { user, accountId } = await accountOn(f.paidPlanId);
    const other = await f.newUser();
    expect((await buy(null, accountId, { addOnId: trafficAddOnId })).statusCode).toBe(401);
    expect((await f.call(null, 'GET', `/api/accounts/${accountId}/add-ons`)).statusCode).toBe(401);
    expect((await buy(other, accountId, { addOnId: trafficAddOnId })).statusCode).toBe(404);
    expect((await f.call(other, 'GET', `/api/accounts/${accountId}/add-ons`)).statusCode).toBe(404);
    for (const body of [{}, { addOnId: '' }, { addOnId: trafficAddOnId, method: 'stars' }, { addOnId: trafficAddOnId, extra: true }]) {
      const res = await buy(user, accountId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await buy(user, accountId, { addOnId: 'no-such-add-on' })).statusCode).toBe(404);
    const notForPlan = await buy(user, accountId, { addOnId: deviceAddOnId });
    expect(notForPlan.statusCode).toBe(409);
    expect(notForPlan.json().code).toBe('add_on_not_for_plan');
    const short = await buy(user, accountId, { addOnId: trafficAddOnId, method: 'wallet' });
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ code: 'insufficient_balance', needed: 299 });
    expect(await f.count('account_add_ons', { vpn_account_id: accountId })).toBe(0);
  });

  it('two purchases at once from a balance that pays for one: one add-on, paid once', async () => {
    const { user, accountId } = await accountOn(f.paidPlanId);
    await f.call(await admin(), 'POST', `/api/admin/users/${user.userId}/wallet`, { amount: 400, note: 'Test balance' });
    const answers = await Promise.all([
      buy(user, accountId, { addOnId: trafficAddOnId, method: 'wallet' }),
      buy(user, accountId, { addOnId: trafficAddOnId, method: 'wallet' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    await f.runJobs();
    expect(await f.count('account_add_ons', { vpn_account_id: accountId })).toBe(1);
    expect((await f.call(user, 'GET', '/api/wallet')).json().balance).toBe(101);
    expect((await panelUserOf(accountId)).data_limit).toBe(60 * GB);
    // The customer's history names the add-on.
    const history = (await f.call(user, 'GET', '/api/transactions')).json() as Array<{ planName: string; amount: number }>;
    expect(history.filter((entry) => entry.planName === '+50 GB')).toHaveLength(1);
  });
});
