import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { startFakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import type { FakePanel } from '../../../test/fake-panels/types.js';
import { createTestClock, type TestClock } from '../../../test/test-clock.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';
import { createSubscriptionService, type SubscriptionService } from './subscription.service.js';

const PUBLIC_URL = 'http://localhost:3000';
const V2RAYNG = 'v2rayNG/1.8.0';
const fromB64 = (value: string) => Buffer.from(value, 'base64').toString('utf8');
/** A configuration line: what a blocked account must never get. */
const CONFIG_LINK = /^(vless|vmess|trojan|ss):\/\//m;

describe.each(TEST_DATABASES)('configurations stored in the database, shared by instances (%s)', (kind) => {
  let database: TestDatabase;
  let panel: FakePanel;
  let clock: TestClock;
  let seq = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    panel = await startFakeMarzneshin();
    const now = new Date();
    await database.db('user_profiles').insert({ id: 'user-1', email: 'user@example.com', role: 'user', trial_used: false, created_at: now, updated_at: now });
    await database.db('masterservers').insert({
      id: 'srv-1',
      kind: 'marzneshin',
      name: 'srv-1',
      url: panel.url,
      username: panel.admin.username,
      password_encrypted: 'not-a-real-secret',
      service_id: '1',
      locations: 'all',
      status: 'active',
      created_at: now,
      updated_at: now,
    });
    clock = createTestClock();
  });

  afterAll(async () => {
    await panel?.close();
    await database?.destroy();
  });

  /** One app instance over the shared database: its own memory, nothing cached. */
  function instance(options: { maxRefreshes?: number } = {}): SubscriptionService {
    return createSubscriptionService({
      db: database.db,
      settings: { getAppSettings: async () => ({ brandName: 'Lumen VPN', supportEmail: 'support@example.com' }) },
      publicUrl: new URL(PUBLIC_URL),
      clock: clock.now,
      fetchTimeoutMs: 2000,
      ...options,
    });
  }

  async function makeAccount() {
    seq += 1;
    const driver = createMarzneshinDriver({ url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: '1' });
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    const created = await driver.createAccount({ username: `user_store${String(seq).padStart(4, '0')}`, dataLimitBytes: 1024 ** 3, expiresAt, note: 'test' });
    const id = `acct-store-${seq}`;
    const token = randomBytes(24).toString('base64url');
    const now = new Date();
    await database.db('vpn_accounts').insert({
      id,
      user_id: 'user-1',
      master_server_id: 'srv-1',
      username: created.username,
      status: 'active',
      expire_date: expiresAt,
      data_limit: 1024 ** 3,
      sub_token: token,
      subscription_url: created.subscriptionUrl,
      metadata: JSON.stringify({ used_traffic: 0 }),
      created_at: now,
      updated_at: now,
    });
    return { id, token, username: created.username, subscriptionUrl: created.subscriptionUrl };
  }

  const panelFetches = () => panel.requests.filter((r) => r.path.startsWith('/sub/')).length;
  const setPanelUsage = (username: string, bytes: number) => {
    panel.users.get(username)!.used_traffic = bytes;
  };
  const storedRows = (accountId: string) => database.db('subscription_copies').where({ vpn_account_id: accountId });

  it('asks the panel before answering for an account never fetched, and stores what it got', async () => {
    const account = await makeAccount();
    const before = panelFetches();
    const res = await instance().handle({ path: account.token, userAgent: V2RAYNG });
    expect(res.statusCode).toBe(200);
    expect(fromB64(res.body.toString())).toMatch(/^(vless|vmess|trojan|ss):\/\//);
    expect(panelFetches()).toBe(before + 1);
    const rows = await storedRows(account.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'v2ray', subscription_url: account.subscriptionUrl, refreshing_since: null });
  });

  it('serves what one instance fetched from another instance without asking the panel', async () => {
    const account = await makeAccount();
    const first = await instance().handle({ path: account.token, userAgent: V2RAYNG });
    const before = panelFetches();
    const second = instance();
    const res = await second.handle({ path: account.token, userAgent: V2RAYNG });
    await second.whenIdle();
    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual(first.body);
    expect(res.headers).toEqual(first.headers);
    expect(panelFetches()).toBe(before);
  });

  it('serves a stale copy at once and refreshes it in the background: the next request gets the new one', async () => {
    const account = await makeAccount();
    await instance().handle({ path: account.token, userAgent: V2RAYNG });
    setPanelUsage(account.username, 4321);
    clock.advance(3600);
    const before = panelFetches();
    const fresh = instance();
    const stale = await fresh.handle({ path: account.token, userAgent: V2RAYNG });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['subscription-userinfo']).toContain('download=0;');
    await fresh.whenIdle();
    expect(panelFetches()).toBe(before + 1);
    expect((await fresh.handle({ path: account.token, userAgent: V2RAYNG })).headers['subscription-userinfo']).toContain('download=4321;');
    // The refreshed copy is stored: yet another instance has it too, without asking the panel.
    expect((await instance().handle({ path: account.token, userAgent: V2RAYNG })).headers['subscription-userinfo']).toContain('download=4321;');
    expect(panelFetches()).toBe(before + 1);
  });

  it('refreshes a stale copy by itself once the claim delay passes (no one waiting for it)', async () => {
    const account = await makeAccount();
    await instance().handle({ path: account.token, userAgent: V2RAYNG });
    setPanelUsage(account.username, 2468);
    clock.advance(3600);
    const before = panelFetches();
    const fresh = createSubscriptionService({
      db: database.db,
      settings: { getAppSettings: async () => ({ brandName: 'Lumen VPN', supportEmail: 'support@example.com' }) },
      publicUrl: new URL(PUBLIC_URL),
      clock: clock.now,
      fetchTimeoutMs: 2000,
      refreshClaimDelayMs: 20,
    });
    expect((await fresh.handle({ path: account.token, userAgent: V2RAYNG })).headers['subscription-userinfo']).toContain('download=0;');
    expect(panelFetches()).toBe(before);
    await vi.waitFor(() => expect(panelFetches()).toBe(before + 1), { timeout: 2000, interval: 10 });
    await vi.waitFor(
      async () => expect((await fresh.handle({ path: account.token, userAgent: V2RAYNG })).headers['subscription-userinfo']).toContain('download=2468;'),
      { timeout: 2000, interval: 10 },
    );
    await fresh.whenIdle();
  });

  it('lets one instance of a fleet refresh a stale copy: the others serve it without asking the panel', async () => {
    const account = await makeAccount();
    await instance().handle({ path: account.token, userAgent: V2RAYNG });
    clock.advance(3600);
    const before = panelFetches();
    panel.faults.delayMs = 100;
    try {
      const fleet = [instance(), instance(), instance(), instance()];
      const answers = await Promise.all(
        fleet.flatMap((one) => [one.handle({ path: account.token, userAgent: V2RAYNG }), one.handle({ path: account.token, userAgent: V2RAYNG })]),
      );
      expect(answers.every((res) => res.statusCode === 200)).toBe(true);
      await Promise.all(fleet.map((one) => one.whenIdle()));
    } finally {
      panel.faults.delayMs = 0;
    }
    expect(panelFetches()).toBe(before + 1);
    const [row] = await storedRows(account.id);
    expect(row.refreshing_since).toBeNull();
  });

  it('runs at most maxRefreshes background refreshes at once: the other stale accounts are served without one', async () => {
    const accounts = [await makeAccount(), await makeAccount(), await makeAccount()];
    for (const account of accounts) await instance().handle({ path: account.token, userAgent: V2RAYNG });
    clock.advance(3600);
    const before = panelFetches();
    const capped = instance({ maxRefreshes: 1 });
    panel.faults.delayMs = 100;
    try {
      const answers = await Promise.all(accounts.map((account) => capped.handle({ path: account.token, userAgent: V2RAYNG })));
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
      await capped.whenIdle();
    } finally {
      panel.faults.delayMs = 0;
    }
    expect(panelFetches()).toBe(before + 1);
    const claimed = await database
      .db('subscription_copies')
      .whereIn(
        'vpn_account_id',
        accounts.map((account) => account.id),
      )
      .whereNotNull('refreshing_since');
    expect(claimed).toHaveLength(0);
  });

  it('stores every copy a burst of background refreshes got (written together): another instance serves them without the panel', async () => {
    const accounts = [await makeAccount(), await makeAccount(), await makeAccount()];
    for (const account of accounts) await instance().handle({ path: account.token, userAgent: V2RAYNG });
    accounts.forEach((account, i) => setPanelUsage(account.username, 1000 + i));
    clock.advance(3600);
    const before = panelFetches();
    const burst = instance();
    const answers = await Promise.all(accounts.map((account) => burst.handle({ path: account.token, userAgent: V2RAYNG })));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    await burst.whenIdle();
    expect(panelFetches()).toBe(before + 3);
    const other = instance();
    for (const [i, account] of accounts.entries()) {
      expect((await other.handle({ path: account.token, userAgent: V2RAYNG })).headers['subscription-userinfo']).toContain(`download=${1000 + i};`);
    }
    expect(panelFetches()).toBe(before + 3);
    const claimed = await database
      .db('subscription_copies')
      .whereIn(
        'vpn_account_id',
        accounts.map((account) => account.id),
      )
      .whereNotNull('refreshing_since');
    expect(claimed).toHaveLength(0);
  });

  it('keeps serving the stored copy while the panel is down, and tries again only after the claim lapses', async () => {
    const account = await makeAccount();
    const good = await instance().handle({ path: account.token, userAgent: V2RAYNG });
    clock.advance(3600);
    panel.faults.down = true;
    try {
      const cold = instance();
      const res = await cold.handle({ path: account.token, userAgent: V2RAYNG });
      await cold.whenIdle();
      expect(res.statusCode).toBe(200);
      expect(res.body).toEqual(good.body);
      const [row] = await storedRows(account.id);
      expect(row.refreshing_since).not.toBeNull(); // the failed refresh's claim holds the fleet back for the lease
      const other = instance();
      expect((await other.handle({ path: account.token, userAgent: V2RAYNG })).body).toEqual(good.body);
      await other.whenIdle();
    } finally {
      panel.faults.down = false;
    }
    setPanelUsage(account.username, 99);
    clock.advance(31);
    const later = instance();
    await later.handle({ path: account.token, userAgent: V2RAYNG });
    await later.whenIdle();
    expect((await later.handle({ path: account.token, userAgent: V2RAYNG })).headers['subscription-userinfo']).toContain('download=99;');
  });

  it('answers from our row, not the stored copy, once the account expired or was disabled here', async () => {
    const expired = await makeAccount();
    const disabled = await makeAccount();
    await instance().handle({ path: expired.token, userAgent: V2RAYNG });
    await instance().handle({ path: disabled.token, userAgent: V2RAYNG });
    await database
      .db('vpn_accounts')
      .where({ id: expired.id })
      .update({ expire_date: new Date(clock.now().getTime() - 1000) });
    await database.db('vpn_accounts').where({ id: disabled.id }).update({ status: 'disabled' });
    const before = panelFetches();
    const other = instance();
    const a = await other.handle({ path: expired.token, userAgent: V2RAYNG });
    const b = await other.handle({ path: disabled.token, userAgent: V2RAYNG });
    expect(a.statusCode).toBe(403);
    expect(a.body).not.toMatch(CONFIG_LINK);
    expect(b.statusCode).toBe(403);
    expect(b.body).not.toMatch(CONFIG_LINK);
    expect(panelFetches()).toBe(before);
  });

  it('never serves a copy of the panel URL the account had before it moved, nor one the account was invalidated after', async () => {
    const moved = await makeAccount();
    const target = await makeAccount();
    await instance().handle({ path: moved.token, userAgent: V2RAYNG });
    const targetBody = (await instance().handle({ path: target.token, userAgent: V2RAYNG })).body;
    await database.db('vpn_accounts').where({ id: moved.id }).update({ subscription_url: target.subscriptionUrl });
    const before = panelFetches();
    const res = await instance().handle({ path: moved.token, userAgent: V2RAYNG });
    expect(res.body).toEqual(targetBody);
    expect(panelFetches()).toBe(before + 1);

    const renewed = instance();
    await renewed.invalidateAccount(target.id);
    expect(await storedRows(target.id)).toHaveLength(0);
    await renewed.handle({ path: target.token, userAgent: V2RAYNG });
    expect(panelFetches()).toBe(before + 2);
  });

  it('stores a copy in the form it is served: the base64 of the links, and whether it is the placeholder', async () => {
    const account = await makeAccount();
    const res = await instance().handle({ path: account.token, userAgent: V2RAYNG });
    const [row] = await storedRows(account.id);
    expect(row.body).toBe(res.body.toString('latin1'));
    expect(fromB64(row.body)).toMatch(CONFIG_LINK);
    expect([false, 0]).toContain(row.placeholder);
    // Another instance serves it as stored, the plain links too (decoded from it).
    const other = instance();
    expect((await other.handle({ path: account.token, userAgent: V2RAYNG })).body).toEqual(res.body);
    expect((await other.handle({ path: `${account.token}/links` })).body.toString('utf8')).toBe(fromB64(row.body));
  });

  it('reads a copy stored before its served form was (the panel answer as it came), and a stored placeholder without the panel', async () => {
    const legacy = await makeAccount();
    const disabled = await makeAccount();
    await instance().handle({ path: legacy.token, userAgent: V2RAYNG });
    await instance().handle({ path: disabled.token, userAgent: V2RAYNG });
    const links = fromB64((await storedRows(legacy.id))[0].body);
    // As migration 036 found them: plain links with CRLF and blank lines, placeholder unknown.
    await database
      .db('subscription_copies')
      .where({ vpn_account_id: legacy.id })
      .update({ body: `${links.split('\n').join('\r\n')}\r\n\r\n`, placeholder: null });
    await database.db('subscription_copies').where({ vpn_account_id: disabled.id }).update({ placeholder: true });
    const before = panelFetches();
    const other = instance();
    const res = await other.handle({ path: legacy.token, userAgent: V2RAYNG });
    expect(res.statusCode).toBe(200);
    expect(fromB64(res.body.toString())).toBe(links);
    const blocked = await other.handle({ path: disabled.token, userAgent: V2RAYNG });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.body).not.toMatch(CONFIG_LINK);
    expect(panelFetches()).toBe(before);
  });

  it('answers an unknown token 404 without asking the panel or storing anything', async () => {
    const before = panelFetches();
    const rowsBefore = await database.db('subscription_copies').count({ n: '*' }).first();
    await expect(instance().handle({ path: randomBytes(24).toString('base64url'), userAgent: V2RAYNG })).rejects.toMatchObject({
      statusCode: 404,
      code: 'not_found',
    });
    expect(panelFetches()).toBe(before);
    expect(await database.db('subscription_copies').count({ n: '*' }).first()).toEqual(rowsBefore);
  });
});
