/**
 * The two panels operators run now, through the whole product: the admin adds the server by API, a trial and a
 * card purchase each make one panel user, `/sub` serves each client's format without the panel's own address,
 * a renewal extends the same user, the sync brings the panel's usage and expiry, and the health checks see the
 * panel go and come back. Panel behaviour is not database behaviour: SQLite only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '../../../../shared/servers.js';
import { useBillingFixture, GB, type FixturePanel } from '../../../test/billing-fixture.js';
import { startFakePasarguard, type FakePasarguard } from '../../../test/fake-panels/pasarguard.js';
import { startFakeRemnawave, type FakeRemnawave } from '../../../test/fake-panels/remnawave.js';
import { bearer } from '../../../test/test-app.js';

const DAY = 24 * 3600_000;
const SQUAD = '6f1c2d4e-3b5a-4c7d-8e9f-0a1b2c3d4e5f';

type Fake = FakeRemnawave | FakePasarguard;

/** What each kind needs to be tested the same way: its fake, the body that adds it, and its users' fields. */
interface Kind {
  name: 'remnawave' | 'pasarguard';
  start(): Promise<Fake>;
  serverBody(fake: Fake): Record<string, unknown>;
  wrongCredentials(body: Record<string, unknown>): Record<string, unknown>;
  /** The secret the body carries, which must never come back. */
  secretOf(fake: Fake): string;
  serviceId: string;
  expiryOf(fake: Fake, username: string): Date | null;
  setUsage(fake: Fake, username: string, usedBytes: number, expiresAt: Date): void;
  /** A node host the fake puts in configurations. */
  nodeHost: string;
  /** The panel stops answering, and comes back. */
  stop(fake: Fake): Promise<void>;
  startAgain(fake: Fake): Promise<void>;
}

const remnawave: Kind = {
  name: 'remnawave',
  start: () => startFakeRemnawave(),
  serverBody: (fake) => ({ kind: 'remnawave', name: 'Remna', url: fake.url, apiToken: (fake as FakeRemnawave).apiToken, serviceId: SQUAD, locations: 'all' }),
  wrongCredentials: (body) => ({ ...body, apiToken: 'eyJhbGciOiJIUzI1NiJ9.eyJ1dWlkIjoieCJ9.wrong' }),
  secretOf: (fake) => (fake as FakeRemnawave).apiToken,
  serviceId: SQUAD,
  expiryOf: (fake, username) => (fake as FakeRemnawave).users.get(username)?.expireAt ?? null,
  setUsage: (fake, username, usedBytes, expiresAt) => {
    const user = (fake as FakeRemnawave).users.get(username)!;
    user.usedTrafficBytes = usedBytes;
    user.expireAt = expiresAt;
  },
  nodeHost: 'de1.example.test',
  // The process stops (connections refused) and starts again on its port, with its data and tokens.
  stop: (fake) => (fake as FakeRemnawave).stop(),
  startAgain: (fake) => (fake as FakeRemnawave).start(),
};

const pasarguard: Kind = {
  name: 'pasarguard',
  start: () => startFakePasarguard(),
  serverBody: (fake) => {
    const { admin } = fake as FakePasarguard;
    return { kind: 'pasarguard', name: 'Pasar', url: fake.url, username: admin.username, password: admin.password, serviceId: '1', locations: 'all' };
  },
  wrongCredentials: (body) => ({ ...body, password: 'not-the-password' }),
  secretOf: (fake) => (fake as FakePasarguard).admin.password,
  serviceId: '1',
  expiryOf: (fake, username) => (fake as FakePasarguard).users.get(username)?.expire ?? null,
  setUsage: (fake, username, usedBytes, expiresAt) => {
    const user = (fake as FakePasarguard).users.get(username)!;
    user.used_traffic = usedBytes;
    user.expire = expiresAt;
  },
  nodeHost: 'nl1.example.test',
  // Every connection reset at once, as by a panel going away behind its proxy.
  stop: async (fake) => {
    fake.faults.down = true;
  },
  startAgain: async (fake) => {
    fake.faults.down = false;
  },
};

describe.each([remnawave, pasarguard])('a $name server sells like the others', (kind) => {
  let fake: Fake;
  const panel: FixturePanel = {
    async start() {
      fake = await kind.start();
      return { server: kind.serverBody(fake), close: () => fake.close() };
    },
  };
  const f = useBillingFixture('sqlite', { panel });
  const panelAddress = () => new URL(fake.url).host;

  it('tests and saves the connection; a wrong credential is a 400 with the spec message, and no secret comes back', async () => {
    const body = kind.serverBody(fake);
    const tested = await f.call(f.admin, 'POST', '/api/admin/servers/test', body);
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json().services).toEqual(expect.arrayContaining([{ id: kind.serviceId, name: expect.any(String) }]));

    const wrong = await f.call(f.admin, 'POST', '/api/admin/servers/test', kind.wrongCredentials(body));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 'connection_test_failed', message: SERVER_MESSAGES.testFailed });

    const listed = await f.call(f.admin, 'GET', '/api/admin/servers');
    expect(listed.json().find((row: { id: string }) => row.id === f.serverId)).toMatchObject({ kind: kind.name, serviceId: kind.serviceId });
    expect(listed.body).not.toContain(kind.secretOf(fake));
    const row = await f.env.database.db('masterservers').where({ id: f.serverId }).first();
    expect(row.password_encrypted).not.toContain(kind.secretOf(fake));
  });

  it('a trial makes one panel user, a purchase within it keeps that user, another customer’s makes one; /sub serves every format without the panel’s address', async () => {
    const before = fake.users.size;
    const user = await f.newUser();
    const trial = await f.call(user, 'POST', '/api/accounts', { planId: f.trialPlanId });
    expect(trial.statusCode, trial.body).toBe(201);
    expect(fake.users.size).toBe(before + 1);

    // Bought while the trial runs: the trial's account (and panel user) becomes the plan's.
    const bought = await f.buyAccount(user);
    expect(bought).toBe(trial.json().id);
    expect(fake.users.size).toBe(before + 1);
    await f.buyAccount(await f.newUser());
    expect(fake.users.size).toBe(before + 2);
    const accounts = (await f.call(user, 'GET', '/api/accounts')).json() as Array<{ id: string; status: string; subscriptionUrl: string }>;
    const account = accounts.find((row) => row.id === bought)!;
    expect(account.status).toBe('active');
    expect(JSON.stringify(accounts)).not.toContain(panelAddress());

    const sub = (userAgent: string) => f.t.app.inject({ method: 'GET', url: new URL(account.subscriptionUrl).pathname, headers: { 'user-agent': userAgent } });
    const base64 = await sub('v2rayNG/1.9.5');
    expect(base64.statusCode, base64.body).toBe(200);
    const links = Buffer.from(base64.body, 'base64').toString('utf8');
    expect(links).toContain(kind.nodeHost);
    const singBox = await sub('HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box');
    expect(singBox.statusCode).toBe(200);
    expect(JSON.parse(singBox.body).outbounds.some((o: { server?: string }) => o.server === kind.nodeHost)).toBe(true);
    const clash = await sub('clash-verge/v2.0.0');
    expect(clash.statusCode).toBe(200);
    expect(clash.body).toMatch(/^proxies:/m);
    expect(clash.body).toContain(kind.nodeHost);
    for (const answer of [base64, singBox, clash]) {
      expect(answer.body + links).not.toContain(panelAddress());
      expect(JSON.stringify(answer.headers)).not.toContain(panelAddress());
    }
  });

  it('a renewal extends the same panel user', async () => {
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    const { username } = await f.env.database.db('vpn_accounts').where({ id: accountId }).first();
    const users = fake.users.size;
    const expiry = kind.expiryOf(fake, username)!;
    const { sessionId } = await f.checkout(user, { accountId });
    await f.stripe.pay(sessionId);
    await f.runJobs();
    expect(fake.users.size).toBe(users);
    expect(kind.expiryOf(fake, username)!.getTime()).toBeGreaterThanOrEqual(expiry.getTime() + 29 * DAY);
  });

  it('the sync brings the panel’s usage and expiry; a stopped panel is down and up again when it answers', async () => {
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    const { username } = await f.env.database.db('vpn_accounts').where({ id: accountId }).first();
    const expiresAt = new Date(Math.floor((Date.now() + 45 * DAY) / 1000) * 1000);
    kind.setUsage(fake, username, 3 * GB, expiresAt);
    await f.t.app.services.panelSync.syncAll();
    const [account] = (await f.call(user, 'GET', '/api/accounts')).json();
    expect(account).toMatchObject({ usedTrafficBytes: 3 * GB, expireDate: expiresAt.toISOString() });

    const health = async () => (await f.call(f.admin, 'GET', '/api/admin/servers')).json().find((row: { id: string }) => row.id === f.serverId).health.state;
    await kind.stop(fake);
    try {
      await f.t.app.services.serverHealth.checkAll();
      await f.t.app.services.serverHealth.checkAll();
      expect(await health()).toBe('down');
    } finally {
      await kind.startAgain(fake);
    }
    await f.t.app.services.serverHealth.checkAll();
    expect(await health()).toBe('up');
  });

  it('answers 401 and 403 on the server routes for this kind too', async () => {
    const user = await f.newUser();
    expect((await f.t.app.inject({ method: 'POST', url: '/api/admin/servers/test', payload: {} })).statusCode).toBe(401);
    expect((await f.t.app.inject({ method: 'POST', url: '/api/admin/servers/test', headers: bearer(user.accessToken), payload: {} })).statusCode).toBe(403);
  });
});

describe('a Remnawave panel behind a proxy that drops our forwarded headers', () => {
  const f = useBillingFixture('sqlite', { configureCard: false });
  let fake: FakeRemnawave;
  beforeAll(async () => {
    fake = await startFakeRemnawave();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('says in the credential test what is wrong instead of "socket hang up"', async () => {
    fake.frontProxy = 'plain-http';
    const res = await f.call(f.admin, 'POST', '/api/admin/servers/test', remnawave.serverBody(fake));
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('connection_test_failed');
    expect(res.json().message).toMatch(
      /^Connection test failed\. Please check the credentials\. The panel accepted the connection and closed it without answering/,
    );
    expect(res.json().message).toMatch(/https:\/\//);
    expect(res.json().message).not.toMatch(/hang up/i);
    fake.frontProxy = 'none';
    expect((await f.call(f.admin, 'POST', '/api/admin/servers/test', remnawave.serverBody(fake))).statusCode).toBe(200);
  });

  it('refuses a body with a username and password but no API token, naming the field', async () => {
    const { apiToken: _token, ...body } = remnawave.serverBody(fake);
    const res = await f.call(f.admin, 'POST', '/api/admin/servers', { ...body, username: 'admin', password: 'secret' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { apiToken: 'API token is required' } });
  });

  it('changes the token with a passing test, keeps it on a failing one, and asks for a login when the kind changes', async () => {
    const created = await f.call(f.admin, 'POST', '/api/admin/servers', { ...remnawave.serverBody(fake), name: 'Remna 2' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const secret = async () => (await f.env.database.db('masterservers').where({ id }).first()).password_encrypted;
    const saved = await secret();

    const wrong = await f.call(f.admin, 'PATCH', `/api/admin/servers/${id}`, { apiToken: 'eyJhbGciOiJIUzI1NiJ9.eyJ1dWlkIjoieCJ9.wrong' });
    expect(wrong.statusCode).toBe(400);
    expect(await secret()).toBe(saved);

    const next = fake.issueApiToken(['*']);
    const changed = await f.call(f.admin, 'PATCH', `/api/admin/servers/${id}`, { apiToken: next });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.body).not.toContain(next);
    expect(await secret()).not.toBe(saved);

    const toLogin = await f.call(f.admin, 'PATCH', `/api/admin/servers/${id}`, { kind: 'marzneshin' });
    expect(toLogin.statusCode).toBe(400);
    expect(toLogin.json().fields).toEqual({ username: 'Username is required', password: 'Password is required' });
  });
});
