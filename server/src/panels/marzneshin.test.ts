import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asMarzneshinUser, startFakeMarzneshin, type FakeMarzneshin } from '../../test/fake-panels/marzneshin.js';
import { createMarzneshinDriver } from './marzneshin.js';
import { expectPanelError } from '../../test/panel-assertions.js';
import type { PanelDriver } from './panel-driver.js';

const DAY = 24 * 3600 * 1000;

describe('the Marzneshin driver against a panel that behaves as panels.md describes', () => {
  let panel: FakeMarzneshin;
  let driver: PanelDriver;
  let serviceId: string;
  let n = 0;
  const newUsername = () => `user_t${Date.now().toString(36).slice(-4)}${(n += 1)}`;
  const make = (overrides: Partial<{ password: string; serviceId: string; url: string; timeoutMs: number }> = {}) =>
    createMarzneshinDriver(
      {
        url: overrides.url ?? panel.url,
        username: panel.admin.username,
        password: overrides.password ?? panel.admin.password,
        serviceId: overrides.serviceId ?? serviceId,
      },
      { timeoutMs: overrides.timeoutMs ?? 2000 },
    );
  const logins = () => panel.requests.filter((r) => r.path.startsWith('/api/admins/token')).length;

  beforeEach(async () => {
    panel = await startFakeMarzneshin();
    driver = make({ serviceId: '1' });
    serviceId = (await driver.listServices())[0]!.id;
    driver = make();
  });
  afterEach(async () => {
    await panel.close();
  });

  describe('connecting', () => {
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
          .every((path) => /^\/api\/users\?page=\d&size=3$/.test(path)),
      ).toBe(true);
    });

    it('passes the credential test with the right password and fails it as auth with a wrong one', async () => {
      await expect(driver.testConnection()).resolves.toBeUndefined();
      await expectPanelError(make({ password: 'wrong' }).testConnection(), 'auth');
    });

    it('reports an unreachable panel as retryable', async () => {
      panel.faults.down = true;
      const err = await expectPanelError(make().testConnection(), 'unreachable');
      expect(err.retryable).toBe(true);
    });

    it('reports a slow panel as a timeout', async () => {
      panel.faults.delayMs = 500;
      await expectPanelError(make({ timeoutMs: 100 }).testConnection(), 'timeout');
    });

    it('tells a wrong URL (a route 404 "Not Found") from a missing user', async () => {
      await expectPanelError(make({ url: `${panel.url}/not-the-api` }).testConnection(), 'wrong_url');
    });

    describe('checks that this panel admin can provision on the chosen service', () => {
      const panels: FakeMarzneshin[] = [];
      afterEach(async () => {
        await Promise.all(panels.splice(0).map((p) => p.close()));
      });
      const driverFor = async (options: Parameters<typeof startFakeMarzneshin>[0], chosen: string) => {
        const other = await startFakeMarzneshin(options);
        panels.push(other);
        return createMarzneshinDriver({ url: other.url, username: other.admin.username, password: other.admin.password, serviceId: chosen });
      };

      it('fails a non-sudo admin without the service, naming it, though its login works', async () => {
        const driver = await driverFor({ sudo: false, adminServiceIds: [2] }, '1');
        const err = await expectPanelError(driver.testConnection(), 'not_permitted');
        expect(err.message).toBe('this panel admin cannot assign service 1; use a sudo admin or give it the service');
        expect(err.retryable).toBe(false);
      });

      it('passes a non-sudo admin that has the service, or all services, and a sudo admin', async () => {
        await expect((await driverFor({ sudo: false, adminServiceIds: [2] }, '2')).testConnection()).resolves.toBeUndefined();
        await expect((await driverFor({ sudo: false, adminServiceIds: [], allServicesAccess: true }, '1')).testConnection()).resolves.toBeUndefined();
        await expect((await driverFor({ sudo: true }, '1')).testConnection()).resolves.toBeUndefined();
      });

      it('without a chosen service (the first test, to list services) checks only the login and the right to change users', async () => {
        await expect((await driverFor({ sudo: false, adminServiceIds: [] }, '')).testConnection()).resolves.toBeUndefined();
        const readOnly = await driverFor({ sudo: false, modifyUsersAccess: false }, '');
        expect((await expectPanelError(readOnly.testConnection(), 'not_permitted')).message).toBe(
          'this panel admin cannot modify users; use a sudo admin or allow it to modify users',
        );
      });

      it('is right to check: the panel itself would create the user with no service, and a 200', async () => {
        const driver = await driverFor({ sudo: false, adminServiceIds: [2] }, '1');
        const err = await expectPanelError(driver.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'n' }), 'rejected');
        expect(err.message).toMatch(/dropped service 1/);
        expect(panels[0]!.users.size).toBe(0); // the service-less user was removed again
      });
    });

    it('lists services with string ids', async () => {
      const services = await driver.listServices();
      expect(services.length).toBeGreaterThan(0);
      expect(services[0]).toEqual({ id: expect.stringMatching(/^\d+$/), name: expect.any(String) });
    });

    it('logs in once for many concurrent calls, and again once after the token is revoked', async () => {
      const fresh = make();
      await Promise.all(Array.from({ length: 5 }, () => fresh.getAccount('nobody_here')));
      expect(logins()).toBe(1 + 1); // beforeEach's driver logged in once too
      panel.revokeAllTokens();
      expect(await fresh.getAccount('nobody_here')).toBeNull();
      expect(logins()).toBe(3);
    });

    it('renews a token that expires soon before using it', async () => {
      panel.tokenTtlSeconds = 30;
      const fresh = make();
      await fresh.getAccount('nobody_here');
      await fresh.getAccount('nobody_here');
      // Both calls found the token within a minute of expiry, so each logged in first.
      expect(logins()).toBe(3);
    });

    it('sends the password only to the login route', async () => {
      await driver.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'marker-a' });
      const carrying = panel.requests.filter((r) => r.body.includes(panel.admin.password) || JSON.stringify(r.headers).includes(panel.admin.password));
      expect(carrying.every((r) => r.path.startsWith('/api/admins/token'))).toBe(true);
    });
  });

  describe('accounts', () => {
    it('creates an account with an absolute subscription URL, UTC expiry and byte limit', async () => {
      const username = newUsername();
      const expiresAt = new Date(Math.floor((Date.now() + 30 * DAY) / 1000) * 1000);
      const account = await driver.createAccount({ username, dataLimitBytes: 50 * 1024 ** 3, expiresAt, note: 'acct-1' });
      expect(account).toEqual({
        username,
        status: 'active',
        usedTrafficBytes: 0,
        dataLimitBytes: 50 * 1024 ** 3,
        expiresAt,
        subscriptionUrl: expect.stringMatching(new RegExp(`^${panel.url}/sub/${username}/[0-9a-f]+$`)),
        links: null,
        note: 'acct-1',
      });
      expect(panel.users.get(username)).toBeDefined();
    });

    it('creates an account that never expires and has no data limit', async () => {
      const account = await driver.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'acct-2' });
      expect(account).toMatchObject({ dataLimitBytes: null, expiresAt: null, status: 'active' });
    });

    it('refuses a service id the panel does not have, and leaves no user behind', async () => {
      const username = newUsername();
      await expectPanelError(make({ serviceId: '999' }).createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'x' }), 'rejected');
      expect(panel.users.has(username)).toBe(false);
    });

    it('adopts a taken username only when the account carries our marker', async () => {
      const username = newUsername();
      const first = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'ours' });
      const again = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'ours' });
      expect(again.subscriptionUrl).toBe(first.subscriptionUrl);
      await expectPanelError(driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'someone-else' }), 'conflict');
    });

    it('does not leave a half-created account after a 500 on create, and says it may be retried', async () => {
      const username = newUsername();
      panel.faults.failNext.push({ method: 'POST', pathPrefix: '/api/users', status: 500, body: 'Internal Server Error', contentType: 'text/plain' });
      const err = await expectPanelError(driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'retry-me' }), 'server_error');
      expect(err.retryable).toBe(true);
      expect(err.message).toContain('Internal Server Error');
      expect(panel.users.has(username)).toBe(false);
      const retried = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'retry-me' });
      expect(retried.username).toBe(username);
    });

    it('reads an account back, with its configuration links when asked', async () => {
      const username = newUsername();
      await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'links' });
      const plain = await driver.getAccount(username);
      expect(plain?.links).toBeNull();
      const withLinks = await driver.getAccount(username, { withLinks: true });
      expect(withLinks?.links?.length).toBeGreaterThan(0);
      expect(withLinks?.links?.every((link) => /^(vless|vmess|trojan|ss):\/\//.test(link))).toBe(true);
      expect(await driver.getAccount('nobody_here')).toBeNull();
    });

    it('never offers the placeholder link of a disabled account as a configuration', async () => {
      const username = newUsername();
      await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'off' });
      const disabled = await driver.setEnabled(username, false);
      expect(disabled.status).toBe('disabled');
      expect((await driver.getAccount(username, { withLinks: true }))?.links).toEqual([]);
    });

    it('extends expiry and data limit without tripping the PUT bug', async () => {
      const username = newUsername();
      await driver.createAccount({ username, dataLimitBytes: 1024 ** 3, expiresAt: new Date(Date.now() + DAY), note: 'ext' });
      const later = new Date(Math.floor((Date.now() + 60 * DAY) / 1000) * 1000);
      expect(await driver.extendAccount(username, { dataLimitBytes: 5 * 1024 ** 3 })).toMatchObject({ dataLimitBytes: 5 * 1024 ** 3 });
      expect(await driver.extendAccount(username, { expiresAt: later })).toMatchObject({ expiresAt: later });
    });

    it('resets the used traffic to 0', async () => {
      const username = newUsername();
      await driver.createAccount({ username, dataLimitBytes: 1024 ** 3, expiresAt: null, note: 'reset' });
      panel.users.get(username)!.used_traffic = 5000;
      expect((await driver.getAccount(username))?.usedTrafficBytes).toBe(5000);
      expect((await driver.resetUsage(username)).usedTrafficBytes).toBe(0);
      expect(panel.users.get(username)?.used_traffic).toBe(0);
    });

    it('enables and disables idempotently', async () => {
      const username = newUsername();
      await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'toggle' });
      expect((await driver.setEnabled(username, true)).status).toBe('active');
      expect((await driver.setEnabled(username, false)).status).toBe('disabled');
      expect((await driver.setEnabled(username, false)).status).toBe('disabled');
    });

    it('deletes, and treats a user already gone as success', async () => {
      const username = newUsername();
      await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'del' });
      expect(await driver.deleteAccount(username)).toEqual({ alreadyGone: false });
      expect(panel.users.has(username)).toBe(false);
      expect(await driver.deleteAccount(username)).toEqual({ alreadyGone: true });
    });

    it('confirms a user is gone through the list when a non-sudo admin gets 403 "You\'re not allowed"', async () => {
      const limited = await startFakeMarzneshin({ sudo: false });
      const limitedDriver = createMarzneshinDriver({ url: limited.url, username: limited.admin.username, password: limited.admin.password, serviceId: '1' });
      expect(await limitedDriver.getAccount('nobody_here')).toBeNull();
      expect(await limitedDriver.deleteAccount('nobody_here')).toEqual({ alreadyGone: true });
      await limited.close();
    });

    it('reports a text/plain 500 as a server error with the panel text, not a parse crash', async () => {
      panel.faults.failNext.push({ method: 'GET', pathPrefix: '/api/users/', status: 500, body: 'Internal Server Error', contentType: 'text/plain' });
      const err = await expectPanelError(driver.getAccount('someone'), 'server_error');
      expect(err.message).toContain('Internal Server Error');
    });
  });

  describe("an account's services", () => {
    const servicesOf = (username: string) => asMarzneshinUser(panel.users.get(username)).service_ids;
    const puts = () => panel.requests.filter((r) => r.method === 'PUT').map((r) => JSON.parse(r.body));
    const others: FakeMarzneshin[] = [];
    afterEach(async () => {
      await Promise.all(others.splice(0).map((other) => other.close()));
    });

    it('creates in its own services when given them, and moves to others and to several, its subscription URL unchanged', async () => {
      const username = newUsername();
      const created = await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'move', serviceId: '2' });
      expect(servicesOf(username)).toEqual([2]);
      const moved = await driver.setServices(username, '1');
      expect(moved).toMatchObject({ username, status: 'active', subscriptionUrl: created.subscriptionUrl, note: 'move', expiresAt: null });
      // The PUT bug: `usage_duration: null` keeps the panel from answering 500 and changes no expiry.
      expect(puts()).toEqual([{ username, usage_duration: null, service_ids: [1] }]);
      expect(servicesOf(username)).toEqual([1]);
      const links = (await driver.getAccount(username, { withLinks: true }))!.links!;
      expect(links.every((link) => link.includes('@de'))).toBe(true);
      expect((await driver.setServices(username, '1, 2')).subscriptionUrl).toBe(created.subscriptionUrl);
      expect(servicesOf(username)).toEqual([1, 2]);
      const both = await driver.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'both', serviceId: '1,2' });
      expect(servicesOf(both.username)).toEqual([1, 2]);
    });

    it('refuses a service the panel does not have, or none, or one that is no number, before changing anything', async () => {
      const { username } = await driver.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'stay' });
      const unknown = await expectPanelError(driver.setServices(username, '2,99'), 'rejected');
      expect(unknown.message).toBe('The panel has no service 99 (or this panel admin may not assign it); pick the services from its list');
      for (const bad of ['', 'Germany', '1;2']) await expectPanelError(driver.setServices(username, bad), 'rejected');
      expect(puts()).toHaveLength(0);
      expect(servicesOf(username)).toEqual([Number(serviceId)]);
      await expectPanelError(
        driver.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'x', serviceId: 'Germany' }),
        'rejected',
      );
      expect(panel.users.size).toBe(1);
    });

    it('reports a move of a missing user as rejected, as an extension', async () => {
      const err = await expectPanelError(driver.setServices('nobody_here', '1'), 'rejected');
      expect([err.message, err.status]).toEqual(["Changing the user's services: User not found", 404]);
      expect((await expectPanelError(driver.extendAccount('nobody_here', { dataLimitBytes: 1 }), 'rejected')).status).toBe(404);
    });

    it('a non-sudo admin: a service it may not assign is refused before the PUT, and named if the panel drops it after', async () => {
      const reseller = await startFakeMarzneshin({ sudo: false, adminServiceIds: [2] });
      others.push(reseller);
      const driverOf = createMarzneshinDriver({ url: reseller.url, username: reseller.admin.username, password: reseller.admin.password, serviceId: '2' });
      const { username } = await driverOf.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'r' });
      expect((await expectPanelError(driverOf.setServices(username, '1'), 'rejected')).message).toContain('no service 1');
      // A list that says otherwise (changed in between): the panel cuts the service, and the driver says so.
      const listed = { items: [{ id: 1, name: 'Germany', inbound_ids: [1], user_ids: [] }], total: 1, page: 1, size: 100, pages: 1, links: {} };
      reseller.faults.failNext.push({ method: 'GET', pathPrefix: '/api/services', status: 200, body: JSON.stringify(listed) });
      const dropped = await expectPanelError(driverOf.setServices(username, '1'), 'rejected');
      expect(dropped.message).toBe("The panel dropped service 1 (this panel admin may not assign it); the user's services are now: none");
    });
  });
});
