import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROLES, type StaffRole } from '../../shared/auth.js';
import { TEST_DATABASES } from '../test/databases.js';
import { useTestEnvironment } from '../test/environment.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../test/test-app.js';
import { parseJson } from './db/values.js';
import { allows, ROUTE_PERMISSIONS } from './lib/staff-policy.js';

interface Route {
  method: string;
  url: string;
}

/** A record that does not exist: a role let through finds nothing to change, so walking every route changes nothing. */
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

describe.each(TEST_DATABASES)('staff roles (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  const registered: Route[] = [];
  const staff = {} as Record<StaffRole, DesktopSession>;
  let customer: DesktopSession;

  beforeAll(async () => {
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: 'owner@example.com' },
      overrides: { onRoute: ({ method, url }) => [method].flat().forEach((m) => registered.push({ method: m, url })) },
    });
    await t.app.ready();
    staff.owner = await signInDesktop(t, env.smtp, 'owner@example.com');
    for (const role of ['admin', 'support', 'finance'] as const) {
      const granted = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/staff',
        headers: bearer(staff.owner.accessToken),
        payload: { email: `${role}@example.com`, role },
      });
      expect(granted.statusCode).toBe(200);
      staff[role] = await signInDesktop(t, env.smtp, `${role}@example.com`);
    }
    customer = await signInDesktop(t, env.smtp, 'customer@example.com');
  });
  afterAll(async () => {
    await t.app.close();
  });

  const call = (session: DesktopSession, method: string, url: string, payload: object = {}) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(session.accessToken), payload: method === 'GET' ? undefined : payload });

  function adminRoutes(): Route[] {
    return registered.filter((route) => route.url.startsWith('/api/admin/') && route.method !== 'HEAD');
  }

  it('maps every admin route to a permission, and nothing else', () => {
    const keys = adminRoutes().map((route) => `${route.method} ${route.url}`);
    expect(keys.filter((key) => !(key in ROUTE_PERMISSIONS))).toEqual([]);
    expect(Object.keys(ROUTE_PERMISSIONS).filter((key) => !keys.includes(key))).toEqual([]);
  });

  it('lets each role through exactly the routes the policy gives it, and refuses the rest with role_forbidden', async () => {
    const roles = () => env.database.db('user_profiles').orderBy('email').select('email', 'role');
    const before = await roles();
    for (const route of adminRoutes()) {
      const url = route.url.replace(/:[A-Za-z]+/g, NO_SUCH_ID);
      for (const role of STAFF_ROLES) {
        const res = await call(staff[role], route.method, url);
        const label = `${role}: ${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 120)}`;
        if (allows(role, route.method, route.url, {})) {
          expect(res.statusCode, label).not.toBe(403);
          expect(res.statusCode, label).toBeLessThan(500);
        } else {
          expect(res.statusCode, label).toBe(403);
          expect(res.json().code, label).toBe('role_forbidden');
        }
      }
    }
    // The walk named no record and sent empty bodies (an empty settings change at most): nobody's role moved.
    expect(await roles()).toEqual(before);
  });

  it('support: a customer page yes; refunds, payment keys and settings no', async () => {
    expect((await call(staff.support, 'GET', `/api/admin/users/${customer.userId}`)).statusCode).toBe(200);
    expect((await call(staff.support, 'POST', `/api/admin/accounts/${NO_SUCH_ID}/extend`, { days: 1 })).statusCode).toBe(404);
    for (const [method, url] of [
      ['POST', `/api/admin/transactions/${NO_SUCH_ID}/refund`],
      ['PUT', '/api/admin/payments/card'],
      ['PUT', '/api/admin/settings'],
      ['GET', '/api/admin/settings'],
      ['POST', `/api/admin/users/${customer.userId}/wallet`],
    ] as const) {
      const res = await call(staff.support, method, url, { amount: 100 });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('role_forbidden');
    }
  });

  it('finance: payments, refunds and reports; not customers changed, settings or staff', async () => {
    expect((await call(staff.finance, 'GET', '/api/admin/transactions')).statusCode).toBe(200);
    expect((await call(staff.finance, 'GET', '/api/admin/overview')).statusCode).toBe(200);
    expect((await call(staff.finance, 'POST', `/api/admin/transactions/${NO_SUCH_ID}/refund`, {})).statusCode).not.toBe(403);
    expect((await call(staff.finance, 'PATCH', `/api/admin/users/${customer.userId}`, { trialUsed: true })).statusCode).toBe(403);
    expect((await call(staff.finance, 'GET', '/api/admin/system')).statusCode).toBe(403);
  });

  it('admin: everything but staff and payment keys', async () => {
    expect((await call(staff.admin, 'GET', '/api/admin/settings')).statusCode).toBe(200);
    expect((await call(staff.admin, 'GET', '/api/admin/staff')).statusCode).toBe(403);
    const grant = await call(staff.admin, 'PUT', '/api/admin/staff', { email: 'customer@example.com', role: 'admin' });
    expect(grant.statusCode).toBe(403);
    const patch = await call(staff.admin, 'PATCH', `/api/admin/users/${customer.userId}`, { role: 'support' });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().code).toBe('role_forbidden');
    expect((await call(staff.admin, 'PUT', '/api/admin/payments/card', {})).json().code).toBe('role_forbidden');
    expect((await env.database.db('user_profiles').where({ id: customer.userId }).first()).role).toBe('user');
  });

  it('support sends a customer a sign-in code to their own address, never shown to staff', async () => {
    // Someone who never asked for a code (one who just did waits out the resend time, as on the form).
    const id = randomUUID();
    const now = new Date();
    await env.database.db('user_profiles').insert({ id, email: 'quiet@example.com', role: 'user', trial_used: false, created_at: now, updated_at: now });
    const before = env.smtp.messages.length;
    const sent = await call(staff.support, 'POST', `/api/admin/users/${id}/send-code`);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ sent: true });
    await env.smtp.waitFor('quiet@example.com', { after: before });
    expect(sent.body).not.toContain(await env.smtp.latestCode('quiet@example.com'));
    const again = await call(staff.support, 'POST', `/api/admin/users/${id}/send-code`);
    expect(again.statusCode).toBe(429);
    expect((await call(staff.finance, 'POST', `/api/admin/users/${id}/send-code`)).statusCode).toBe(403);
    expect((await call(staff.support, 'POST', `/api/admin/users/${NO_SUCH_ID}/send-code`)).statusCode).toBe(404);
    const entry = await env.database.db('audit_log').where({ action: 'user.sign_in_code_sent', target_id: id }).first();
    expect(entry).toMatchObject({ actor_email: 'support@example.com' });
  });

  it('a customer is refused with forbidden on the staff routes', async () => {
    const res = await call(customer, 'GET', '/api/admin/staff');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/staff' })).statusCode).toBe(401);
  });

  it('the owner lists staff and changes roles, recorded with before and after; bad input is a 400', async () => {
    const list = await call(staff.owner, 'GET', '/api/admin/staff');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((member: { email: string; role: string }) => `${member.email} ${member.role}`)).toEqual([
      'admin@example.com admin',
      'finance@example.com finance',
      'owner@example.com owner',
      'support@example.com support',
    ]);
    const promoted = await call(staff.owner, 'PUT', '/api/admin/staff', { email: 'Customer@Example.com', role: 'support' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ id: customer.userId, role: 'support' });
    expect((await call(customer, 'GET', `/api/admin/users/${customer.userId}`)).statusCode).toBe(200);
    const entry = await env.database.db('audit_log').where({ action: 'user.role', target_id: customer.userId }).first();
    expect(entry).toMatchObject({ actor_email: 'owner@example.com' });
    expect(parseJson(entry.details, {})).toEqual({ before: { role: 'user' }, after: { role: 'support' } });

    expect((await call(staff.owner, 'PUT', '/api/admin/staff', { email: 'customer@example.com', role: 'user' })).json().role).toBe('user');
    expect((await call(customer, 'GET', `/api/admin/users/${customer.userId}`)).statusCode).toBe(403);
    for (const payload of [{ email: 'nope', role: 'admin' }, { email: 'a@b.co', role: 'god' }, { email: 'a@b.co' }]) {
      expect((await call(staff.owner, 'PUT', '/api/admin/staff', payload)).statusCode).toBe(400);
    }
  });

  it('names each admin route’s roles in the OpenAPI document', async () => {
    const paths = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths;
    expect(paths['/api/admin/transactions/{id}/refund'].post['x-roles']).toEqual(['owner', 'admin', 'finance']);
    expect(paths['/api/admin/staff'].put['x-roles']).toEqual(['owner']);
    expect(paths['/api/admin/users/{id}'].get['x-roles']).toEqual(['owner', 'admin', 'support', 'finance']);
    expect(paths['/api/admin/users/{id}'].patch['x-roles']).toEqual(['owner', 'admin', 'support']);
  });

  it('keeps an owner when two owners take each other’s role at once', async () => {
    const second = await call(staff.owner, 'PUT', '/api/admin/staff', { email: 'admin@example.com', role: 'owner' });
    expect(second.statusCode).toBe(200);
    const [first, other] = await Promise.all([
      call(staff.owner, 'PUT', '/api/admin/staff', { email: 'admin@example.com', role: 'admin' }),
      call(staff.admin, 'PUT', '/api/admin/staff', { email: 'owner@example.com', role: 'admin' }),
    ]);
    expect([first.statusCode, other.statusCode].filter((status) => status === 200)).toHaveLength(1);
    const owners = await env.database.db('user_profiles').where({ role: 'owner' }).pluck('email');
    expect(owners).toHaveLength(1);
  });
});
