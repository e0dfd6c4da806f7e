import { beforeAll, describe, expect, it } from 'vitest';
import { GB, useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import { signInDesktop, type DesktopSession } from '../../../../test/test-app.js';

const DAY = 24 * 3600;

/**
 * Locations per plan (issue 55): a plan lists the servers its accounts may use and their services (squads, groups)
 * there; a premium server serves only the plans that list it; switching plan moves the panel user's services, and
 * a plan that does not list the account's server is refused. The fixture's panel has services 1 (Germany) and 2
 * (Netherlands); the premium server is a second record on the same panel, with service 2.
 */
describe.each(TEST_DATABASES)('locations per plan (%s)', (kind) => {
  const f: BillingFixture = useBillingFixture(kind);
  const db = () => f.env.database.db;
  let premiumServerId = '';
  let premiumPlanId = '';
  let bothPlanId = '';
  let n = 0;
  const signIn = (email: string) => signInDesktop(f.t, f.env.smtp, email);
  const admin = () => signIn('admin@example.com');
  const createPlan = async (body: Record<string, unknown>) => {
    const res = await f.call(await admin(), 'POST', '/api/admin/plans', { days: 30, dataLimitBytes: 20 * GB, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; servers: unknown[]; locationCodes: string[] };
  };
  const accountRow = (accountId: string) => db()('vpn_accounts').where({ id: accountId }).first();
  const panelUserOf = async (accountId: string) => asMarzneshinUser(f.panel.users.get((await accountRow(accountId)).username));
  /** A customer with an account bought by card on `planId`, ten days ago (signed in again now). */
  const bought = async (planId: string) => {
    const email = `places${(n += 1)}-${kind}@example.com`;
    const { sessionId } = await f.checkout(await signIn(email), { planId });
    await f.stripe.pay(sessionId);
    await f.runJobs();
    const accountId = f.stripe.getSession(sessionId)!.metadata!.vpn_account_id!;
    f.t.clock.advance(10 * DAY);
    return { user: await signIn(email), accountId };
  };
  const change = (user: DesktopSession, accountId: string, planId: string) => f.call(user, 'POST', `/api/accounts/${accountId}/change-plan`, { planId });

  beforeAll(async () => {
    const server = await f.call(f.admin, 'POST', '/api/admin/servers', {
      kind: 'marzneshin',
      name: 'Amsterdam premium',
      url: f.panel.url,
      username: f.panel.admin.username,
      password: f.panel.admin.password,
      serviceId: '2',
      locations: 'NL',
      premium: true,
    });
    expect(server.statusCode, server.body).toBe(201);
    expect(server.json()).toMatchObject({ premium: true });
    premiumServerId = server.json().id;
    const premium = await createPlan({ name: 'Premium NL', price: 1499, servers: [{ serverId: premiumServerId }] });
    expect(premium.servers).toEqual([{ serverId: premiumServerId, serviceId: null }]);
    expect(premium.locationCodes).toEqual(['NL']);
    premiumPlanId = premium.id;
    bothPlanId = (await createPlan({ name: 'Both countries', price: 999, servers: [{ serverId: f.serverId, serviceId: '1, 2' }] })).id;
  });

  it('a plan that lists no server never gets a premium one, and one that lists it gets it with its service', async () => {
    // The premium server was checked last, so it would be tried first if premium meant nothing.
    const basic = await bought(f.paidPlanId);
    expect((await accountRow(basic.accountId)).master_server_id).toBe(f.serverId);
    expect((await panelUserOf(basic.accountId)).service_ids).toEqual([1]);
    const premium = await bought(premiumPlanId);
    expect((await accountRow(premium.accountId)).master_server_id).toBe(premiumServerId);
    expect((await panelUserOf(premium.accountId)).service_ids).toEqual([2]);
  });

  it('the public plans tell the location codes; the admin sees the servers; nobody else sees them', async () => {
    const plans = (await f.call(null, 'GET', '/api/plans')).json() as Array<Record<string, unknown>>;
    const premium = plans.find((plan) => plan.id === premiumPlanId)!;
    expect(premium.locationCodes).toEqual(['NL']);
    expect(premium).not.toHaveProperty('servers');
    // A plan that lists a server that is everywhere ('all') promises no particular place.
    expect(plans.find((plan) => plan.id === bothPlanId)!.locationCodes).toEqual([]);
    const listed = (await f.call(await admin(), 'GET', '/api/admin/plans')).json() as Array<Record<string, unknown>>;
    expect(listed.find((plan) => plan.id === bothPlanId)!.servers).toEqual([{ serverId: f.serverId, serviceId: '1, 2' }]);
  });

  it('switching to a plan with more services moves the same panel user to them, and a refund moves it back', async () => {
    const { user, accountId } = await bought(f.paidPlanId);
    const before = await panelUserOf(accountId);
    const started = await change(user, accountId, bothPlanId);
    expect(started.statusCode, started.body).toBe(200);
    await f.stripe.pay(started.json().sessionId);
    await f.runJobs();
    const moved = await panelUserOf(accountId);
    expect(moved.username).toBe(before.username);
    expect(moved.key).toBe(before.key);
    expect([...moved.service_ids].sort()).toEqual([1, 2]);
    const [upgrade] = await db()('transactions').where({ provider_transaction_id: started.json().sessionId });
    const refunded = await f.call(await admin(), 'POST', `/api/admin/transactions/${upgrade.id}/refund`, {});
    expect(refunded.statusCode, refunded.body).toBe(200);
    await f.runJobs();
    expect((await panelUserOf(accountId)).service_ids).toEqual([1]);
  });

  it('a plan that does not list the account’s server is refused, quoted or bought, and nothing changes', async () => {
    const { user, accountId } = await bought(f.paidPlanId);
    const quoted = await f.call(user, 'POST', `/api/accounts/${accountId}/change-plan/quote`, { planId: premiumPlanId });
    expect(quoted.statusCode).toBe(409);
    expect(quoted.json()).toMatchObject({ code: 'plan_not_here' });
    expect((await change(user, accountId, premiumPlanId)).json()).toMatchObject({ code: 'plan_not_here' });
    const ru = await f.t.app.inject({
      method: 'POST',
      url: `/api/accounts/${accountId}/change-plan`,
      headers: { authorization: `Bearer ${user.accessToken}`, 'accept-language': 'ru' },
      payload: { planId: premiumPlanId },
    });
    expect(ru.json().message).toMatch(/новый аккаунт/);
    expect((await accountRow(accountId)).plan_id).toBe(f.paidPlanId);
    expect((await panelUserOf(accountId)).service_ids).toEqual([1]);
  });

  it('buying within the trial a plan that may not use the trial’s server makes a new account where it may; the trial stays', async () => {
    const user = await signIn(`trialist-${kind}@example.com`);
    const trial = await f.call(user, 'POST', '/api/accounts', { planId: f.trialPlanId });
    expect(trial.statusCode, trial.body).toBe(201);
    const trialId = trial.json().id as string;
    expect((await accountRow(trialId)).master_server_id).toBe(f.serverId);
    const { sessionId } = await f.checkout(user, { planId: premiumPlanId });
    await f.stripe.pay(sessionId);
    await f.runJobs();
    const bought = f.stripe.getSession(sessionId)!.metadata!.vpn_account_id!;
    expect(bought).not.toBe(trialId);
    expect((await accountRow(bought)).master_server_id).toBe(premiumServerId);
    expect((await accountRow(trialId)).plan_id).toBe(f.trialPlanId);
  });

  it('the admin is refused a server that does not exist, services its panel does not offer, and a server twice', async () => {
    const refused = async (servers: unknown, field: string) => {
      const res = await f.call(await admin(), 'POST', '/api/admin/plans', { name: 'Bad', days: 30, dataLimitBytes: GB, price: 100, servers });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(Object.keys(res.json().fields ?? {})).toContain(field);
    };
    await refused([{ serverId: 'no-such-server' }], 'servers.0.serverId');
    await refused([{ serverId: f.serverId, serviceId: '1,9' }], 'servers.0.serviceId');
    await refused([{ serverId: f.serverId }, { serverId: f.serverId }], 'servers.1.serverId');
    await refused('everywhere', 'servers');
    expect(await f.count('plans', { name: 'Bad' })).toBe(0);
    // Only an admin sets them: a customer is forbidden, nobody signed in is unauthorised.
    const customer = await signIn(`customer-${kind}@example.com`);
    const patch = { servers: [{ serverId: premiumServerId }] };
    expect((await f.call(customer, 'PATCH', `/api/admin/plans/${f.paidPlanId}`, patch)).statusCode).toBe(403);
    expect((await f.call(null, 'PATCH', `/api/admin/plans/${f.paidPlanId}`, patch)).statusCode).toBe(401);
    expect((await f.call(await admin(), 'PATCH', '/api/admin/plans/no-such-plan', patch)).statusCode).toBe(404);
  });

  it('a server a plan lists cannot be deleted; taken off the plan, it can', async () => {
    const extra = await f.call(await admin(), 'POST', '/api/admin/servers', {
      kind: 'marzneshin',
      name: 'Spare',
      url: f.panel.url,
      username: f.panel.admin.username,
      password: f.panel.admin.password,
      serviceId: '1',
      premium: true,
    });
    expect(extra.statusCode, extra.body).toBe(201);
    const plan = await createPlan({ name: 'Spare plan', price: 500, servers: [{ serverId: extra.json().id }] });
    const refused = await f.call(await admin(), 'DELETE', `/api/admin/servers/${extra.json().id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'server_in_use' });
    expect(refused.json().message).toContain('Spare plan');
    const cleared = await f.call(await admin(), 'PATCH', `/api/admin/plans/${plan.id}`, { servers: [] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().servers).toEqual([]);
    expect((await f.call(await admin(), 'DELETE', `/api/admin/servers/${extra.json().id}`)).statusCode).toBe(204);
  });
});
