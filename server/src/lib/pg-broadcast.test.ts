import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/databases.js';
import { startSmtpCatcher, type SmtpCatcher } from '../../test/smtp-catcher.js';
import { bearer, buildTestApp, signInDesktop, type TestApp } from '../../test/test-app.js';
import { createSessionCache } from '../modules/auth/session-cache.js';
import type { SessionWithUser } from '../modules/auth/sessions.repo.js';
import type { UserProfile } from '../modules/users/users.repo.js';
import { createBroadcast } from './broadcast.js';
import { createPgBroadcast, type PgBroadcast } from './pg-broadcast.js';

/** What one instance's broadcast heard on the channel `test`. */
function listening(broadcast: PgBroadcast) {
  const heard: string[] = [];
  broadcast.subscribe('test', (message) => heard.push(message));
  return heard;
}

const up = (...broadcasts: PgBroadcast[]) => expect.poll(() => broadcasts.every((b) => b.hearsOthers()), { timeout: 5000 }).toBe(true);

// Runs when TEST_DATABASE_URL names a PostgreSQL server; .ci/run always sets it.
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('the broadcast over PostgreSQL LISTEN/NOTIFY', () => {
  let shop: TestDatabase;
  let other: TestDatabase;
  const opened: PgBroadcast[] = [];
  const open = (database: TestDatabase, options: Partial<Parameters<typeof createPgBroadcast>[0]> = {}) => {
    const broadcast = createPgBroadcast({ db: database.db, ...options });
    opened.push(broadcast);
    return broadcast;
  };

  beforeEach(async () => {
    [shop, other] = await Promise.all([createTestDatabase('postgres'), createTestDatabase('postgres')]);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((broadcast) => broadcast.close()));
    await Promise.all([shop.destroy(), other.destroy()]);
  });

  it('is what createBroadcast gives on PostgreSQL without Redis', async () => {
    const broadcast = createBroadcast({ db: shop.db });
    try {
      await expect.poll(() => broadcast.hearsOthers(), { timeout: 5000 }).toBe(true);
      expect((broadcast as PgBroadcast).listenerPid()).toEqual(expect.any(Number));
    } finally {
      await broadcast.close();
    }
  });

  it('carries a message to the other instances on the same schema, and runs it once on the sender', async () => {
    const [one, two] = [open(shop), open(shop)];
    const [heardOne, heardTwo] = [listening(one), listening(two)];
    await up(one, two);
    one.publish('test', 'from one');
    expect(heardOne).toEqual(['from one']);
    await expect.poll(() => heardTwo, { timeout: 3000 }).toEqual(['from one']);
    // NOTIFYs reach a listener in commit order: once one hears two's reply, its own echo has come (and been skipped).
    two.publish('test', 'from two');
    await expect.poll(() => heardOne, { timeout: 3000 }).toEqual(['from one', 'from two']);
    expect(heardTwo).toEqual(['from one', 'from two']);
  });

  it('is not heard by instances on another schema of the same database', async () => {
    const [shopOne, shopTwo, otherOne, otherTwo] = [open(shop), open(shop), open(other), open(other)];
    const heardShopTwo = listening(shopTwo);
    const heardOther = listening(otherTwo);
    listening(otherOne);
    await up(shopOne, shopTwo, otherOne, otherTwo);
    shopOne.publish('test', 'shop');
    await expect.poll(() => heardShopTwo, { timeout: 3000 }).toEqual(['shop']);
    // Committed after the shop's message: had the other schema heard the shop, it would have heard that first.
    otherOne.publish('test', 'other');
    await expect.poll(() => heardOther, { timeout: 3000 }).toEqual(['other']);
  });

  it('listens again after its connection is killed, says it is deaf meanwhile, and then tells its caches to resume', async () => {
    const one = open(shop, { retryMs: { first: 1500, max: 1500 } });
    const two = open(shop);
    const heard = listening(one);
    let resumed = 0;
    one.onResume(() => (resumed += 1));
    const loads: string[] = [];
    const user = { id: 'u1', email: 'u1@example.com', role: 'user', trialUsed: false } as UserProfile;
    const cache = createSessionCache({
      load: async (sessionId): Promise<SessionWithUser> => {
        loads.push(sessionId);
        return { sessionId, expiresAt: new Date('2030-01-01T00:00:00Z'), revokedAt: null, user };
      },
      broadcast: one,
      now: () => 0,
    });
    await up(one, two);
    await cache.find('s1');
    await cache.find('s1');
    expect(loads).toEqual(['s1']);

    const pid = one.listenerPid()!;
    await shop.db.raw('select pg_terminate_backend(?)', [pid]);
    await expect.poll(() => one.hearsOthers(), { timeout: 3000 }).toBe(false);
    // Deaf: a sign-out elsewhere could be missed, so every lookup reads the database.
    await cache.find('s1');
    await cache.find('s1');
    expect(loads).toEqual(['s1', 's1', 's1']);
    expect(resumed).toBe(0);

    await expect.poll(() => one.hearsOthers(), { timeout: 5000 }).toBe(true);
    expect(one.listenerPid()).not.toBe(pid);
    expect(resumed).toBe(1);
    two.publish('test', 'after the gap');
    await expect.poll(() => heard, { timeout: 3000 }).toEqual(['after the gap']);
  });

  it('runs a message too long for NOTIFY here, and reports that the others were not told', async () => {
    const errors: Error[] = [];
    const [one, two] = [open(shop, { onError: (err) => errors.push(err) }), open(shop)];
    const [heardOne, heardTwo] = [listening(one), listening(two)];
    await up(one, two);
    one.publish('test', 'x'.repeat(8000));
    one.publish('test', 'short');
    expect(heardOne).toHaveLength(2);
    expect(errors.map((err) => err.message)).toEqual([expect.stringContaining('too long')]);
    await expect.poll(() => heardTwo, { timeout: 3000 }).toEqual(['short']);
  });
});

/** Two app instances on one PostgreSQL schema without Redis: a settings change on one shows on the other at once, not after the cache's lifetime. */
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('cached settings across instances on PostgreSQL without Redis', () => {
  let database: TestDatabase;
  let smtp: SmtpCatcher;
  let one: TestApp;
  let two: TestApp;

  beforeEach(async () => {
    database = await createTestDatabase('postgres');
    smtp = await startSmtpCatcher();
    const env = { ADMIN_EMAILS: 'admin@example.com' };
    one = await buildTestApp({ db: database.db, smtp, env });
    two = await buildTestApp({ db: database.db, smtp, env });
    await expect.poll(() => one.app.services.broadcast.hearsOthers() && two.app.services.broadcast.hearsOthers(), { timeout: 5000 }).toBe(true);
  });
  afterEach(async () => {
    await one.app.close();
    await two.app.close();
    await smtp.close();
    await database.destroy();
  });

  it('the brand saved on one instance is on /api/config of the other at once', async () => {
    expect((await two.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ brandName: 'Lumen VPN' });
    const admin = await signInDesktop(one, smtp, 'admin@example.com');
    const saved = await one.app.inject({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: bearer(admin.accessToken),
      payload: { brandName: 'Everywhere VPN' },
    });
    expect(saved.statusCode).toBe(200);
    // The other instance's clock has not moved: only the broadcast can have told it.
    await expect.poll(async () => (await two.app.inject({ method: 'GET', url: '/api/config' })).json().brandName, { timeout: 3000 }).toBe('Everywhere VPN');
  });
});
