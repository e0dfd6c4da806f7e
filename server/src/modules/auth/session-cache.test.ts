import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { startSmtpCatcher, type SmtpCatcher } from '../../../test/smtp-catcher.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../test/test-app.js';
import { createBroadcast } from '../../lib/broadcast.js';
import type { UserProfile } from '../users/users.repo.js';
import { createSessionCache } from './session-cache.js';
import type { SessionWithUser } from './sessions.repo.js';

const redisUrl = process.env.TEST_REDIS_URL;

const session = (sessionId: string, userId: string): SessionWithUser => ({
  sessionId,
  expiresAt: new Date('2030-01-01T00:00:00Z'),
  revokedAt: null,
  user: { id: userId, email: `${userId}@example.com`, role: 'user', trialUsed: false } as UserProfile,
});

describe('the session cache', () => {
  let loads: string[];
  let at: number;
  const make = (enabled = true) => {
    loads = [];
    at = 0;
    return createSessionCache({
      load: async (sessionId) => {
        loads.push(sessionId);
        return session(sessionId, sessionId.startsWith('a') ? 'user-a' : 'user-b');
      },
      broadcast: createBroadcast({}),
      enabled,
      now: () => at,
      ttlMs: 1000,
    });
  };

  it('reads a session once while it is fresh, and again after its lifetime', async () => {
    const cache = make();
    await cache.find('a1');
    await cache.find('a1');
    expect(loads).toEqual(['a1']);
    at = 1000;
    await cache.find('a1');
    expect(loads).toEqual(['a1', 'a1']);
  });

  it('forgets one session, or every session of a user, at once', async () => {
    const cache = make();
    await Promise.all(['a1', 'a2', 'b1'].map((id) => cache.find(id)));
    cache.forgetSession('b1');
    await cache.find('b1');
    expect(loads.filter((id) => id === 'b1')).toHaveLength(2);
    cache.forgetUser('user-a');
    await Promise.all(['a1', 'a2', 'b1'].map((id) => cache.find(id)));
    expect(loads).toEqual(['a1', 'a2', 'b1', 'b1', 'a1', 'a2']);
  });

  it('forgets a lookup still in flight when its user changes (it may hold the old row)', async () => {
    const cache = make();
    const pending = cache.find('a1');
    cache.forgetUser('user-a');
    await pending;
    await cache.find('a1');
    expect(loads).toEqual(['a1', 'a1']);
  });

  it('reads the database every time when disabled', async () => {
    const cache = make(false);
    await cache.find('a1');
    await cache.find('a1');
    expect(loads).toEqual(['a1', 'a1']);
  });
});

/** Two instances of the app on one database, as an operator runs them behind a load balancer. */
function twoInstances(kind: (typeof TEST_DATABASES)[number], env: Record<string, string>) {
  const state = {} as { database: TestDatabase; smtp: SmtpCatcher; one: TestApp; two: TestApp; user: DesktopSession };
  beforeEach(async () => {
    state.database = await createTestDatabase(kind);
    state.smtp = await startSmtpCatcher();
    const options = { db: state.database.db, smtp: state.smtp, env: { ADMIN_EMAILS: 'admin@example.com', ...env } };
    state.one = await buildTestApp(options);
    state.two = await buildTestApp(options);
    // Both hear the other (Redis subscription or PostgreSQL LISTEN up), and Redis has subscribed to the channels.
    await expect.poll(() => state.one.app.services.broadcast.hearsOthers() && state.two.app.services.broadcast.hearsOthers(), { timeout: 5000 }).toBe(true);
    if (env.REDIS_URL) await new Promise((resolve) => setTimeout(resolve, 300));
    state.user = await signInDesktop(state.one, state.smtp, 'user@example.com');
  });
  afterEach(async () => {
    await state.one.app.close();
    await state.two.app.close();
    await state.smtp.close();
    await state.database.destroy();
  });
  return state;
}

const me = (t: TestApp, token: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });

describe.each(TEST_DATABASES)('sign-out and role changes take effect at once (%s)', (kind) => {
  // SQLite is one instance; on PostgreSQL without Redis, instances tell each other through LISTEN/NOTIFY.
  const s = twoInstances(kind, {});

  it('a signed-out token is refused at once, even right after it was served from the cache', async () => {
    expect((await me(s.one, s.user.accessToken)).statusCode).toBe(200);
    expect((await me(s.one, s.user.accessToken)).statusCode).toBe(200);
    const out = await s.one.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(s.user.accessToken), payload: { scope: 'local' } });
    expect(out.statusCode).toBe(204);
    expect((await me(s.one, s.user.accessToken)).statusCode).toBe(401);
    if (kind === 'postgres') expect((await me(s.two, s.user.accessToken)).statusCode).toBe(401);
  });

  it('a user made admin reaches the admin API at once, and loses it at once', async () => {
    const admin = await signInDesktop(s.one, s.smtp, 'admin@example.com');
    expect((await s.one.app.inject({ method: 'GET', url: '/api/admin/settings', headers: bearer(s.user.accessToken) })).statusCode).toBe(403);
    const promote = await s.one.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${s.user.userId}`,
      headers: bearer(admin.accessToken),
      payload: { role: 'admin' },
    });
    expect(promote.statusCode).toBe(200);
    expect((await me(s.one, s.user.accessToken)).json().role).toBe('admin');
    await s.one.app.inject({ method: 'PATCH', url: `/api/admin/users/${s.user.userId}`, headers: bearer(admin.accessToken), payload: { role: 'user' } });
    expect((await s.one.app.inject({ method: 'GET', url: '/api/admin/settings', headers: bearer(s.user.accessToken) })).statusCode).toBe(403);
    if (kind === 'postgres') expect((await me(s.two, s.user.accessToken)).json().role).toBe('user');
  });
});

/** The session id inside an access token (its `sid` claim). */
const sessionIdOf = (accessToken: string): string => JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid;

// Runs when TEST_DATABASE_URL names a PostgreSQL server; .ci/run always sets it.
describe.runIf(TEST_DATABASES.includes('postgres'))('on PostgreSQL without Redis, across instances', () => {
  const s = twoInstances('postgres', {});

  it('a sign-out on one instance is refused on the other at once, though the other had it cached', async () => {
    const probe = await signInDesktop(s.one, s.smtp, 'user@example.com');
    expect((await me(s.two, s.user.accessToken)).statusCode).toBe(200);
    expect((await me(s.two, probe.accessToken)).statusCode).toBe(200);
    // Revoked behind the app's back (no message): the other instance still serves it from its cache.
    await s.database
      .db('sessions')
      .where({ id: sessionIdOf(probe.accessToken) })
      .update({ revoked_at: new Date(), revoked_reason: 'logout' });
    expect((await me(s.two, probe.accessToken)).statusCode).toBe(200);

    const out = await s.one.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(s.user.accessToken), payload: { scope: 'global' } });
    expect(out.statusCode).toBe(204);
    // The other instance's clock has not moved: only the broadcast can have told it.
    await expect.poll(async () => (await me(s.two, s.user.accessToken)).statusCode, { timeout: 3000, interval: 20 }).toBe(401);
    expect((await me(s.two, probe.accessToken)).statusCode).toBe(401);
  });

  it('a role change on one instance shows on the other at once', async () => {
    const admin = await signInDesktop(s.one, s.smtp, 'admin@example.com');
    expect((await me(s.two, s.user.accessToken)).json().role).toBe('user');
    await s.one.app.inject({ method: 'PATCH', url: `/api/admin/users/${s.user.userId}`, headers: bearer(admin.accessToken), payload: { role: 'admin' } });
    await expect.poll(async () => (await me(s.two, s.user.accessToken)).json().role, { timeout: 3000, interval: 20 }).toBe('admin');
  });
});

// Runs when TEST_REDIS_URL names a Redis server; .ci/run always sets it.
describe.runIf(Boolean(redisUrl)).each(TEST_DATABASES)('with Redis, across instances (%s)', (kind) => {
  const s = twoInstances(kind, { REDIS_URL: redisUrl! });

  it('a sign-out on one instance is refused on the other at once, though the other had it cached', async () => {
    expect((await me(s.two, s.user.accessToken)).statusCode).toBe(200);
    await s.one.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(s.user.accessToken), payload: { scope: 'global' } });
    // The other instance's clock has not moved: only the broadcast can have told it.
    await expect.poll(async () => (await me(s.two, s.user.accessToken)).statusCode, { timeout: 3000, interval: 20 }).toBe(401);
  });

  it('a role change on one instance shows on the other at once', async () => {
    const admin = await signInDesktop(s.one, s.smtp, 'admin@example.com');
    expect((await me(s.two, s.user.accessToken)).json().role).toBe('user');
    await s.one.app.inject({ method: 'PATCH', url: `/api/admin/users/${s.user.userId}`, headers: bearer(admin.accessToken), payload: { role: 'admin' } });
    await expect.poll(async () => (await me(s.two, s.user.accessToken)).json().role, { timeout: 3000, interval: 20 }).toBe('admin');
  });
});
