import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMarzbanUser, startFakeMarzban } from '../../test/fake-panels/marzban.js';
import { DEFAULT_INBOUNDS, userInbounds } from '../../test/fake-panels/marzban-model.js';
import { asMarzneshinUser, startFakeMarzneshin } from '../../test/fake-panels/marzneshin.js';
import { startFakePasarguard } from '../../test/fake-panels/pasarguard.js';
import { startFakeRemnawave } from '../../test/fake-panels/remnawave.js';
import type { PanelFaults } from '../../test/fake-panels/types.js';
import { expectPanelError } from '../../test/panel-assertions.js';
import { ALL_INBOUNDS, createMarzbanDriver } from './marzban.js';
import { createMarzneshinDriver } from './marzneshin.js';
import type { PanelDriver } from './panel-driver.js';
import { createPasarguardDriver } from './pasarguard.js';
import { createRemnawaveDriver, remnawaveSubscriptionHeaders } from './remnawave.js';

/**
 * One contract for every panel driver (spec/panels.md, "Driver interface"), run against each panel's fake: what the
 * rest of the server relies on, whatever the panel. Each driver's own test file covers what is particular to its panel.
 */
interface ContractPanel {
  /** A driver on this panel, with the given timeout. */
  driver(timeoutMs?: number): PanelDriver;
  faults: PanelFaults;
  /** Two of the panel's services (squads, groups, services, inbounds) in the driver's `serviceId` format, and one it does not have. */
  services: [string, string];
  unknownService: string;
  /** The services a user is in, read from the fake panel itself. */
  servicesOf(username: string): string[];
  /** What a GET of a subscription link needs (Remnawave drops a request without the forwarded headers). */
  subscriptionHeaders: Record<string, string>;
  close(): Promise<void>;
}

const PANELS: Array<[string, () => Promise<ContractPanel>]> = [
  [
    'marzneshin',
    async () => {
      const panel = await startFakeMarzneshin();
      const login = { url: panel.url, username: panel.admin.username, password: panel.admin.password };
      const [first, second] = (await createMarzneshinDriver({ ...login, serviceId: '1' }).listServices()).map((service) => service.id);
      return {
        driver: (timeoutMs = 2000) => createMarzneshinDriver({ ...login, serviceId: first! }, { timeoutMs }),
        faults: panel.faults,
        services: [first!, second!],
        unknownService: '99',
        servicesOf: (username) => asMarzneshinUser(panel.users.get(username)).service_ids.map(String),
        subscriptionHeaders: {},
        close: () => panel.close(),
      };
    },
  ],
  [
    'marzban',
    async () => {
      const panel = await startFakeMarzban();
      const login = { url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: ALL_INBOUNDS };
      return {
        driver: (timeoutMs = 2000) => createMarzbanDriver(login, { timeoutMs }),
        faults: panel.faults,
        services: ['VLESS TCP TLS', 'Trojan TCP TLS'],
        unknownService: 'No Such Inbound',
        servicesOf: (username) => Object.values(userInbounds(asMarzbanUser(panel.users.get(username)), DEFAULT_INBOUNDS)).flat(),
        subscriptionHeaders: {},
        close: () => panel.close(),
      };
    },
  ],
  [
    'remnawave',
    async () => {
      const panel = await startFakeRemnawave();
      const login = { url: panel.url, username: '', password: '', apiToken: panel.apiToken, serviceId: panel.squads[0]!.uuid };
      return {
        driver: (timeoutMs = 2000) => createRemnawaveDriver(login, { timeoutMs }),
        faults: panel.faults,
        services: [panel.squads[0]!.uuid, panel.squads[1]!.uuid],
        unknownService: '00000000-0000-4000-8000-000000000000',
        servicesOf: (username) => [...panel.users.get(username)!.activeInternalSquads],
        subscriptionHeaders: remnawaveSubscriptionHeaders(),
        close: () => panel.close(),
      };
    },
  ],
  [
    'pasarguard',
    async () => {
      const panel = await startFakePasarguard();
      const login = { url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: '1,2' };
      return {
        driver: (timeoutMs = 2000) => createPasarguardDriver(login, { timeoutMs }),
        faults: panel.faults,
        services: ['1', '2'],
        unknownService: '42',
        servicesOf: (username) => panel.users.get(username)!.group_ids.map(String),
        subscriptionHeaders: {},
        close: () => panel.close(),
      };
    },
  ],
];

const DAY = 86_400_000;
const GIB = 1024 ** 3;
/** Panels keep expiry to the second. */
const wholeSeconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

describe.each(PANELS)('the panel driver contract: %s', (_kind, start) => {
  let panel: ContractPanel;
  let driver: PanelDriver;
  let n = 0;
  const newUsername = () => `contract_${Date.now().toString(36).slice(-4)}${(n += 1)}`;

  beforeAll(async () => {
    panel = await start();
    driver = panel.driver();
  });
  afterAll(async () => {
    await panel.close();
  });

  it('passes the credential test and lists the services it can provision on', async () => {
    await expect(driver.testConnection()).resolves.toBeUndefined();
    expect((await driver.listServices()).length).toBeGreaterThan(0);
  });

  it('creates an account and reads it back as it was made: active, its limit, its expiry, an absolute subscription link', async () => {
    const expiresAt = wholeSeconds(Date.now() + 30 * DAY);
    const username = newUsername();
    const created = await driver.createAccount({ username, dataLimitBytes: 50 * GIB, expiresAt, note: 'contract-1' });
    expect(created).toMatchObject({ username, status: 'active', usedTrafficBytes: 0, dataLimitBytes: 50 * GIB, expiresAt });
    expect(new URL(created.subscriptionUrl).protocol).toMatch(/^https?:$/);
    // (Marzban signs a new link on every read, with the time in it: each one works, so only its form is the contract.)
    const read = await driver.getAccount(username);
    expect(read).toMatchObject({ username, status: 'active', dataLimitBytes: 50 * GIB, expiresAt, note: 'contract-1' });
    expect(new URL(read!.subscriptionUrl).origin).toBe(new URL(created.subscriptionUrl).origin);
  });

  it('an account with no limit and no end reads back as unlimited and never ending', async () => {
    const username = newUsername();
    await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'contract-2' });
    expect(await driver.getAccount(username)).toMatchObject({ username, dataLimitBytes: null, expiresAt: null });
  });

  it('an account that does not exist reads as null', async () => {
    expect(await driver.getAccount(newUsername())).toBeNull();
  });

  it('a taken username is ours again when it carries our marker, and a conflict when it does not', async () => {
    const username = newUsername();
    await driver.createAccount({ username, dataLimitBytes: 10 * GIB, expiresAt: null, note: 'contract-ours' });
    const again = await driver.createAccount({ username, dataLimitBytes: 10 * GIB, expiresAt: null, note: 'contract-ours' });
    expect(again).toMatchObject({ username, note: 'contract-ours', dataLimitBytes: 10 * GIB });
    expect((await driver.listAccounts({ page: 1, size: 100 })).accounts.filter((account) => account.username === username)).toHaveLength(1);
    await expectPanelError(driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'someone-else' }), 'conflict');
  });

  it('extends an account: a new end and limit, and back to unlimited and never ending', async () => {
    const username = newUsername();
    await driver.createAccount({ username, dataLimitBytes: 10 * GIB, expiresAt: wholeSeconds(Date.now() + DAY), note: 'contract-3' });
    const later = wholeSeconds(Date.now() + 60 * DAY);
    expect(await driver.extendAccount(username, { expiresAt: later, dataLimitBytes: 100 * GIB })).toMatchObject({
      expiresAt: later,
      dataLimitBytes: 100 * GIB,
    });
    expect(await driver.getAccount(username)).toMatchObject({ expiresAt: later, dataLimitBytes: 100 * GIB });
    expect(await driver.extendAccount(username, { expiresAt: null, dataLimitBytes: null })).toMatchObject({ expiresAt: null, dataLimitBytes: null });
  });

  it('disables and enables an account, and resets its usage to nothing', async () => {
    const username = newUsername();
    await driver.createAccount({ username, dataLimitBytes: 10 * GIB, expiresAt: wholeSeconds(Date.now() + 30 * DAY), note: 'contract-4' });
    expect((await driver.setEnabled(username, false)).status).toBe('disabled');
    expect((await driver.getAccount(username))?.status).toBe('disabled');
    expect((await driver.setEnabled(username, true)).status).toBe('active');
    expect((await driver.resetUsage(username)).usedTrafficBytes).toBe(0);
  });

  it('lists its users in pages with the total, without their links', async () => {
    const { accounts, total } = await driver.listAccounts({ page: 1, size: 100 });
    expect(total).toBe(accounts.length);
    expect(total).toBeGreaterThanOrEqual(5);
    for (const account of accounts) expect(account.links).toBeNull();
    const firstTwo = await driver.listAccounts({ page: 1, size: 2 });
    expect(firstTwo).toMatchObject({ total });
    expect(firstTwo.accounts).toHaveLength(2);
  });

  it('creates an account in the services it is given, and moves it to others and to several, its subscription link unchanged', async () => {
    const [a, b] = panel.services;
    const username = newUsername();
    const created = await driver.createAccount({ username, dataLimitBytes: 10 * GIB, expiresAt: null, note: 'contract-move', serviceId: a });
    expect(panel.servicesOf(username)).toEqual([a]);
    const serve = async () => {
      const reply = await fetch(created.subscriptionUrl, { headers: panel.subscriptionHeaders });
      return { status: reply.status, body: await reply.text() };
    };
    const before = await serve();
    const moved = await driver.setServices(username, b);
    expect(moved).toMatchObject({ username, status: 'active', dataLimitBytes: 10 * GIB, note: 'contract-move' });
    expect(panel.servicesOf(username)).toEqual([b]);
    // (Marzban signs a new link on every read: the one the account was made with is the one that must keep working.)
    const after = await serve();
    expect([before.status, after.status]).toEqual([200, 200]);
    expect(after.body).not.toBe(before.body);
    await driver.setServices(username, `${a},${b}`);
    expect(panel.servicesOf(username).sort()).toEqual([a, b].sort());
    expect(await driver.getAccount(username)).toMatchObject({ username, status: 'active', note: 'contract-move' });
  });

  it('refuses a service the panel does not have, changing nothing, and a move of an account that does not exist', async () => {
    const [a, b] = panel.services;
    const username = newUsername();
    await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'contract-stay', serviceId: a });
    await expectPanelError(driver.setServices(username, `${b},${panel.unknownService}`), 'rejected');
    expect(panel.servicesOf(username)).toEqual([a]);
    await expectPanelError(driver.setServices(newUsername(), b), 'rejected');
    await expectPanelError(
      driver.createAccount({ username: newUsername(), dataLimitBytes: null, expiresAt: null, note: 'x', serviceId: panel.unknownService }),
      'rejected',
    );
  });

  it('deletes an account once; deleting it again says it was already gone', async () => {
    const username = newUsername();
    await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'contract-5' });
    expect(await driver.deleteAccount(username)).toEqual({ alreadyGone: false });
    expect(await driver.getAccount(username)).toBeNull();
    expect(await driver.deleteAccount(username)).toEqual({ alreadyGone: true });
  });

  it('a panel that answers 500 fails the call as a server error worth retrying', async () => {
    panel.faults.failNext.push({ status: 500 });
    const err = await expectPanelError(driver.getAccount(newUsername()), 'server_error');
    expect(err.retryable).toBe(true);
  });

  it('a panel that is down fails the call as unreachable, and one that answers late as a timeout, both worth retrying', async () => {
    const username = newUsername();
    await driver.createAccount({ username, dataLimitBytes: null, expiresAt: null, note: 'contract-6' });
    panel.faults.down = true;
    try {
      expect((await expectPanelError(panel.driver().getAccount(username), 'unreachable')).retryable).toBe(true);
    } finally {
      panel.faults.down = false;
    }
    panel.faults.delayMs = 400;
    try {
      expect((await expectPanelError(panel.driver(150).getAccount(username), 'timeout')).retryable).toBe(true);
    } finally {
      panel.faults.delayMs = 0;
    }
    expect(await driver.getAccount(username)).toMatchObject({ username });
  });
});
