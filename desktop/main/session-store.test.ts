import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionStore, deviceIdAccount, keychainAccount, SETTINGS_FILE, type SessionStore } from './session-store.js';
import { createFakeKeyring, type FakeKeyring } from './testing/fake-keyring.js';

const SERVICE = 'com.lumenvpn.desktop';
const DEFAULT_SERVER = 'https://vpn.example.com';
const OTHER_SERVER = 'https://vpn.other.example';

describe('session store', () => {
  let dir: string;
  let keyring: FakeKeyring;
  const warn = vi.fn();
  const open = (): SessionStore => createSessionStore({ keyring, settingsDir: dir, service: SERVICE, defaultServerUrl: DEFAULT_SERVER, warn });
  const settingsFile = () => join(dir, SETTINGS_FILE);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'desktop-store-'));
    keyring = createFakeKeyring();
    warn.mockClear();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts on the build default server with nothing to resume', async () => {
    const store = open();
    expect(await store.getServerUrl()).toBe(DEFAULT_SERVER);
    expect(await store.readRefreshToken()).toBeNull();
    expect(keyring.entries.size).toBe(0);
  });

  it('keeps the refresh token in the keychain under server and e-mail, and only the e-mail in the settings file', async () => {
    await open().saveRefreshToken('ann@example.com', 'refresh-1');

    expect(keyring.read(SERVICE, 'https://vpn.example.com ann@example.com')).toBe('refresh-1');
    const settings = readFileSync(settingsFile(), 'utf8');
    expect(JSON.parse(settings)).toEqual({ email: 'ann@example.com' });
    expect(settings).not.toContain('refresh-1');
  });

  it('finds the token again after a restart (a new store on the same folder and keychain)', async () => {
    await open().saveRefreshToken('ann@example.com', 'refresh-1');
    expect(await open().readRefreshToken()).toBe('refresh-1');
  });

  it('replaces the token of the remembered account after a refresh', async () => {
    const store = open();
    await store.saveRefreshToken('ann@example.com', 'refresh-1');
    await store.replaceRefreshToken('refresh-2');
    expect(await open().readRefreshToken()).toBe('refresh-2');
    expect(keyring.entries.size).toBe(1);
  });

  it('deletes the entry and forgets the e-mail', async () => {
    const store = open();
    await store.saveRefreshToken('ann@example.com', 'refresh-1');
    await store.deleteRefreshToken();

    expect(keyring.entries.size).toBe(0);
    expect(await store.readRefreshToken()).toBeNull();
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({});
    expect(await open().readRefreshToken()).toBeNull();
  });

  it('keeps one session per server: signing in as someone else replaces the previous entry', async () => {
    const store = open();
    await store.saveRefreshToken('ann@example.com', 'refresh-ann');
    await store.saveRefreshToken('bob@example.com', 'refresh-bob');

    expect([...keyring.entries.keys()]).toEqual([`${SERVICE}\n${keychainAccount(DEFAULT_SERVER, 'bob@example.com')}`]);
    expect(await open().readRefreshToken()).toBe('refresh-bob');
  });

  it('switching server remembers the new server and looks up that server’s entry only', async () => {
    const store = open();
    await store.saveRefreshToken('ann@example.com', 'refresh-default');
    await store.setServerUrl(OTHER_SERVER);

    expect(await store.getServerUrl()).toBe(OTHER_SERVER);
    expect(await store.readRefreshToken()).toBeNull();
    await store.saveRefreshToken('ann@example.com', 'refresh-other');

    const restarted = open();
    expect(await restarted.getServerUrl()).toBe(OTHER_SERVER);
    expect(await restarted.readRefreshToken()).toBe('refresh-other');
    expect(keyring.read(SERVICE, 'https://vpn.other.example ann@example.com')).toBe('refresh-other');
    expect(keyring.read(SERVICE, 'https://vpn.example.com ann@example.com')).toBe('refresh-default');
  });

  it.each([
    ['not JSON', '{"serverUrl": "https://vpn.other.exa'],
    ['the wrong shape', '["https://vpn.other.example"]'],
    ['wrong types', '{"serverUrl": 42, "email": {"x": 1}}'],
  ])('treats a corrupt settings file (%s) as empty and rewrites it on the next save', async (_what, content) => {
    writeFileSync(settingsFile(), content);
    const store = open();
    expect(await store.getServerUrl()).toBe(DEFAULT_SERVER);
    expect(await store.readRefreshToken()).toBeNull();

    await store.saveRefreshToken('ann@example.com', 'refresh-1');
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({ email: 'ann@example.com' });
  });

  it('ignores a server URL in the settings file that the app would not accept', async () => {
    writeFileSync(settingsFile(), JSON.stringify({ serverUrl: 'http://evil.example', email: 'ann@example.com' }));
    keyring.entries.set(`${SERVICE}\nhttps://vpn.example.com ann@example.com`, 'refresh-1');
    const store = open();
    expect(await store.getServerUrl()).toBe(DEFAULT_SERVER);
    expect(await store.readRefreshToken()).toBe('refresh-1');
  });

  it('keeps working when the keychain fails: nothing to resume, saving and deleting do not throw', async () => {
    const store = open();
    await store.saveRefreshToken('ann@example.com', 'refresh-1');
    keyring.failWith = new Error('The keychain is locked');

    expect(await store.readRefreshToken()).toBeNull();
    await expect(store.replaceRefreshToken('refresh-2')).resolves.toBeUndefined();
    await expect(store.deleteRefreshToken()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(3);
  });

  describe('the device id', () => {
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

    it('is made once, kept in the keychain beside the session, and the same after a restart and a sign-out', async () => {
      const store = open();
      const id = await store.getDeviceId();
      expect(id).toMatch(UUID);
      expect(await store.getDeviceId()).toBe(id);
      expect(keyring.read(SERVICE, deviceIdAccount(DEFAULT_SERVER))).toBe(id);

      await store.saveRefreshToken('ann@example.com', 'refresh-1');
      expect(readFileSync(settingsFile(), 'utf8')).not.toContain(id);
      await store.deleteRefreshToken();
      const restarted = open();
      expect(await restarted.getDeviceId()).toBe(id);
      expect(keyring.read(SERVICE, deviceIdAccount(DEFAULT_SERVER))).toBe(id);
    });

    it('is another one on another server', async () => {
      const store = open();
      const first = await store.getDeviceId();
      await store.setServerUrl(OTHER_SERVER);
      const second = await store.getDeviceId();
      expect(second).toMatch(UUID);
      expect(second).not.toBe(first);
      expect(keyring.read(SERVICE, deviceIdAccount(OTHER_SERVER))).toBe(second);
    });

    it('replaces a stored value that is not an id it made', async () => {
      await keyring.setPassword(SERVICE, deviceIdAccount(DEFAULT_SERVER), 'C02XK1ABJGH5 serial');
      const id = await open().getDeviceId();
      expect(id).toMatch(UUID);
      expect(keyring.read(SERVICE, deviceIdAccount(DEFAULT_SERVER))).toBe(id);
    });

    it('without a working keychain: one id for this run, and a warning', async () => {
      keyring.failWith = new Error('keychain locked');
      const store = open();
      const id = await store.getDeviceId();
      expect(id).toMatch(UUID);
      expect(await store.getDeviceId()).toBe(id);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('device id'), expect.any(Error));
      expect(keyring.entries.size).toBe(0);
    });
  });
});
