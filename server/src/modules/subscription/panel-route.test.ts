/**
 * Panels whose public subscription address the storefront cannot reach (a domain not in DNS, blocked, or on a
 * private network): `/sub` fetches through the panel URL the admin added, the connection test checks the path
 * `/sub` will use, and says what is wrong when neither answers. Panel behaviour, not database behaviour: SQLite.
 */
import { describe, expect, it } from 'vitest';
import { useBillingFixture, type FixturePanel } from '../../../test/billing-fixture.js';
import { startFakePasarguard, type FakePasarguard } from '../../../test/fake-panels/pasarguard.js';
import { startFakeRemnawave, type FakeRemnawave } from '../../../test/fake-panels/remnawave.js';

/** `.invalid` never resolves (RFC 2606). */
const UNRESOLVABLE = 'sub.storefront-test.invalid';
const SQUAD = '6f1c2d4e-3b5a-4c7d-8e9f-0a1b2c3d4e5f';

interface Kind {
  name: 'remnawave' | 'pasarguard';
  start(): Promise<FakeRemnawave | FakePasarguard>;
  serverBody(fake: FakeRemnawave | FakePasarguard): Record<string, unknown>;
  /** The panel's own subscription route, as a proxy in front of it would block it. */
  routePrefix: string;
  nodeHost: string;
}

const kinds: Kind[] = [
  {
    name: 'remnawave',
    start: () => startFakeRemnawave({ subPublicDomain: UNRESOLVABLE }),
    serverBody: (fake) => ({ kind: 'remnawave', name: 'Remna', url: fake.url, apiToken: (fake as FakeRemnawave).apiToken, serviceId: SQUAD, locations: 'all' }),
    routePrefix: '/api/sub/',
    nodeHost: 'de1.example.test',
  },
  {
    name: 'pasarguard',
    start: () => startFakePasarguard({ subscriptionUrlPrefix: `https://${UNRESOLVABLE}` }),
    serverBody: (fake) => {
      const { admin } = fake as FakePasarguard;
      return { kind: 'pasarguard', name: 'Pasar', url: fake.url, username: admin.username, password: admin.password, serviceId: '1', locations: 'all' };
    },
    routePrefix: '/sub/',
    nodeHost: 'nl1.example.test',
  },
];

describe.each(kinds)('a $name panel whose public subscription domain does not resolve', (kind) => {
  let fake: FakeRemnawave | FakePasarguard;
  const panel: FixturePanel = {
    async start() {
      fake = await kind.start();
      return { server: kind.serverBody(fake), close: () => fake.close() };
    },
  };
  const f = useBillingFixture('sqlite', { panel });

  it('serves /sub for v2rayNG, sing-box and Clash Meta through the panel URL, with the device limit', async () => {
    expect((await f.call(f.admin, 'PATCH', `/api/admin/plans/${f.paidPlanId}`, { deviceLimit: 1 })).statusCode).toBe(200);
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    const account = (await f.call(user, 'GET', '/api/accounts')).json().find((row: { id: string }) => row.id === accountId);
    expect(account).toMatchObject({ status: 'active', deviceLimit: 1 });
    const row = await f.env.database.db('vpn_accounts').where({ id: accountId }).first();
    expect(new URL(row.subscription_url).host).toBe(UNRESOLVABLE);

    const path = new URL(account.subscriptionUrl).pathname;
    const sub = (headers: Record<string, string>) => f.t.app.inject({ method: 'GET', url: path, headers });
    const fetchedBefore = fake.requests.filter((request) => request.path.startsWith(kind.routePrefix)).length;
    const base64 = await sub({ 'user-agent': 'v2rayNG/1.9.5', 'x-hwid': 'phone-hwid-0001' });
    expect(base64.statusCode, base64.body).toBe(200);
    expect(Buffer.from(base64.body, 'base64').toString('utf8')).toContain(kind.nodeHost);
    const singBox = await sub({ 'user-agent': 'SFA/1.11.4', 'x-hwid': 'phone-hwid-0001' });
    expect(singBox.statusCode, singBox.body).toBe(200);
    expect(JSON.parse(singBox.body).outbounds.some((outbound: { server?: string }) => outbound.server === kind.nodeHost)).toBe(true);
    const clashMeta = await sub({ 'user-agent': 'ClashMetaForAndroid/2.11.5.Meta', 'x-hwid': 'phone-hwid-0001' });
    expect(clashMeta.statusCode, clashMeta.body).toBe(200);
    expect(clashMeta.body).toContain(kind.nodeHost);
    // Each asked of the panel URL itself.
    expect(fake.requests.filter((request) => request.path.startsWith(kind.routePrefix)).length).toBeGreaterThanOrEqual(fetchedBefore + 3);

    // A second device is over the limit of 1: the placeholder, and nothing asked of the panel.
    const second = await sub({ 'user-agent': 'v2rayNG/1.9.5', 'x-hwid': 'laptop-hwid-0002' });
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-hwid-max-devices-reached']).toBe('true');
    expect(Buffer.from(second.body, 'base64').toString('utf8')).not.toContain(kind.nodeHost);
  });

  it('passes the connection test while the panel URL serves subscriptions, and fails it saying so when neither way does', async () => {
    const body = kind.serverBody(fake);
    const passing = await f.call(f.admin, 'POST', '/api/admin/servers/test', body);
    expect(passing.statusCode, passing.body).toBe(200);

    // A proxy in front of the panel that passes only its API: the subscription route answers 404 there.
    fake.faults.failNext.push({ method: 'GET', pathPrefix: kind.routePrefix, status: 404, body: '<html>404 Not Found</html>' });
    const failing = await f.call(f.admin, 'POST', '/api/admin/servers/test', body);
    expect(failing.statusCode, failing.body).toBe(400);
    expect(failing.json().code).toBe('connection_test_failed');
    const message = failing.json().message as string;
    expect(message).toContain("Subscriptions cannot be fetched from this panel, so every customer's link would fail");
    expect(message).toContain(`through the panel URL ${new URL(fake.url).origin} answered HTTP 404`);
    expect(message).toContain(`the public address https://${UNRESOLVABLE} could not be reached (ENOTFOUND)`);
    // No customer's subscription token in what the admin is told.
    const user = [...fake.users.values()][0] as { shortUuid?: string; username: string };
    expect(message).not.toContain(user.shortUuid ?? '\u0000');
  });
});
