import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/databases.js';
import { startSmtpCatcher, type SmtpCatcher } from '../../test/smtp-catcher.js';
import { bearer, buildTestApp, signInDesktop, type TestApp } from '../../test/test-app.js';
import { createBroadcast } from './broadcast.js';
import { createChangeSignal } from './change-signal.js';

const redisUrl = process.env.TEST_REDIS_URL;

describe('the change signal', () => {
  it('without Redis, moves on every change made here', async () => {
    const signal = createChangeSignal(createBroadcast({}));
    const before = signal.version();
    signal.changed();
    signal.changed();
    expect(signal.version()).toBe(before + 2);
  });

  // Runs when TEST_REDIS_URL names a Redis server; .ci/run always sets it.
  it.runIf(Boolean(redisUrl))('with Redis, a change on one instance moves every other instance', async () => {
    const [busA, busB] = [createBroadcast({ redisUrl }), createBroadcast({ redisUrl })];
    const [a, b] = [createChangeSignal(busA), createChangeSignal(busB)];
    try {
      await new Promise((resolve) => setTimeout(resolve, 300)); // both subscribed
      const before = b.version();
      a.changed();
      await expect.poll(() => b.version(), { timeout: 3000 }).toBeGreaterThan(before);
    } finally {
      await Promise.all([busA.close(), busB.close()]);
    }
  });
});

/** Two app instances on one database: a settings change on one shows on the other at once (Redis), not after the cache's lifetime. */
describe.runIf(Boolean(redisUrl))('cached settings across instances', () => {
  let database: TestDatabase;
  let smtp: SmtpCatcher;
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    smtp = await startSmtpCatcher();
    const env = { ADMIN_EMAILS: 'admin@example.com', REDIS_URL: redisUrl! };
    one = await buildTestApp({ db: database.db, smtp, env });
    two = await buildTestApp({ db: database.db, smtp, env });
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  afterAll(async () => {
    await one.app.close();
    await two.app.close();
    await smtp.close();
    await database.destroy();
  });

  it('the brand saved on one instance is on the pages and /api/config of the other at once', async () => {
    expect((await two.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ brandName: 'Lumen VPN' });
    const admin = await signInDesktop(one, smtp, 'admin@example.com');
    const saved = await one.app.inject({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: bearer(admin.accessToken),
      payload: { brandName: 'Everywhere VPN' },
    });
    expect(saved.statusCode).toBe(200);
    // The other instance's clock has not moved: only the signal can have told it.
    await expect.poll(async () => (await two.app.inject({ method: 'GET', url: '/api/config' })).json().brandName, { timeout: 3000 }).toBe('Everywhere VPN');
    expect((await two.app.inject({ method: 'GET', url: '/' })).body).toContain('Everywhere VPN');
  });
});
