/**
 * The monthly reset on the other three panel kinds (Marzneshin is plan-traffic.test.ts's): the store's job resets the
 * used data through each driver (each panel's own reset call, once), sets the month's limit with the unused data
 * carried over, and a user the panel had limited for data runs again. Panel behaviour is not database behaviour:
 * SQLite only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { schedulePeriodicJob } from '../../../jobs/periodic-jobs.js';
import { GB, useBillingFixture, type FixturePanel } from '../../../../test/billing-fixture.js';
import { asMarzbanUser, startFakeMarzban, type FakeMarzban } from '../../../../test/fake-panels/marzban.js';
import { startFakePasarguard, type FakePasarguard } from '../../../../test/fake-panels/pasarguard.js';
import { startFakeRemnawave, type FakeRemnawave } from '../../../../test/fake-panels/remnawave.js';
import { SCAN_PLAN_TRAFFIC } from './scan-plan-traffic.js';
import { monthStart } from './traffic-months.js';

type Fake = FakeMarzban | FakeRemnawave | FakePasarguard;

/** What each kind needs: its fake, the body that adds it, and its user's data as the panel keeps it. */
interface Kind {
  name: 'marzban' | 'remnawave' | 'pasarguard';
  start(): Promise<Fake>;
  serverBody(fake: Fake): Record<string, unknown>;
  /** The customer used `bytes`: the panel marks the user limited when that is all of it. */
  use(fake: Fake, username: string, bytes: number): void;
  read(fake: Fake, username: string): { used: number; limit: number | null; running: boolean };
}

const marzban: Kind = {
  name: 'marzban',
  start: () => startFakeMarzban(),
  serverBody: (fake) => {
    const { admin } = fake as FakeMarzban;
    return { kind: 'marzban', name: 'Marz', url: fake.url, username: admin.username, password: admin.password, serviceId: 'all', locations: 'all' };
  },
  use: (fake, username, bytes) => {
    const user = asMarzbanUser((fake as FakeMarzban).users.get(username));
    user.used_traffic = bytes;
    if (user.data_limit && bytes >= user.data_limit) user.status = 'limited';
  },
  read: (fake, username) => {
    const user = asMarzbanUser((fake as FakeMarzban).users.get(username));
    return { used: user.used_traffic, limit: user.data_limit, running: user.status === 'active' };
  },
};

const remnawave: Kind = {
  name: 'remnawave',
  start: () => startFakeRemnawave(),
  serverBody: (fake) => ({
    kind: 'remnawave',
    name: 'Remna',
    url: fake.url,
    apiToken: (fake as FakeRemnawave).apiToken,
    serviceId: '6f1c2d4e-3b5a-4c7d-8e9f-0a1b2c3d4e5f',
    locations: 'all',
  }),
  use: (fake, username, bytes) => {
    const user = (fake as FakeRemnawave).users.get(username)!;
    user.usedTrafficBytes = bytes;
    if (user.trafficLimitBytes && bytes >= user.trafficLimitBytes) user.status = 'LIMITED';
  },
  read: (fake, username) => {
    const user = (fake as FakeRemnawave).users.get(username)!;
    return { used: user.usedTrafficBytes, limit: user.trafficLimitBytes, running: user.status === 'ACTIVE' };
  },
};

const pasarguard: Kind = {
  name: 'pasarguard',
  start: () => startFakePasarguard(),
  serverBody: (fake) => {
    const { admin } = fake as FakePasarguard;
    return { kind: 'pasarguard', name: 'Pasar', url: fake.url, username: admin.username, password: admin.password, serviceId: '1', locations: 'all' };
  },
  use: (fake, username, bytes) => {
    const user = (fake as FakePasarguard).users.get(username)!;
    user.used_traffic = bytes;
    if (user.data_limit && bytes >= user.data_limit) user.status = 'limited';
  },
  read: (fake, username) => {
    const user = (fake as FakePasarguard).users.get(username)!;
    return { used: user.used_traffic, limit: user.data_limit, running: user.status === 'active' };
  },
};

describe.each([marzban, remnawave, pasarguard])('the monthly reset on $name', (kind) => {
  let fake: Fake;
  const panel: FixturePanel = {
    async start() {
      fake = await kind.start();
      return { server: kind.serverBody(fake), close: () => fake.close() };
    },
  };
  const f = useBillingFixture('sqlite', { panel });
  let planId = '';
  const resets = () => fake.requests.filter((r) => r.method === 'POST' && /\/(reset|reset-traffic)$/.test(r.path)).length;
  const runAt = async (at: number) => {
    f.t.clock.advance(Math.max(0, Math.ceil((at - f.t.clock.now().getTime()) / 1000)));
    await f.runJobs();
  };

  beforeAll(async () => {
    const res = await f.call(f.admin, 'POST', '/api/admin/plans', {
      name: 'Year, carried over',
      days: 365,
      dataLimitBytes: 10 * GB,
      price: 999,
      locations: 'all',
      trafficReset: 'monthly',
      trafficCarryOver: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    planId = res.json().id;
    await schedulePeriodicJob(f.t.app.services.jobs, SCAN_PLAN_TRAFFIC, f.t.clock.now());
  });

  it('resets each month once through the panel’s own call, carrying the unused data over, and runs a limited user again', async () => {
    const user = await f.newUser();
    await f.t.app.services.wallet.adjust({ id: null, email: 'admin@example.com' }, user.userId, { amount: 999, note: 'Test money' });
    expect((await f.call(user, 'POST', '/api/checkout', { planId, method: 'wallet' })).statusCode).toBe(200);
    await f.runJobs();
    const account = await f.env.database.db('vpn_accounts').where({ user_id: user.userId }).first();
    const period = await f.env.database.db('paid_periods').where({ vpn_account_id: account.id }).first();
    const start = new Date(period.starts_at);
    const username = account.username as string;
    expect(resets()).toBe(0);

    kind.use(fake, username, 3 * GB);
    await runAt(monthStart(start, 1).getTime() + 60_000);
    expect(resets()).toBe(1);
    expect(kind.read(fake, username)).toEqual({ used: 0, limit: 17 * GB, running: true });
    await runAt(monthStart(start, 1).getTime() + 3 * 3600_000);
    expect(resets()).toBe(1);

    // Used up: the panel limited the user; the next month it runs again, on the plan's limit.
    kind.use(fake, username, 17 * GB);
    expect(kind.read(fake, username).running).toBe(false);
    await runAt(monthStart(start, 2).getTime() + 60_000);
    expect(resets()).toBe(2);
    expect(kind.read(fake, username)).toEqual({ used: 0, limit: 10 * GB, running: true });
    expect((await f.env.database.db('vpn_accounts').where({ id: account.id }).first()).status).toBe('active');
  });
});
