import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeRemnawave, type FakeRemnawave } from '../../test/fake-panels/remnawave.js';
import { expectPanelError } from '../../test/panel-assertions.js';
import { panelFetch } from './panel-http.js';
import type { PanelDriver } from './panel-driver.js';
import { createRemnawaveDriver, remnawaveSubscriptionFormatUrl, remnawaveSubscriptionHeaders } from './remnawave.js';
import { NEVER_EXPIRES } from './remnawave-user.js';

const DAY = 86_400_000;
const GIB = 1024 ** 3;
const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

describe('the Remnawave 3.x driver against a panel that behaves as its source does', () => {
  let panel: FakeRemnawave;
  let driver: PanelDriver;
  let squad: string;
  let n = 0;
  const newUsername = () => `user-t${Date.now().toString(36).slice(-4)}${(n += 1)}`;
  const make = (overrides: Partial<{ apiToken: string; serviceId: string; url: string; timeoutMs: number }> = {}) =>
    createRemnawaveDriver(
      { url: overrides.url ?? panel.url, username: '', password: '', apiToken: overrides.apiToken ?? panel.apiToken, serviceId: overrides.serviceId ?? squad },
      { timeoutMs: overrides.timeoutMs ?? 2000 },
    );
  const newAccount = (note: string, extra: Partial<{ dataLimitBytes: number | null; expiresAt: Date | null }> = {}) =>
    driver.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note, ...extra });

  beforeEach(async () => {
    panel = await startFakeRemnawave();
    squad = panel.squads[0]!.uuid;
    driver = make();
  });
  afterEach(async () => {
    await panel.close();
  });

  describe('connecting', () => {
    it('passes the credential test with the API token, and sends the forwarded headers on every call', async () => {
      await expect(driver.testConnection()).resolves.toBeUndefined();
      expect(panel.requests.length).toBeGreaterThan(0);
      for (const request of panel.requests) {
        expect(request.headers).toMatchObject({ authorization: `Bearer ${panel.apiToken}`, 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'https' });
      }
    });

    it('fails a wrong or missing token (or an admin session JWT) as auth, a deleted one as not permitted, saying what to do', async () => {
      const wrong = await expectPanelError(make({ apiToken: 'eyJhbGciOiJIUzI1NiJ9.e30.bad' }).testConnection(), 'auth');
      expect(wrong.message).toMatch(/refused the API token .*make a new one/);
      const admin = await expectPanelError(make({ apiToken: panel.adminSessionToken }).testConnection(), 'auth');
      expect(admin.message).toContain('you must create own API-token');
      await expectPanelError(make({ apiToken: '' }).testConnection(), 'auth');
      const deleted = panel.issueApiToken();
      panel.deleteApiToken(deleted);
      expect((await expectPanelError(make({ apiToken: deleted }).testConnection(), 'not_permitted')).message).toContain('or was deleted');
    });

    it('says in words that the panel dropped the connection, not "socket hang up"', async () => {
      panel.frontProxy = 'plain-http';
      const err = await expectPanelError(driver.testConnection(), 'unreachable');
      expect(err.message).toMatch(/closed it without answering.*X-Forwarded-Proto: https.*not a Remnawave API address/s);
      expect(err.message).not.toMatch(/socket|hang up|UND_ERR/i);
    });

    it('reports a panel that is down as unreachable and retryable, and a slow one as a timeout', async () => {
      panel.faults.down = true;
      expect((await expectPanelError(driver.testConnection(), 'unreachable')).retryable).toBe(true);
      panel.faults.down = false;
      panel.faults.delayMs = 400;
      await expectPanelError(make({ timeoutMs: 100 }).testConnection(), 'timeout');
    });

    it("tells a wrong URL (Nest's own 404) from a missing user", async () => {
      await expectPanelError(make({ url: `${panel.url}/not-the-api` }).testConnection(), 'wrong_url');
      expect(await driver.getAccount('nobody_here')).toBeNull();
    });

    it('names an internal squad the panel does not have, and a serviceId that is no UUID', async () => {
      const unknown = '0b5e6f1a-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
      const err = await expectPanelError(make({ serviceId: `${squad},${unknown}` }).testConnection(), 'rejected');
      expect(err.message).toBe(`The panel has no internal squad ${unknown}; check the server's squads`);
      expect((await expectPanelError(make({ serviceId: '1' }).testConnection(), 'rejected')).message).toContain('"1" is not an internal squad UUID');
      await expect(make({ serviceId: '' }).testConnection()).resolves.toBeUndefined();
    });

    it('refuses a 2.x panel at the credential test, naming the version found', async () => {
      panel.version = '2.7.4';
      const err = await expectPanelError(driver.testConnection(), 'rejected');
      expect(err.message).toContain('This panel runs Remnawave 2.7.4');
      expect(err.message).toContain('3.0 or later');
    });

    it('says which scope a limited token lacks, and skips the version without the system scope', async () => {
      const usersOnly = panel.issueApiToken(['users:*']);
      const err = await expectPanelError(make({ apiToken: usersOnly }).testConnection(), 'not_permitted');
      expect(err.message).toContain('internal-squads');
      await expect(make({ apiToken: panel.issueApiToken(['users:*', 'internal-squads:read']) }).testConnection()).resolves.toBeUndefined();
      const squadsOnly = panel.issueApiToken(['internal-squads:*', 'system:*']);
      expect((await expectPanelError(make({ apiToken: squadsOnly }).testConnection(), 'not_permitted')).message).toContain('users');
    });

    it('lists internal squads as services', async () => {
      expect(await driver.listServices()).toEqual(panel.squads.map((s) => ({ id: s.uuid, name: s.name })));
    });
  });

  describe('accounts', () => {
    it('creates an account with our marker, the squads, a byte limit, no HWID limit, and reads it back', async () => {
      const username = newUsername();
      const expiresAt = at(Date.now() + 30 * DAY);
      const account = await driver.createAccount({ username, dataLimitBytes: 50 * GIB, expiresAt, note: 'acct-1' });
      const stored = panel.users.get(username)!;
      expect(account).toEqual({
        username,
        status: 'active',
        usedTrafficBytes: 0,
        dataLimitBytes: 50 * GIB,
        expiresAt,
        subscriptionUrl: `${panel.url}/api/sub/${stored.shortUuid}`,
        links: null,
        note: 'acct-1',
      });
      expect(stored).toMatchObject({ description: 'acct-1', hwidDeviceLimit: 0, activeInternalSquads: [squad], trafficLimitStrategy: 'NO_RESET' });
      expect(await driver.getAccount(username)).toEqual(account);
    });

    it('puts every squad of a comma-separated serviceId on the user', async () => {
      const both = make({ serviceId: panel.squads.map((s) => s.uuid).join(', ') });
      const account = await both.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'two' });
      expect(panel.users.get(account.username)!.activeInternalSquads).toEqual(panel.squads.map((s) => s.uuid));
    });

    it('stores "never" as the panel\'s year 2099 and reads it back as null, unlimited as 0 and back as null', async () => {
      const account = await newAccount('forever');
      expect(account).toMatchObject({ expiresAt: null, dataLimitBytes: null });
      expect(panel.users.get(account.username)).toMatchObject({ expireAt: NEVER_EXPIRES, trafficLimitBytes: 0 });
      const sub = await panelFetch(account.subscriptionUrl, { method: 'GET', headers: remnawaveSubscriptionHeaders() });
      expect(sub.headers.get('subscription-userinfo')).toMatch(/expire=0$/);
    });

    it('reads the used traffic from userTraffic and maps every status', async () => {
      const account = await newAccount('usage', { dataLimitBytes: 1000 });
      const stored = panel.users.get(account.username)!;
      stored.usedTrafficBytes = 400;
      expect(await driver.getAccount(account.username)).toMatchObject({ usedTrafficBytes: 400, status: 'active' });
      stored.usedTrafficBytes = 1000;
      expect((await driver.getAccount(account.username))?.status).toBe('limited');
      stored.expireAt = new Date(Date.now() - DAY);
      expect((await driver.getAccount(account.username))?.status).toBe('expired');
      stored.status = 'DISABLED';
      expect((await driver.getAccount(account.username))?.status).toBe('disabled');
    });

    it('refuses a username the panel would not take, before anything is written', async () => {
      const err = await expectPanelError(driver.createAccount({ username: 'no spaces allowed', dataLimitBytes: null, expiresAt: null, note: 'x' }), 'rejected');
      expect(err.message).toBe('Creating the user: username: Username can only contain letters, numbers, underscores and dashes');
      expect(panel.users.size).toBe(0);
    });

    it('adopts a taken username only when its description carries our marker', async () => {
      const username = newUsername();
      const first = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'ours' });
      const again = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'ours' });
      expect(again.subscriptionUrl).toBe(first.subscriptionUrl);
      const err = await expectPanelError(driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'someone-else' }), 'conflict');
      expect(err.retryable).toBe(false);
      expect(panel.users.size).toBe(1);
    });

    it('reads back after a create that timed out, adopting the user the panel wrote, without a second POST', async () => {
      const username = newUsername();
      panel.faults.slowOnce.push({ method: 'POST', pathPrefix: '/api/users', delayMs: 500 });
      const account = await make({ timeoutMs: 150 }).createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'late' });
      expect(account).toMatchObject({ username, note: 'late' });
      expect(panel.requests.filter((r) => r.method === 'POST' && r.path === '/api/users')).toHaveLength(1);
    });

    it('keeps a timeout on create a retryable timeout when the read-back finds nothing written', async () => {
      const username = newUsername();
      panel.faults.failNext.push({ method: 'POST', pathPrefix: '/api/users', status: 503, body: 'busy' });
      panel.faults.slowOnce.push({ method: 'POST', pathPrefix: '/api/users', delayMs: 400 });
      const err = await expectPanelError(
        make({ timeoutMs: 100 }).createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'never-written' }),
        'timeout',
      );
      expect(err.retryable).toBe(true);
      expect(panel.requests.filter((r) => r.path === `/api/users/by-username/${username}`)).toHaveLength(1);
      expect(panel.users.has(username)).toBe(false);
    });

    it('reads back after a 500 and names an unknown squad instead of offering a retry', async () => {
      const unknown = '0b5e6f1a-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
      const err = await expectPanelError(
        make({ serviceId: unknown }).createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'x' }),
        'rejected',
      );
      expect(err.message).toContain(`no internal squad ${unknown}`);
      const username = newUsername();
      panel.faults.failNext.push({ method: 'POST', pathPrefix: '/api/users', status: 500 });
      const failed = await expectPanelError(driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'retry' }), 'server_error');
      expect(failed.retryable).toBe(true);
      expect(panel.users.has(username)).toBe(false);
    });

    it('returns null for a user that does not exist', async () => {
      expect(await driver.getAccount('nobody_here')).toBeNull();
    });

    it('refuses to read a username the panel cannot hold (a dot would change the path) with a clear rejection, asking nothing', async () => {
      const before = panel.requests.length;
      for (const username of ['.', '..', 'john.doe', 'ab']) {
        const err = await expectPanelError(driver.getAccount(username), 'rejected');
        expect(err.message).toBe(`Remnawave usernames are 3 to 36 letters, digits, underscores and dashes: "${username}" cannot be a user of this panel`);
        expect(err.status).toBe(400);
      }
      expect(panel.requests.length).toBe(before);
    });

    it('gives the configuration links when asked, and none for an inactive user', async () => {
      const account = await newAccount('links');
      const withLinks = await driver.getAccount(account.username, { withLinks: true });
      expect(withLinks?.links).toEqual([
        expect.stringMatching(/^vless:\/\/.+@de1\.example\.test:443/),
        expect.stringMatching(/^trojan:\/\/.+@de2\.example\.test:443/),
      ]);
      await driver.setEnabled(account.username, false);
      expect((await driver.getAccount(account.username, { withLinks: true }))?.links).toEqual([]);
    });

    it('lists every user in pages, oldest first, with the total', async () => {
      const names: string[] = [];
      for (let i = 0; i < 7; i += 1) names.push((await newAccount('list')).username);
      const seen: string[] = [];
      for (let page = 1; page <= 3; page += 1) {
        const { accounts, total } = await driver.listAccounts({ page, size: 3 });
        expect(total).toBe(7);
        expect(accounts).toHaveLength(page < 3 ? 3 : 1);
        for (const account of accounts) expect(account).toMatchObject({ status: 'active', links: null, note: 'list' });
        seen.push(...accounts.map((account) => account.username));
      }
      expect(seen).toEqual(names);
      const listed = panel.requests
        .filter((r) => r.method === 'GET' && r.path.startsWith('/api/users?start='))
        .map((r) => new URL(r.path, panel.url).searchParams);
      expect(listed.map((q) => [q.get('start'), q.get('size')])).toEqual([
        ['0', '3'],
        ['3', '3'],
        ['6', '3'],
      ]);
    });

    it('extends expiry and data limit with a PATCH by username', async () => {
      const account = await newAccount('ext', { dataLimitBytes: GIB, expiresAt: new Date(Date.now() + DAY) });
      const later = at(Date.now() + 60 * DAY);
      expect(await driver.extendAccount(account.username, { dataLimitBytes: 5 * GIB })).toMatchObject({ dataLimitBytes: 5 * GIB });
      expect(await driver.extendAccount(account.username, { expiresAt: later })).toMatchObject({ expiresAt: later, dataLimitBytes: 5 * GIB });
      expect(await driver.extendAccount(account.username, { expiresAt: null, dataLimitBytes: null })).toMatchObject({ expiresAt: null, dataLimitBytes: null });
      expect(panel.requests.filter((r) => r.method === 'PATCH')).toHaveLength(3);
      panel.users.get(account.username)!.hwidDeviceLimit = 3; // set by hand in the panel
      await driver.extendAccount(account.username, { expiresAt: later });
      expect(panel.users.get(account.username)!.hwidDeviceLimit).toBe(0);
    });

    it('reactivates an expired account by extending it, and a limited one by raising its limit', async () => {
      const expired = await newAccount('lapsed', { expiresAt: new Date(Date.now() + DAY) });
      panel.users.get(expired.username)!.expireAt = new Date(Date.now() - DAY);
      expect((await driver.getAccount(expired.username))?.status).toBe('expired');
      expect((await driver.extendAccount(expired.username, { expiresAt: at(Date.now() + 30 * DAY) })).status).toBe('active');

      const limited = await newAccount('heavy', { dataLimitBytes: 1000 });
      panel.users.get(limited.username)!.usedTrafficBytes = 1000;
      expect((await driver.getAccount(limited.username))?.status).toBe('limited');
      expect((await driver.extendAccount(limited.username, { dataLimitBytes: 5000 })).status).toBe('active');
    });

    it('reports an extension of a missing user as rejected', async () => {
      await expectPanelError(driver.extendAccount('nobody_here', { dataLimitBytes: 1 }), 'rejected');
    });

    it('enables and disables idempotently through the action routes', async () => {
      const { username } = await newAccount('toggle');
      expect((await driver.setEnabled(username, true)).status).toBe('active');
      expect((await driver.setEnabled(username, false)).status).toBe('disabled');
      expect((await driver.setEnabled(username, false)).status).toBe('disabled');
      expect((await driver.setEnabled(username, true)).status).toBe('active');
      const actions = panel.requests.filter((r) => r.method === 'POST' && r.path.includes('/actions/')).map((r) => r.path.split('/').pop());
      expect(actions).toEqual(['disable', 'enable']);
    });

    it('disables an expired account, and does not flip an expired one to active by enabling it', async () => {
      const { username } = await newAccount('expired-toggle', { expiresAt: new Date(Date.now() + DAY) });
      panel.users.get(username)!.expireAt = new Date(Date.now() - DAY);
      expect((await driver.setEnabled(username, true)).status).toBe('expired');
      expect((await driver.setEnabled(username, false)).status).toBe('disabled');
    });

    it('treats the panel\'s "already disabled" (A029) after a stale read as done', async () => {
      const { username } = await newAccount('race');
      const stale = await panelFetch(`${panel.url}/api/users/by-username/${username}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${panel.apiToken}`, 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'https' },
      });
      // Someone disables it between our read (still ACTIVE) and our action.
      panel.users.get(username)!.status = 'DISABLED';
      panel.faults.failNext.push({ method: 'GET', pathPrefix: '/api/users/by-username/', status: 200, body: stale.text });
      expect((await driver.setEnabled(username, false)).status).toBe('disabled');
      expect(panel.requests.filter((r) => r.path.endsWith('/actions/disable'))).toHaveLength(1);
    });

    it('resets the used traffic to 0, and a limited account is active again', async () => {
      const { username } = await newAccount('reset', { dataLimitBytes: 1000 });
      panel.users.get(username)!.usedTrafficBytes = 1000;
      const reset = await driver.resetUsage(username);
      expect(reset).toMatchObject({ usedTrafficBytes: 0, status: 'active' });
      expect(panel.users.get(username)!.usedTrafficBytes).toBe(0);
    });

    it('deletes by id (204), and treats a user already gone as success', async () => {
      const { username } = await newAccount('del');
      const id = panel.users.get(username)!.id;
      expect(await driver.deleteAccount(username)).toEqual({ alreadyGone: false });
      expect(panel.requests.some((r) => r.method === 'DELETE' && r.path === `/api/users/${id}`)).toBe(true);
      expect(panel.users.has(username)).toBe(false);
      expect(await driver.deleteAccount(username)).toEqual({ alreadyGone: true });
    });

    it('reports a text/plain 500 as a server error with the panel text', async () => {
      panel.faults.failNext.push({
        method: 'GET',
        pathPrefix: '/api/users/by-username/',
        status: 500,
        body: 'Internal Server Error',
        contentType: 'text/plain',
      });
      const err = await expectPanelError(driver.getAccount('someone'), 'server_error');
      expect(err.message).toContain('Internal Server Error');
    });
  });

  describe("an account's internal squads", () => {
    const patches = () => panel.requests.filter((r) => r.method === 'PATCH').map((r) => JSON.parse(r.body) as Record<string, unknown>);
    const hostsServed = async (subscriptionUrl: string) =>
      Buffer.from((await panelFetch(subscriptionUrl, { method: 'GET', headers: remnawaveSubscriptionHeaders() })).text, 'base64').toString('utf8');

    it('creates in its own squads when given them, and moves to others and to several, its subscription URL unchanged', async () => {
      const [de, nl] = panel.squads.map((s) => s.uuid) as [string, string];
      const username = newUsername();
      const created = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'move', serviceId: nl });
      expect(panel.users.get(username)!.activeInternalSquads).toEqual([nl]);
      const moved = await driver.setServices(username, de);
      expect(moved).toMatchObject({ username, status: 'active', subscriptionUrl: created.subscriptionUrl, note: 'move' });
      expect(patches()).toEqual([{ username, activeInternalSquads: [de], hwidDeviceLimit: 0 }]);
      expect(panel.users.get(username)!.activeInternalSquads).toEqual([de]);
      const served = await hostsServed(created.subscriptionUrl);
      expect(served).toContain('de1.example.test');
      expect(served).not.toContain('nl1.example.test');
      expect((await driver.setServices(username, `${de}, ${nl}`)).subscriptionUrl).toBe(created.subscriptionUrl);
      expect(panel.users.get(username)!.activeInternalSquads).toEqual([de, nl]);
    });

    it('refuses a squad the panel does not have, one that is no UUID, or none, before changing anything', async () => {
      const { username } = await newAccount('stay');
      const unknown = await expectPanelError(driver.setServices(username, '00000000-0000-4000-8000-000000000000'), 'rejected');
      expect(unknown.message).toBe("The panel has no internal squad 00000000-0000-4000-8000-000000000000; check the server's squads");
      expect((await expectPanelError(driver.setServices(username, 'Germany'), 'rejected')).message).toContain('"Germany" is not an internal squad UUID');
      await expectPanelError(driver.setServices(username, ' '), 'rejected');
      expect(patches()).toHaveLength(0);
      expect(panel.users.get(username)!.activeInternalSquads).toEqual([squad]);
      const malformed = driver.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'x', serviceId: 'Germany' });
      await expectPanelError(malformed, 'rejected');
    });

    it('reports a move of a missing user as rejected, as an extension', async () => {
      const err = await expectPanelError(driver.setServices('nobody_here', squad), 'rejected');
      expect([err.message, err.status]).toEqual(['The user nobody_here does not exist on the panel', 404]);
    });
  });

  describe('subscription formats', () => {
    const fetchFormat = (url: string, format: Parameters<typeof remnawaveSubscriptionFormatUrl>[1]) =>
      panelFetch(remnawaveSubscriptionFormatUrl(url, format), { method: 'GET', headers: remnawaveSubscriptionHeaders() });

    it("builds the client-type URLs from the panel's subscription URL", () => {
      const url = 'https://sub.example.test/Ab3_xY9-kLmN0pQr';
      expect(remnawaveSubscriptionFormatUrl(url, 'v2ray')).toBe(url);
      expect(remnawaveSubscriptionFormatUrl(`${url}/`, 'sing-box')).toBe(`${url}/singbox`);
      expect(remnawaveSubscriptionFormatUrl(url, 'clash-meta')).toBe(`${url}/mihomo`);
      expect(remnawaveSubscriptionFormatUrl('https://panel.example.test/api/sub/Ab3', 'clash')).toBe('https://panel.example.test/api/sub/Ab3/clash');
    });

    it('gets base64 links, sing-box JSON, mihomo and clash YAML with the node hosts and never the panel address', async () => {
      const { subscriptionUrl } = await newAccount('formats', { dataLimitBytes: GIB });
      const v2ray = await fetchFormat(subscriptionUrl, 'v2ray');
      expect(v2ray.status).toBe(200);
      const links = Buffer.from(v2ray.text, 'base64').toString('utf8').split('\n');
      expect(links.every((link) => /^(vless|trojan):\/\//.test(link))).toBe(true);
      expect(v2ray.headers.get('subscription-userinfo')).toMatch(new RegExp(`^upload=0; download=0; total=${GIB}; expire=0$`));

      const singBox = await fetchFormat(subscriptionUrl, 'sing-box');
      expect(singBox.contentType).toContain('application/json');
      expect((singBox.json as { outbounds: Array<{ server?: string }> }).outbounds.some((o) => o.server === 'de1.example.test')).toBe(true);

      for (const format of ['clash-meta', 'clash'] as const) {
        const yaml = await fetchFormat(subscriptionUrl, format);
        expect(yaml.contentType).toContain('text/yaml');
        expect(yaml.text).toMatch(/server: "de1\.example\.test"/);
      }
      for (const body of [links.join('\n'), singBox.text]) expect(body).not.toContain(new URL(panel.url).host);
    });

    it('fetches with a User-Agent of its own that no seeded response rule or Xray-JSON fallback matches', async () => {
      expect(remnawaveSubscriptionHeaders()['user-agent']).not.toMatch(/^(v2rayN|v2rayNG|Happ|Streisand|clash|stash|sfa)|sfi|sfm|sft|karing|singbox|mihomo/i);
    });
  });
});
