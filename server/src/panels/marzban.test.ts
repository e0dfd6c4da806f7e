import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asMarzbanUser, startFakeMarzban, type FakeMarzban } from '../../test/fake-panels/marzban.js';
import { ALL_INBOUNDS, createMarzbanDriver } from './marzban.js';
import { expectPanelError } from '../../test/panel-assertions.js';
import type { PanelDriver } from './panel-driver.js';

const DAY = 24 * 3600 * 1000;

describe('the Marzban driver against a panel that behaves as panels.md describes', () => {
  let panel: FakeMarzban;
  let driver: PanelDriver;
  let n = 0;
  const newUsername = () => `user_b${Date.now().toString(36).slice(-4)}${(n += 1)}`;
  const make = (serviceId = ALL_INBOUNDS, password?: string) =>
    createMarzbanDriver({ url: panel.url, username: panel.admin.username, password: password ?? panel.admin.password, serviceId }, { timeoutMs: 2000 });

  beforeEach(async () => {
    panel = await startFakeMarzban();
    driver = make();
  });
  afterEach(async () => {
    await panel.close();
  });

  it('lists every user in pages, with the total, as the panel sync reads them', async () => {
    const names = Array.from({ length: 7 }, () => newUsername());
    for (const username of names) await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'list' });
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const { accounts, total } = await driver.listAccounts({ page, size: 3 });
      expect(total).toBe(7);
      expect(accounts.length).toBe(page < 3 ? 3 : 1);
      for (const account of accounts) expect(account).toMatchObject({ status: 'active', usedTrafficBytes: 0, links: null, note: 'list' });
      seen.push(...accounts.map((account) => account.username));
    }
    expect(seen.sort()).toEqual(names.map((name) => name.toLowerCase()).sort());
    expect(
      panel.requests
        .filter((r) => r.method === 'GET' && r.path.startsWith('/api/users?'))
        .map((r) => r.path)
        .every((path) => /^\/api\/users\?offset=\d+&limit=3$/.test(path)),
    ).toBe(true);
  });

  it('passes the credential test and lists inbounds as services, with "all" first', async () => {
    await expect(driver.testConnection()).resolves.toBeUndefined();
    await expectPanelError(make(ALL_INBOUNDS, 'wrong').testConnection(), 'auth');
    const services = await driver.listServices();
    expect(services[0]).toEqual({ id: 'all', name: 'All inbounds' });
    expect(services).toContainEqual({ id: 'VLESS TCP TLS', name: 'VLESS TCP TLS (vless)' });
  });

  it('creates an account with both proxies and inbounds, so it has configuration links', async () => {
    const username = newUsername();
    const expiresAt = new Date(Math.floor((Date.now() + 30 * DAY) / 1000) * 1000);
    const account = await driver.createAccount({ username, dataLimitBytes: 10 * 1024 ** 3, expiresAt, note: 'acct-b1' });
    expect(account).toMatchObject({ username, status: 'active', dataLimitBytes: 10 * 1024 ** 3, expiresAt });
    expect(account.links?.length).toBeGreaterThan(0);
    expect(account.subscriptionUrl.startsWith(`${panel.url}/sub/`)).toBe(true);
    const body = JSON.parse(panel.requests.find((r) => r.method === 'POST' && r.path === '/api/user')!.body);
    expect(Object.keys(body.proxies).sort()).toEqual(Object.keys(body.inbounds).sort());
    expect((await driver.getAccount(username, { withLinks: true }))?.links?.length).toBeGreaterThan(0);
  });

  it('creates on a single inbound when the service is one tag', async () => {
    const account = await make('Trojan TCP TLS').createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'one' });
    const links = (await driver.getAccount(account.username, { withLinks: true }))!.links!;
    expect(links.length).toBe(1);
    expect(links[0]).toMatch(/^trojan:\/\//);
  });

  it('refuses an inbound the panel does not have', async () => {
    const username = newUsername();
    await expectPanelError(make('No Such Inbound').createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'x' }), 'rejected');
    expect(panel.users.has(username)).toBe(false);
  });

  it('reads the user back after a 500 on create and adopts it when it is ours (Marzban saves, then answers 500)', async () => {
    const username = newUsername();
    const saved = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'ours-b' });
    panel.faults.failNext.push({ method: 'POST', pathPrefix: '/api/user', status: 500 });
    const adopted = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'ours-b' });
    expect(adopted.username).toBe(saved.username);
    expect([...panel.users.keys()].filter((name) => name === username)).toHaveLength(1);
  });

  it('treats a taken username that is not ours as a conflict', async () => {
    const username = newUsername();
    await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'first' });
    await expectPanelError(driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'second' }), 'conflict');
  });

  it('a non-sudo admin: a name another admin holds is a conflict (its read-back answers 403), not a credentials error', async () => {
    const reseller = await startFakeMarzban({ sudo: false });
    try {
      const driverOf = createMarzbanDriver(
        { url: reseller.url, username: reseller.admin.username, password: reseller.admin.password, serviceId: ALL_INBOUNDS },
        { timeoutMs: 2000 },
      );
      const username = newUsername();
      await driverOf.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'theirs' });
      asMarzbanUser(reseller.users.get(username)).admin = 'another-admin';
      await expectPanelError(driverOf.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'ours' }), 'conflict');
    } finally {
      await reseller.close();
    }
  });

  it('reports a 500 with nothing saved as retryable, leaving nothing behind', async () => {
    const username = newUsername();
    panel.faults.failNext.push({ method: 'POST', pathPrefix: '/api/user', status: 500 });
    const err = await expectPanelError(driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'n' }), 'server_error');
    expect(err.retryable).toBe(true);
    expect(panel.users.has(username)).toBe(false);
  });

  it('extends, disables and enables, and deletes idempotently', async () => {
    const username = newUsername();
    await driver.createAccount({ username, dataLimitBytes: 1024 ** 3, expiresAt: new Date(Date.now() + DAY), note: 'life' });
    const later = new Date(Math.floor((Date.now() + 90 * DAY) / 1000) * 1000);
    expect(await driver.extendAccount(username, { expiresAt: later, dataLimitBytes: 2 * 1024 ** 3 })).toMatchObject({
      expiresAt: later,
      dataLimitBytes: 2 * 1024 ** 3,
    });
    expect((await driver.setEnabled(username, false)).status).toBe('disabled');
    expect((await driver.setEnabled(username, true)).status).toBe('active');
    expect(await driver.deleteAccount(username)).toEqual({ alreadyGone: false });
    expect(await driver.deleteAccount(username)).toEqual({ alreadyGone: true });
    expect(await driver.getAccount(username)).toBeNull();
  });

  it('resets the used traffic to 0', async () => {
    const username = newUsername();
    await driver.createAccount({ username, dataLimitBytes: 1024 ** 3, expiresAt: null, note: 'reset' });
    panel.users.get(username)!.used_traffic = 7000;
    expect((await driver.getAccount(username))?.usedTrafficBytes).toBe(7000);
    expect((await driver.resetUsage(username)).usedTrafficBytes).toBe(0);
    expect(panel.users.get(username)?.used_traffic).toBe(0);
  });

  it('logs in again once when the token is revoked mid-way', async () => {
    await driver.getAccount('nobody_here');
    panel.revokeAllTokens();
    expect(await driver.getAccount('nobody_here')).toBeNull();
    expect(panel.requests.filter((r) => r.path.startsWith('/api/admin/token'))).toHaveLength(2);
  });

  it('refuses a disabled protocol with the panel message', async () => {
    const vlessOnly = await startFakeMarzban({ protocols: ['vmess'] });
    const limited = createMarzbanDriver({
      url: vlessOnly.url,
      username: vlessOnly.admin.username,
      password: vlessOnly.admin.password,
      serviceId: 'VLESS TCP TLS',
    });
    await expectPanelError(limited.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'p' }), 'rejected');
    await vlessOnly.close();
  });

  describe("an account's inbounds", () => {
    const puts = () => panel.requests.filter((r) => r.method === 'PUT').map((r) => JSON.parse(r.body));
    const stored = (username: string) => asMarzbanUser(panel.users.get(username));
    const protocols = (links: string[] | null) => (links ?? []).map((link) => link.split(':')[0]);
    const served = async (subscriptionUrl: string) =>
      Buffer.from(await fetch(subscriptionUrl).then((res) => res.text()), 'base64')
        .toString('utf8')
        .split('\n');

    it('moves an account to other inbounds and to several, keeping its credentials and its subscription link', async () => {
      const username = newUsername();
      const created = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'move' });
      const credentials = structuredClone(stored(username).proxies);
      const moved = await driver.setServices(username, 'Trojan TCP TLS');
      expect(moved).toMatchObject({ username, status: 'active', note: 'move' });
      // Every protocol is named (a protocol left out would keep its inbounds), every proxy sent back as it is.
      expect(puts()).toEqual([
        {
          proxies: credentials,
          inbounds: { vless: [], vmess: [], trojan: ['Trojan TCP TLS'], shadowsocks: [] },
        },
      ]);
      expect(stored(username).proxies).toEqual(credentials);
      expect(protocols((await driver.getAccount(username, { withLinks: true }))!.links)).toEqual(['trojan']);
      // The link made at creation still serves it, now with the new inbound only.
      expect(protocols(await served(created.subscriptionUrl))).toEqual(['trojan']);
      await driver.setServices(username, 'VLESS TCP TLS,Trojan TCP TLS');
      expect(protocols((await driver.getAccount(username, { withLinks: true }))!.links)).toEqual(['vless', 'trojan']);
      await driver.setServices(username, ALL_INBOUNDS);
      expect(protocols(await served(created.subscriptionUrl))).toEqual(['vless', 'vmess', 'trojan', 'ss']);
      expect(stored(username).proxies).toEqual(credentials);
    });

    it('creates in its own inbounds when given them, and adds a protocol it lacks with new credentials on a move', async () => {
      const username = newUsername();
      const created = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'own', serviceId: 'VMess Websocket' });
      expect(protocols(created.links)).toEqual(['vmess']);
      const vmess = stored(username).proxies.vmess;
      await driver.setServices(username, 'Shadowsocks TCP');
      expect(puts()[0].proxies).toEqual({ vmess, shadowsocks: {} });
      expect(stored(username).proxies).toMatchObject({ vmess, shadowsocks: { password: expect.any(String) } });
      expect(protocols((await driver.getAccount(username, { withLinks: true }))!.links)).toEqual(['ss']);
      const several = await driver.createAccount({
        username: newUsername(),
        dataLimitBytes: null,
        expiresAt: null,
        note: 'two',
        serviceId: 'VLESS TCP TLS, Shadowsocks TCP',
      });
      expect(protocols(several.links)).toEqual(['vless', 'ss']);
    });

    it('refuses an inbound the panel does not have, or none, before changing anything; a missing user as rejected', async () => {
      const username = newUsername();
      await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'stay' });
      const unknown = await expectPanelError(driver.setServices(username, 'VLESS TCP TLS,No Such Inbound'), 'rejected');
      expect(unknown.message).toBe("The panel has no inbound No Such Inbound; check the server's service ID");
      await expectPanelError(driver.setServices(username, ' , '), 'rejected');
      expect(puts()).toHaveLength(0);
      expect(protocols((await driver.getAccount(username, { withLinks: true }))!.links)).toHaveLength(4);
      const missing = await expectPanelError(driver.setServices('nobody_here', 'VLESS TCP TLS'), 'rejected');
      const extended = await expectPanelError(driver.extendAccount('nobody_here', { dataLimitBytes: 1 }), 'rejected');
      expect([missing.status, extended.status]).toEqual([404, 404]);
    });
  });
});
