import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';
import { runAdminCommand } from '../../cli/admin.js';
import { parseJson } from '../../db/values.js';

describe.each(TEST_DATABASES)('users and roles (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let user: WebSession;

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com' } });
    admin = await signInWeb(t, env.smtp, 'admin@example.com');
    user = await signInWeb(t, env.smtp, 'user@example.com');
  });
  afterAll(async () => {
    await t.app.close();
  });

  const listUsers = (cookie?: string, query = '') => t.app.inject({ method: 'GET', url: `/api/admin/users${query}`, headers: cookie ? { cookie } : {} });
  const patchUser = (cookie: string, id: string, payload: unknown) =>
    t.app.inject({ method: 'PATCH', url: `/api/admin/users/${id}`, headers: { cookie, origin: TEST_ORIGIN }, payload: payload as object });

  it('answers 401 to a signed-out visitor and 403 to a user on admin routes', async () => {
    const signedOut = await listUsers();
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().code).toBe('unauthenticated');
    const asUser = await listUsers(user.cookie);
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toEqual({ code: 'forbidden', message: expect.any(String) });
  });

  it('refuses a user changing roles, and changes nothing', async () => {
    const res = await patchUser(user.cookie, user.userId, { role: 'admin' });
    expect(res.statusCode).toBe(403);
    expect((await env.database.db('user_profiles').where({ id: user.userId }).first()).role).toBe('user');
  });

  it('lists users for an admin, with a search', async () => {
    const all = await listUsers(admin.cookie);
    expect(all.statusCode).toBe(200);
    expect(all.json().map((u: { email: string }) => u.email)).toEqual(expect.arrayContaining(['admin@example.com', 'user@example.com']));
    const found = await listUsers(admin.cookie, '?q=USER@');
    expect(found.json()).toEqual([{ id: user.userId, email: 'user@example.com', role: 'user', trialUsed: false, createdAt: expect.any(String) }]);
    const wildcard = await listUsers(admin.cookie, '?q=%25');
    expect(wildcard.json()).toEqual([]);
  });

  it('lets an admin change a role and the trial flag, and records it in the audit log', async () => {
    const res = await patchUser(admin.cookie, user.userId, { trialUsed: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.userId, trialUsed: true, role: 'user' });
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: user.cookie } });
    expect(me.json().trialUsed).toBe(true);
    const audit = await env.database.db('audit_log').where({ action: 'user.update', target_id: user.userId }).first();
    expect(audit).toMatchObject({ actor_email: 'admin@example.com' });
    expect(parseJson(audit.details, {})).toEqual({ before: { trialUsed: false }, after: { trialUsed: true } });
  });

  it('answers 404 for an unknown user and 400 for a bad body', async () => {
    expect((await patchUser(admin.cookie, 'no-such-user', { role: 'admin' })).statusCode).toBe(404);
    const bad = await patchUser(admin.cookie, user.userId, { role: 'superuser' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', fields: { role: expect.any(String) } });
    expect((await patchUser(admin.cookie, user.userId, {})).statusCode).toBe(400);
    expect((await patchUser(admin.cookie, user.userId, { role: 'admin', email: 'x@y.z' })).statusCode).toBe(400);
  });

  it('does not let the owner change their own role, nor leave the store without an owner', async () => {
    const res = await patchUser(admin.cookie, admin.userId, { role: 'user' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('cannot_demote_self');
    const cli = await runAdminCommand(t.app.services, ['revoke', 'admin@example.com']);
    expect(cli).toEqual({ output: 'The store needs an owner: make someone else owner first.', exitCode: 1 });
    expect((await env.database.db('user_profiles').where({ id: admin.userId }).first()).role).toBe('owner');
  });

  it('takes effect at once: a promoted user reaches admin routes on the next request', async () => {
    const promoted = await signInWeb(t, env.smtp, 'promoted@example.com');
    expect((await listUsers(promoted.cookie)).statusCode).toBe(403);
    await patchUser(admin.cookie, promoted.userId, { role: 'admin' });
    expect((await listUsers(promoted.cookie)).statusCode).toBe(200);
  });

  describe('the admin command line', () => {
    it('grants and revokes the admin role, creating the profile when needed', async () => {
      expect(await runAdminCommand(t.app.services, ['grant', 'New.Boss@Example.com'])).toEqual({
        output: 'new.boss@example.com is now an admin.',
        exitCode: 0,
      });
      expect((await env.database.db('user_profiles').where({ email: 'new.boss@example.com' }).first()).role).toBe('admin');
      expect((await runAdminCommand(t.app.services, ['list'])).output).toContain('new.boss@example.com');
      expect(await runAdminCommand(t.app.services, ['grant', 'new.boss@example.com'])).toEqual({
        output: 'new.boss@example.com already was an admin.',
        exitCode: 0,
      });
      expect(await runAdminCommand(t.app.services, ['grant', 'new.boss@example.com', 'finance'])).toEqual({
        output: 'new.boss@example.com is now finance.',
        exitCode: 0,
      });
      expect((await runAdminCommand(t.app.services, ['list'])).output).toContain('new.boss@example.com  finance');
      expect(await runAdminCommand(t.app.services, ['revoke', 'new.boss@example.com'])).toEqual({
        output: 'new.boss@example.com is no longer staff.',
        exitCode: 0,
      });
      expect((await env.database.db('user_profiles').where({ email: 'new.boss@example.com' }).first()).role).toBe('user');
    });

    it('a role it grants takes effect at once for a signed-in user (the same services as the app: cached sessions forgotten)', async () => {
      const promoted = await signInWeb(t, env.smtp, 'cli.promoted@example.com');
      expect((await listUsers(promoted.cookie)).statusCode).toBe(403);
      expect((await runAdminCommand(t.app.services, ['grant', 'cli.promoted@example.com'])).exitCode).toBe(0);
      expect((await listUsers(promoted.cookie)).statusCode).toBe(200);
    });

    it('refuses a bad address or command with exit code 2', async () => {
      expect((await runAdminCommand(t.app.services, ['grant', 'not-an-email'])).exitCode).toBe(2);
      expect((await runAdminCommand(t.app.services, ['promote', 'a@b.co'])).exitCode).toBe(2);
      expect(await runAdminCommand(t.app.services, ['grant', 'a@b.co', 'superuser'])).toEqual({
        output: 'Not a staff role: superuser (owner, admin, support or finance)',
        exitCode: 2,
      });
      expect((await runAdminCommand(t.app.services, [])).output).toContain('Usage');
    });
  });
});
