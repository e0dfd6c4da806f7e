import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { asMarzneshinUser, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { startPanelShop, type PanelShop } from '../../../test/panel-shop.js';
import { signInWeb, type TestApp, type WebSession } from '../../../test/test-app.js';

const GB = 1024 ** 3;
const DAY_MS = 24 * 3600_000;

/**
 * One customer in one place: the admin's user page (accounts, subscriptions, transactions, audit,
 * sessions) and its actions (extend, reset usage, disable / enable, delete, sign out everywhere), each
 * acting on the panel and audited.
 */
describe.each(TEST_DATABASES)('admin user page (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let shop: PanelShop;
  let t: TestApp;
  let panel: FakeMarzneshin;
  let customer: WebSession;
  let other: WebSession;
  let freePlanId: string;
  let call: PanelShop['call'];

  const claim = async (session: WebSession) => {
    const res = await call('POST', '/api/accounts', session, { planId: freePlanId });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; username: string; expireDate: string; combinedUrl: string };
  };
  const page = async (userId: string) => (await call('GET', `/api/admin/users/${userId}`)).json();
  const panelUser = (username: string) => asMarzneshinUser(panel.users.get(username));

  beforeAll(async () => {
    shop = await startPanelShop(env);
    ({ t, panel, freePlanId, call } = shop);
    customer = await signInWeb(t, env.smtp, `page-customer-${kind}@example.com`);
    other = await signInWeb(t, env.smtp, `page-other-${kind}@example.com`);
  });
  afterAll(async () => {
    await shop.close();
  });

  it("shows the user's own accounts, payments, sessions and audit, and nobody else's", async () => {
    const mine = await claim(customer);
    const theirs = await claim(other);
    const now = new Date();
    for (const [owner, id] of [
      [customer, `sub-mine-${kind}`],
      [other, `sub-theirs-${kind}`],
    ] as const) {
      await env.database.db('subscriptions').insert({
        id,
        user_id: owner.userId,
        status: 'active',
        metadata: JSON.stringify({ plan_id: 'plan_plus', plan_name: 'Plus', price: 499, kind: 'purchase', days: 30, data_limit: 0, locations: '' }),
        created_at: now,
        updated_at: now,
      });
      await env.database.db('transactions').insert({
        id: `tx-${id}`,
        subscription_id: id,
        user_id: owner.userId,
        status: 'succeeded',
        amount: 499,
        currency: 'usd',
        metadata: '{}',
        created_at: now,
        updated_at: now,
      });
    }
    // The admin sees the server's internal name beside the public one customers see.
    await env.database.db('masterservers').where({ name: 'Germany' }).update({ name: 'fra-1 (internal)' });
    const res = await call('GET', `/api/admin/users/${customer.userId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ id: customer.userId, email: `page-customer-${kind}@example.com`, role: 'user' });
    expect(body.accounts.map((a: { id: string }) => a.id)).toContain(mine.id);
    expect(body.accounts.map((a: { id: string }) => a.id)).not.toContain(theirs.id);
    expect(body.accounts[0]).toMatchObject({ server: { name: 'Germany', locationNumber: null }, serverInternalName: 'fra-1 (internal)', status: 'active' });
    expect(body.subscriptions.map((x: { id: string }) => x.id)).toEqual([`sub-mine-${kind}`]);
    expect(body.transactions).toEqual([
      expect.objectContaining({ id: `tx-sub-mine-${kind}`, amount: 499, status: 'succeeded', userEmail: `page-customer-${kind}@example.com` }),
    ]);
    expect(body.sessions).toEqual([expect.objectContaining({ client: 'web', createdAt: expect.any(String), lastUsedAt: expect.any(String) })]);
    expect(res.body).not.toContain(panel.url);
  });

  it('extends an account on the panel and here, audited on the user page', async () => {
    const account = await claim(customer);
    const before = new Date(account.expireDate).getTime();
    const res = await call('POST', `/api/admin/accounts/${account.id}/extend`, undefined, { days: 10, dataLimitGb: 5 });
    expect(res.statusCode, res.body).toBe(200);
    expect(new Date(res.json().expireDate).getTime()).toBeCloseTo(before + 10 * DAY_MS, -4);
    expect(res.json().dataLimitBytes).toBe(5 * GB);
    expect(panelUser(account.username).data_limit).toBe(5 * GB);
    expect(panelUser(account.username).expire_date!.getTime()).toBeCloseTo(before + 10 * DAY_MS, -4);
    const audit = (await page(customer.userId)).audit;
    expect(audit[0]).toMatchObject({ action: 'account.extend', actorEmail: 'admin@example.com', details: { accountId: account.id, days: 10, dataLimitGb: 5 } });
  });

  it('resets usage, disables (then /sub refuses it) and enables again', async () => {
    const account = await claim(customer);
    panelUser(account.username).used_traffic = 123_456;
    const reset = await call('POST', `/api/admin/accounts/${account.id}/reset-usage`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().usedTrafficBytes).toBe(0);
    expect(panelUser(account.username).used_traffic).toBe(0);

    const disabled = await call('POST', `/api/admin/accounts/${account.id}/disable`);
    expect(disabled.json().status).toBe('disabled');
    expect(panelUser(account.username).enabled).toBe(false);
    const sub = new URL(account.combinedUrl).pathname;
    expect((await call('GET', sub, null, undefined, { 'user-agent': 'v2rayNG/1.8.0' })).statusCode).toBe(403);

    const enabled = await call('POST', `/api/admin/accounts/${account.id}/enable`);
    expect(enabled.json().status).toBe('active');
    expect((await call('GET', sub, null, undefined, { 'user-agent': 'v2rayNG/1.8.0' })).statusCode).toBe(200);
    const actions = (await page(customer.userId)).audit.map((entry: { action: string }) => entry.action);
    expect(actions.slice(0, 3)).toEqual(['account.enable', 'account.disable', 'account.reset_usage']);
  });

  it('deletes an account on the panel and here; the audit entry stays on the user page', async () => {
    const account = await claim(customer);
    const res = await call('DELETE', `/api/admin/accounts/${account.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(panel.users.has(account.username)).toBe(false);
    expect(await env.database.db('vpn_accounts').where({ id: account.id }).first()).toBeUndefined();
    expect((await page(customer.userId)).audit[0]).toMatchObject({ action: 'account.delete', details: { accountId: account.id } });
    expect((await call('DELETE', `/api/admin/accounts/${account.id}`)).statusCode).toBe(404);
  });

  it('changes nothing and says so when the panel does not answer', async () => {
    const account = await claim(customer);
    panel.faults.down = true;
    try {
      const res = await call('POST', `/api/admin/accounts/${account.id}/disable`);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'panel_error', message: expect.any(String) });
    } finally {
      panel.faults.down = false;
    }
    expect((await env.database.db('vpn_accounts').where({ id: account.id }).first()).status).toBe('active');
  });

  it('signs the user out everywhere at once', async () => {
    const victim = await signInWeb(t, env.smtp, `page-signout-${kind}@example.com`);
    const second = await signInWeb(t, env.smtp, `page-signout-${kind}@example.com`);
    expect((await call('GET', '/api/me', victim)).statusCode).toBe(200);
    const res = await call('POST', `/api/admin/users/${victim.userId}/sign-out`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    expect((await call('GET', '/api/me', victim)).statusCode).toBe(401);
    expect((await call('GET', '/api/me', second)).statusCode).toBe(401);
    const body = await page(victim.userId);
    expect(body.sessions).toEqual([]);
    expect(body.audit[0]).toMatchObject({ action: 'user.sign_out_all', details: { revoked: 2 } });
  });

  it('answers 401 signed out, 403 to a customer, 404 for an unknown user or account, 400 for a bad body', async () => {
    const account = await claim(other);
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/api/admin/users/${customer.userId}`],
      ['POST', `/api/admin/users/${customer.userId}/sign-out`],
      ['POST', `/api/admin/accounts/${account.id}/extend`, { days: 1 }],
      ['POST', `/api/admin/accounts/${account.id}/reset-usage`],
      ['POST', `/api/admin/accounts/${account.id}/disable`],
      ['POST', `/api/admin/accounts/${account.id}/enable`],
      ['DELETE', `/api/admin/accounts/${account.id}`],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(method, url, null, body)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, customer, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(panel.users.has(account.username)).toBe(true);
    expect((await call('GET', '/api/admin/users/no-such-user')).statusCode).toBe(404);
    expect((await call('POST', '/api/admin/users/no-such-user/sign-out')).statusCode).toBe(404);
    for (const path of ['extend', 'reset-usage', 'disable', 'enable']) {
      expect((await call('POST', `/api/admin/accounts/no-such-account/${path}`, undefined, path === 'extend' ? { days: 1 } : undefined)).statusCode).toBe(404);
    }
    for (const body of [{}, { days: 0 }, { days: 1.5 }, { days: 1, extra: true }, { dataLimitGb: -1 }]) {
      const res = await call('POST', `/api/admin/accounts/${account.id}/extend`, undefined, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    }
  });
});
