import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRole, startFakePasarguard, type FakePasarguard } from '../../test/fake-panels/pasarguard.js';
import { expectPanelError } from '../../test/panel-assertions.js';
import { createPasarguardDriver, pasarguardSubscriptionFormatUrl } from './pasarguard.js';
import type { PanelDriver } from './panel-driver.js';

const DAY = 24 * 3600 * 1000;
const wholeSeconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

describe('pasarguardSubscriptionFormatUrl', () => {
  it("appends the panel's client-type segment, with underscores and links_base64 for v2ray", () => {
    const url = 'https://sub.example.test/sub/djMsMSwxNzAw.c2ln/';
    expect(pasarguardSubscriptionFormatUrl(url, 'v2ray')).toBe('https://sub.example.test/sub/djMsMSwxNzAw.c2ln/links_base64');
    expect(pasarguardSubscriptionFormatUrl(url, 'sing-box')).toBe('https://sub.example.test/sub/djMsMSwxNzAw.c2ln/sing_box');
    expect(pasarguardSubscriptionFormatUrl(url, 'clash-meta')).toBe('https://sub.example.test/sub/djMsMSwxNzAw.c2ln/clash_meta');
    expect(pasarguardSubscriptionFormatUrl('https://p.example.test/prefix/sub/tok#x', 'clash')).toBe('https://p.example.test/prefix/sub/tok/clash');
  });
});

describe('the PasarGuard driver against a panel that behaves as its v5.2.1 source does', () => {
  let panel: FakePasarguard;
  let driver: PanelDriver;
  let n = 0;
  const newUsername = () => `user_p${Date.now().toString(36).slice(-4)}${(n += 1)}`;
  const make = (overrides: Partial<{ password: string; serviceId: string; url: string; timeoutMs: number }> = {}) =>
    createPasarguardDriver(
      {
        url: overrides.url ?? panel.url,
        username: panel.admin.username,
        password: overrides.password ?? panel.admin.password,
        serviceId: overrides.serviceId ?? '1,2',
      },
      { timeoutMs: overrides.timeoutMs ?? 2000 },
    );
  const posts = () => panel.requests.filter((r) => r.method === 'POST' && r.path === '/api/user');
  const account = (note = 'acct-1', extra: Partial<{ dataLimitBytes: number | null; expiresAt: Date | null }> = {}) => ({
    username: newUsername(),
    dataLimitBytes: 10 * 1024 ** 3,
    expiresAt: wholeSeconds(Date.now() + 30 * DAY),
    note,
    ...extra,
  });

  beforeEach(async () => {
    panel = await startFakePasarguard();
    driver = make();
  });
  afterEach(async () => {
    await panel.close();
  });

  describe('connecting', () => {
    it('passes the credential test with the right password and fails it as auth with a wrong one', async () => {
      await expect(driver.testConnection()).resolves.toBeUndefined();
      await expectPanelError(make({ password: 'wrong' }).testConnection(), 'auth');
    });

    it('names an unknown group and a disabled group at the credential test', async () => {
      const unknown = await expectPanelError(make({ serviceId: '1,42' }).testConnection(), 'rejected');
      expect(unknown.message).toBe("The panel has no group 42 (or this panel admin may not see it); check the server's service ID");
      const disabled = await expectPanelError(make({ serviceId: '3' }).testConnection(), 'rejected');
      expect(disabled.message).toBe("The panel's group 3 (Archive) is disabled: its users would get no configuration");
      await expectPanelError(make({ serviceId: 'Germany' }).testConnection(), 'rejected');
      await expect(make({ serviceId: '' }).testConnection()).resolves.toBeUndefined();
    });

    it('passes an operator, which reads group names only, and fails roles that could not provision our users', async () => {
      panel.admin.role = seededRole('operator');
      await expect(driver.testConnection()).resolves.toBeUndefined();
      panel.admin.role.permissions.users!.delete = { scope: 0 };
      expect((await expectPanelError(driver.testConnection(), 'not_permitted')).message).toContain('users.delete');
      panel.admin.role = seededRole('administrator');
      panel.admin.role.access.require_template = true;
      await expectPanelError(driver.testConnection(), 'not_permitted');
      panel.admin.role = seededRole('administrator');
      panel.admin.role.limits.max_hwid_per_user = 2;
      expect((await expectPanelError(driver.testConnection(), 'not_permitted')).message).toContain('HWID');
      panel.admin.role = seededRole('administrator');
      panel.admin.status = 'limited';
      await expectPanelError(driver.testConnection(), 'not_permitted');
    });

    it('fails the credential test when this admin may read no groups to check them', async () => {
      panel.admin.role = seededRole('operator');
      panel.admin.role.permissions.groups = {};
      await expectPanelError(driver.testConnection(), 'not_permitted');
      await expect(make({ serviceId: '' }).testConnection()).resolves.toBeUndefined();
    });

    it('reports an unreachable panel as retryable, a slow one as a timeout and a wrong URL as such', async () => {
      await expectPanelError(make({ url: `${panel.url}/not-the-api` }).testConnection(), 'wrong_url');
      panel.faults.delayMs = 300;
      await expectPanelError(make({ timeoutMs: 100 }).testConnection(), 'timeout');
      panel.faults.delayMs = 0;
      panel.faults.down = true;
      expect((await expectPanelError(make().testConnection(), 'unreachable')).retryable).toBe(true);
    });

    it('lists the groups as services, marking a disabled one', async () => {
      expect(await driver.listServices()).toEqual([
        { id: '1', name: 'Netherlands' },
        { id: '2', name: 'Germany' },
        { id: '3', name: 'Archive (disabled)' },
      ]);
      panel.admin.role = seededRole('operator');
      expect((await driver.listServices())[2]).toEqual({ id: '3', name: 'Archive' });
    });

    it('logs in again once when the token is revoked mid-way', async () => {
      await driver.getAccount('nobody_here');
      panel.revokeAllTokens();
      expect(await driver.getAccount('nobody_here')).toBeNull();
      expect(panel.requests.filter((r) => r.path === '/api/admin/token')).toHaveLength(2);
    });
  });

  describe('accounts', () => {
    it("creates in the groups with the panel's device limit off, and reads the links from the subscription", async () => {
      const input = account();
      const created = await driver.createAccount(input);
      expect(created).toMatchObject({
        username: input.username,
        status: 'active',
        dataLimitBytes: input.dataLimitBytes,
        expiresAt: input.expiresAt,
        note: 'acct-1',
        links: null,
      });
      expect(created.subscriptionUrl.startsWith(`${panel.url}/sub/`)).toBe(true);
      expect(JSON.parse(posts()[0]!.body)).toMatchObject({ group_ids: [1, 2], hwid_limit: 0, expire: input.expiresAt!.toISOString(), status: 'active' });
      const links = (await driver.getAccount(input.username, { withLinks: true }))!.links!;
      expect(links).toHaveLength(4);
      expect(links.some((link) => link.startsWith('vless://') && link.includes('@nl1.example.test:443'))).toBe(true);
      expect(panel.users.get(input.username)!.hwid_limit).toBe(0);
    });

    it('still reads the links of its users under a forced device policy, and names the refusal for a user made elsewhere', async () => {
      const ours = account();
      await driver.createAccount(ours);
      const theirs = account();
      await driver.createAccount(theirs);
      panel.users.get(theirs.username)!.hwid_limit = null;
      Object.assign(panel.hwid, { forced: true, require_hwid_for_manual_sub: true });
      expect((await driver.getAccount(ours.username, { withLinks: true }))!.links).toHaveLength(4);
      const err = await expectPanelError(driver.getAccount(theirs.username, { withLinks: true }), 'rejected');
      expect(err.message).toBe('Reading the configuration links: HWID header required');
    });

    it('creates without limits as data_limit 0 and expire 0, read back as null', async () => {
      const created = await driver.createAccount(account('free', { dataLimitBytes: null, expiresAt: null }));
      expect(created).toMatchObject({ dataLimitBytes: null, expiresAt: null });
      expect(JSON.parse(posts()[0]!.body)).toMatchObject({ data_limit: 0, expire: 0 });
    });

    it('refuses a disabled or unknown group before creating anything, naming it', async () => {
      const input = account();
      expect((await expectPanelError(make({ serviceId: '3' }).createAccount(input), 'rejected')).message).toContain('group 3 (Archive) is disabled');
      expect((await expectPanelError(make({ serviceId: '9' }).createAccount(input), 'rejected')).message).toContain('no group 9');
      expect(posts()).toHaveLength(0);
    });

    it('an admin that reads group names only: a user put in a disabled group is deleted again and refused, naming the group', async () => {
      panel.admin.role = seededRole('operator');
      const input = account();
      const err = await expectPanelError(make({ serviceId: '3' }).createAccount(input), 'rejected');
      expect(err.message).toBe(
        "The panel gave the new user no configuration: its group 3 may be disabled or have no inbounds (this panel admin cannot see groups' state; grant it groups.read to have it checked before)",
      );
      expect(posts()).toHaveLength(1);
      expect(panel.users.has(input.username)).toBe(false);
      // An enabled group works as before.
      const created = await make({ serviceId: '1' }).createAccount(account());
      expect(panel.users.has(created.username)).toBe(true);
    });

    it('turns the panel\'s own "Group not found" into a rejection naming the groups when it cannot list them', async () => {
      panel.admin.role = seededRole('operator');
      panel.admin.role.permissions.groups = {};
      const err = await expectPanelError(make({ serviceId: '1,9' }).createAccount(account()), 'rejected');
      expect(err.message).toBe("The panel has no group among 1, 9 (Group not found); check the server's service ID");
    });

    it('lists every user in pages, with the total and their subscription URLs', async () => {
      const names = Array.from({ length: 7 }, () => newUsername());
      for (const username of names) await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'list' });
      const seen: string[] = [];
      for (let page = 1; page <= 3; page += 1) {
        const { accounts, total } = await driver.listAccounts({ page, size: 3 });
        expect(total).toBe(7);
        expect(accounts.length).toBe(page < 3 ? 3 : 1);
        for (const listed of accounts)
          expect(listed).toMatchObject({ status: 'active', links: null, note: 'list', subscriptionUrl: expect.stringContaining(`${panel.url}/sub/`) });
        seen.push(...accounts.map((listed) => listed.username));
      }
      expect(seen).toEqual([...names].sort());
    });

    it('extends an expired user back to active, and a limited one given more data', async () => {
      const lapsed = account('ext', { expiresAt: new Date(Date.now() + 60_000) });
      await driver.createAccount(lapsed);
      panel.users.get(lapsed.username)!.expire = new Date(Date.now() - 1000);
      expect((await driver.getAccount(lapsed.username))!.status).toBe('expired');
      const later = wholeSeconds(Date.now() + 60 * DAY);
      expect(await driver.extendAccount(lapsed.username, { expiresAt: later })).toMatchObject({ status: 'active', expiresAt: later });

      const heavy = account('ext', { dataLimitBytes: 1000 });
      await driver.createAccount(heavy);
      panel.users.get(heavy.username)!.used_traffic = 1500;
      expect((await driver.getAccount(heavy.username))!.status).toBe('limited');
      expect(await driver.extendAccount(heavy.username, { dataLimitBytes: 5000 })).toMatchObject({ status: 'active', dataLimitBytes: 5000 });
      expect(await driver.extendAccount(heavy.username, { expiresAt: null, dataLimitBytes: null })).toMatchObject({ expiresAt: null, dataLimitBytes: null });
    });

    it('disables and enables, an expired user coming back expired, not active', async () => {
      const input = account();
      await driver.createAccount(input);
      expect((await driver.setEnabled(input.username, false)).status).toBe('disabled');
      expect((await driver.setEnabled(input.username, false)).status).toBe('disabled');
      expect((await driver.setEnabled(input.username, true)).status).toBe('active');
      await driver.setEnabled(input.username, false);
      panel.users.get(input.username)!.expire = new Date(Date.now() - 1000);
      expect((await driver.setEnabled(input.username, true)).status).toBe('expired');
    });

    it('resets the used traffic to 0', async () => {
      const input = account('reset', { dataLimitBytes: 1000 });
      await driver.createAccount(input);
      panel.users.get(input.username)!.used_traffic = 1200;
      expect((await driver.getAccount(input.username))!.status).toBe('limited');
      expect(await driver.resetUsage(input.username)).toMatchObject({ usedTrafficBytes: 0, status: 'active' });
    });

    it('deletes idempotently: 204 first, then "User not found" means already gone', async () => {
      const input = account();
      await driver.createAccount(input);
      expect(await driver.deleteAccount(input.username)).toEqual({ alreadyGone: false });
      expect(await driver.deleteAccount(input.username)).toEqual({ alreadyGone: true });
      expect(await driver.getAccount(input.username)).toBeNull();
      await expectPanelError(make({ url: `${panel.url}/not-the-api` }).deleteAccount(input.username), 'wrong_url');
    });
  });

  describe("an account's groups", () => {
    const puts = (username: string) => panel.requests.filter((r) => r.method === 'PUT' && r.path === `/api/user/${username}`).map((r) => JSON.parse(r.body));
    const protocols = async (url: string) => (await fetch(`${url}/links`).then((res) => res.text())).split('\n').map((link) => link.split(':')[0]);

    it('creates in its own groups when given them, and moves to others and to several, its settings and link kept', async () => {
      const input = { ...account('move'), serviceId: '2' };
      const created = await driver.createAccount(input);
      expect(JSON.parse(posts()[0]!.body).group_ids).toEqual([2]);
      const settings = structuredClone(panel.users.get(input.username)!.proxy_settings);
      expect(await protocols(created.subscriptionUrl)).toEqual(['trojan', 'ss']);
      const moved = await driver.setServices(input.username, '1');
      expect(moved).toMatchObject({ username: input.username, status: 'active', note: 'move' });
      expect(puts(input.username)).toEqual([{ group_ids: [1] }]);
      expect(panel.users.get(input.username)).toMatchObject({ group_ids: [1], proxy_settings: settings });
      // The link it was made with serves the new groups (every subscription token stays valid).
      expect(await protocols(created.subscriptionUrl)).toEqual(['vless', 'vmess']);
      await driver.setServices(input.username, '1,2');
      expect(panel.users.get(input.username)!.group_ids).toEqual([1, 2]);
    });

    it('refuses an unknown or disabled group, or none, before changing anything; a missing user as an extension does', async () => {
      const input = account();
      await driver.createAccount(input);
      expect((await expectPanelError(driver.setServices(input.username, '2,42'), 'rejected')).message).toContain('no group 42');
      expect((await expectPanelError(driver.setServices(input.username, '3'), 'rejected')).message).toContain('group 3 (Archive) is disabled');
      await expectPanelError(driver.setServices(input.username, ''), 'rejected');
      await expectPanelError(driver.setServices(input.username, 'Germany'), 'rejected');
      expect(puts(input.username)).toHaveLength(0);
      expect(panel.users.get(input.username)!.group_ids).toEqual([1, 2]);
      const missing = await expectPanelError(driver.setServices('nobody_here', '1'), 'rejected');
      const extended = await expectPanelError(driver.extendAccount('nobody_here', { dataLimitBytes: 1 }), 'rejected');
      expect([missing.status, extended.status]).toEqual([404, 404]);
      await expectPanelError(driver.createAccount({ ...account(), serviceId: '9' }), 'rejected');
      expect(posts()).toHaveLength(1);
    });

    it('an admin that reads group names only: a move into a disabled group is undone and refused, naming the group', async () => {
      panel.admin.role = seededRole('operator');
      const input = account();
      await make({ serviceId: '1' }).createAccount(input);
      const err = await expectPanelError(driver.setServices(input.username, '3'), 'rejected');
      expect(err.message).toMatch(/^The panel gave the user no configuration in group 3: .*left in its old groups/);
      expect(puts(input.username)).toEqual([{ group_ids: [3] }, { group_ids: [1] }]);
      expect(panel.users.get(input.username)!.group_ids).toEqual([1]);
      expect((await driver.setServices(input.username, '2')).username).toBe(input.username);
      expect(panel.users.get(input.username)!.group_ids).toEqual([2]);
    });
  });

  describe('a create whose outcome is unclear', () => {
    it('adopts a taken username carrying our marker, and reports one without it as a conflict', async () => {
      const input = account('ours-7');
      const first = await driver.createAccount(input);
      expect((await driver.createAccount(input)).username).toBe(first.username);
      await expectPanelError(driver.createAccount({ ...input, note: 'someone-else' }), 'conflict');
      expect([...panel.users.keys()].filter((name) => name === input.username)).toHaveLength(1);
    });

    it('reports a name taken by a user this operator cannot see as a conflict', async () => {
      const input = account('ours-8');
      await driver.createAccount(input);
      panel.users.get(input.username)!.admin = { id: 2, username: 'reseller2' };
      panel.admin.role = seededRole('operator');
      await expectPanelError(driver.createAccount(input), 'conflict');
    });

    it('reads back after a 500: adopts the saved user, or reports a retryable error when nothing was saved', async () => {
      const saved = account('ours-9');
      await driver.createAccount(saved);
      panel.faults.failNext.push({ method: 'POST', pathPrefix: '/api/user', status: 500 });
      expect((await driver.createAccount(saved)).username).toBe(saved.username);

      const lost = account('ours-10');
      panel.faults.failNext.push({ method: 'POST', pathPrefix: '/api/user', status: 500 });
      expect((await expectPanelError(driver.createAccount(lost), 'server_error')).retryable).toBe(true);
      expect(panel.users.has(lost.username)).toBe(false);
    });

    it('reads back after a timeout and adopts the user the panel saved, without posting again', async () => {
      const input = account('ours-11');
      panel.lateAnswers.push({ method: 'POST', pathPrefix: '/api/user', ms: 600 });
      const adopted = await make({ timeoutMs: 200 }).createAccount(input);
      expect(adopted).toMatchObject({ username: input.username, note: 'ours-11' });
      expect(posts()).toHaveLength(1);
    });
  });

  describe('subscription formats', () => {
    it("fetches each of /sub's four formats from the panel with the right content", async () => {
      const input = account();
      const { subscriptionUrl } = await driver.createAccount(input);
      const get = async (format: Parameters<typeof pasarguardSubscriptionFormatUrl>[1]) => {
        const response = await fetch(pasarguardSubscriptionFormatUrl(subscriptionUrl, format));
        expect(response.status).toBe(200);
        return { type: response.headers.get('content-type'), body: await response.text(), userinfo: response.headers.get('subscription-userinfo') };
      };
      const v2ray = await get('v2ray');
      expect(Buffer.from(v2ray.body, 'base64').toString('utf8')).toMatch(/^vless:\/\/[0-9a-f-]+@nl1\.example\.test:443/m);
      expect(v2ray.userinfo).toBe(`upload=0; download=0; total=${input.dataLimitBytes}; expire=${input.expiresAt!.getTime() / 1000}`);
      const singBox = await get('sing-box');
      expect(singBox.type).toBe('application/json');
      expect(JSON.parse(singBox.body).outbounds.some((o: { server?: string }) => o.server === 'de1.example.test')).toBe(true);
      for (const format of ['clash-meta', 'clash'] as const) {
        const yaml = await get(format);
        expect(yaml.type).toBe('text/yaml; charset=utf-8');
        expect(yaml.body).toMatch(/^proxies:$/m);
      }
    });
  });
});
