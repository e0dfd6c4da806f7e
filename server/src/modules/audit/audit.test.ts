import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { startPanelShop, type PanelShop } from '../../../test/panel-shop.js';
import { signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';
import { adminActionOf } from './admin-audit-hook.js';
import { csvCell } from './audit-csv.js';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0';

/**
 * The audit trail: every staff change with what it changed (secrets only as "changed"), the customers' security
 * events on their page, and the Audit section's filtered, paged list and CSV export.
 */
describe.each(TEST_DATABASES)('audit trail (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let shop: PanelShop;
  let t: TestApp;
  let call: PanelShop['call'];
  let customer: WebSession;
  const customerEmail = `audit-customer-${kind}@example.com`;

  const audit = async (query = '', session?: WebSession | null) => call('GET', `/api/admin/audit${query}`, session);
  const entries = async (query: string) => {
    const res = await audit(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().entries as Array<{
      action: string;
      details: Record<string, unknown>;
      ip: string | null;
      userId: string | null;
      actorEmail: string | null;
    }>;
  };
  const pageAudit = async (userId: string) =>
    (await call('GET', `/api/admin/users/${userId}`)).json().audit as Array<{ action: string; details: Record<string, unknown>; ip: string | null }>;

  beforeAll(async () => {
    shop = await startPanelShop(env);
    ({ t, call } = shop);
    customer = await signInWeb(t, env.smtp, customerEmail);
  });
  afterAll(async () => {
    await shop.close();
  });

  it('answers 401 signed out, 403 to a customer, and 400 for a bad filter, on both routes', async () => {
    for (const url of ['/api/admin/audit', '/api/admin/audit/export']) {
      expect((await call('GET', url, null)).statusCode).toBe(401);
      expect((await call('GET', url, customer)).statusCode).toBe(403);
      const bad = await call('GET', `${url}?from=yesterday`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('validation_failed');
    }
    expect((await audit('?limit=0')).statusCode).toBe(400);
    expect((await audit('?limit=201')).statusCode).toBe(400);
    expect((await audit('?action=plan%20update')).statusCode).toBe(400);
    expect((await audit('?before=abc')).statusCode).toBe(400);
  });

  it("records a plan's price change with before and after, found by its action and the staff member", async () => {
    const res = await call('PATCH', `/api/admin/plans/${shop.freePlanId}`, undefined, { price: 250 });
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = await entries('?action=plan.update&actor=ADMIN@example.com');
    expect(entry).toMatchObject({ action: 'plan.update', actorEmail: 'admin@example.com', details: { before: { price: 0 }, after: { price: 250 } } });
    expect(await entries('?action=plan.update&actor=someone-else@example.com')).toEqual([]);
    await call('PATCH', `/api/admin/plans/${shop.freePlanId}`, undefined, { price: 0 });
  });

  it('masks secrets: a service entry and a generic one keep "changed", never the password', async () => {
    const body = {
      kind: 'marzneshin',
      name: 'Audit DE',
      url: shop.panel.url,
      username: shop.panel.admin.username,
      password: shop.panel.admin.password,
      serviceId: '1',
      locations: 'all',
    };
    const tested = await call('POST', '/api/admin/servers/test', undefined, body);
    expect(tested.statusCode, tested.body).toBe(200);
    const created = await call('POST', '/api/admin/servers', undefined, body);
    expect(created.statusCode, created.body).toBe(201);
    const [generic] = await entries('?action=admin.servers.test');
    expect(generic).toMatchObject({
      actorEmail: 'admin@example.com',
      details: { route: 'POST /api/admin/servers/test', after: { username: shop.panel.admin.username, password: 'changed' } },
    });
    const rows = await env.database.db('audit_log').select('details');
    expect(JSON.stringify(rows)).not.toContain(shop.panel.admin.password);
  });

  it('writes one generic entry for a staff action whose service wrote none, and none for a refused one', async () => {
    const before = await env.database.db('audit_log').count({ n: '*' }).first();
    const refused = await call('PATCH', `/api/admin/plans/${randomUUID()}`, undefined, { price: 1 });
    expect(refused.statusCode).toBe(404);
    expect((await env.database.db('audit_log').count({ n: '*' }).first())?.n).toEqual(before?.n);
    expect(adminActionOf('PUT', '/api/admin/payments/card')).toBe('admin.payments.card.update');
    expect(adminActionOf('POST', '/api/admin/plans')).toBe('admin.plans.create');
    expect(adminActionOf('POST', '/api/admin/servers/:id/disable')).toBe('admin.servers.disable');
    expect(adminActionOf('DELETE', '/api/admin/accounts/:id/devices/:deviceId')).toBe('admin.accounts.devices.delete');
  });

  it("records a sign-in with its address and device, and a sign-out of every device, on the customer's page", async () => {
    const email = `audit-signin-${kind}@example.com`;
    await t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } });
    await env.smtp.waitFor(email);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      headers: { origin: TEST_ORIGIN, 'user-agent': CHROME },
      remoteAddress: '203.0.113.9',
      payload: { email, code: await env.smtp.latestCode(email) },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const userId = signedIn.json().user.id as string;
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: TEST_ORIGIN, cookie: signedIn.cookies.map((c) => `${c.name}=${c.value}`).join('; ') },
      payload: { scope: 'global' },
    });
    expect(out.statusCode).toBe(204);
    const page = await pageAudit(userId);
    expect(page.map((entry) => entry.action)).toEqual(['auth.sign_out_all', 'auth.sign_in']);
    expect(page[1]).toMatchObject({ ip: '203.0.113.9', details: { client: 'web', device: CHROME } });
    const byEmail = await entries(`?customer=${encodeURIComponent(email)}&action=auth.`);
    expect(byEmail.map((entry) => entry.action)).toEqual(['auth.sign_out_all', 'auth.sign_in']);
  });

  it("records a code locked by wrong tries on the customer's page", async () => {
    t.clock.advance(120);
    await t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email: customerEmail } });
    for (let i = 0; i < 5; i += 1) {
      await t.app.inject({ method: 'POST', url: '/api/auth/verify', headers: { origin: TEST_ORIGIN }, payload: { email: customerEmail, code: '000000' } });
    }
    const [locked] = await entries(`?customer=${customer.userId}&action=auth.code_locked`);
    expect(locked).toMatchObject({ action: 'auth.code_locked', userId: customer.userId });
  });

  it("shows a refund and a device removed (by staff and by the customer) on the customer's page", async () => {
    await t.app.services.audit.record({
      actorId: null,
      actorEmail: null,
      action: 'payments.refund',
      targetType: 'transaction',
      targetId: `tx-${kind}`,
      details: { amount: 499, userId: customer.userId },
      now: t.clock.now(),
    });
    const claimed = await call('POST', '/api/accounts', customer, { planId: shop.freePlanId });
    expect(claimed.statusCode, claimed.body).toBe(201);
    const accountId = claimed.json().id as string;
    const device = () => {
      const id = randomUUID();
      const now = t.clock.now();
      return { id, row: { id, vpn_account_id: accountId, hwid: randomUUID(), os: 'Android', model: 'Pixel', first_seen_at: now, last_seen_at: now } };
    };
    const [byStaff, byCustomer] = [device(), device()];
    await env.database.db('account_devices').insert([byStaff.row, byCustomer.row]);
    expect((await call('DELETE', `/api/admin/accounts/${accountId}/devices/${byStaff.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/accounts/${accountId}/devices/${byCustomer.id}`, customer)).statusCode).toBe(204);
    const actions = (await pageAudit(customer.userId)).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['payments.refund', 'account.device_remove', 'account.device_remove_own']));
    expect((await pageAudit(shop.admin.userId)).map((entry) => entry.action)).not.toContain('account.device_remove_own');
  });

  it('pages newest first with the before cursor', async () => {
    const first = await audit('?limit=2');
    const page = first.json();
    expect(page.entries).toHaveLength(2);
    expect(page.entries[0].id).toBeGreaterThan(page.entries[1].id);
    const next = (await audit(`?limit=2&before=${page.nextCursor}`)).json();
    expect(next.entries[0].id).toBeLessThan(page.entries[1].id);
    const future = (await audit('?from=2999-01-01')).json();
    expect(future).toEqual({ entries: [], nextCursor: null });
    expect((await audit('?customer=nobody@example.com')).json()).toEqual({ entries: [], nextCursor: null });
  });

  it('exports the filtered entries as a CSV attachment whose cells cannot run as formulas', async () => {
    await t.app.services.audit.record({
      actorId: null,
      actorEmail: '=cmd|calc',
      action: 'auth.sign_in',
      targetType: 'user',
      targetId: customer.userId,
      now: t.clock.now(),
    });
    const res = await call('GET', `/api/admin/audit/export?customer=${customer.userId}&action=auth.`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,createdAt,actorEmail,actorId,action,targetType,targetId,userId,ip,details');
    expect(lines.slice(1).every((line) => line.includes('"auth.'))).toBe(true);
    expect(res.body).toContain(`"'=cmd|calc"`);
    expect(res.body).not.toContain('plan.update');
    expect(csvCell('-1+2')).toBe(`"'-1+2"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  });
});
