/**
 * Where the desktop session survives a restart: the refresh token in the OS keychain (macOS Keychain,
 * Windows Credential Manager, the Secret Service on Linux, through @napi-rs/keyring), one entry per
 * server and e-mail; and a small settings file in the app's data folder that remembers the server URL
 * and the last signed-in e-mail, so the next start knows which keychain entry to read.
 * The settings file holds no secret. Nothing here imports Electron: the caller passes the folder.
 * The app's device id for a server (device-identity.ts) is a sibling keychain entry of that server's.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntryOptions } from '@napi-rs/keyring';
import { z } from 'zod';
import { newDeviceId } from './device-identity.js';
import { normaliseServerUrl } from './server-url.js';

/** The keychain as the store uses it; tests pass a fake, the app passes `createOsKeyring()`. */
export interface Keyring {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  /** True when an entry was deleted, false when there was none. */
  deletePassword(service: string, account: string): Promise<boolean>;
}

/**
 * The OS keychain. The native module is loaded on first use, so a machine where it cannot load still
 * runs the app (signed in for this run only). `options` can pin the Linux store (tests use it).
 */
export function createOsKeyring(options?: EntryOptions): Keyring {
  const entry = async (service: string, account: string) => {
    const { AsyncEntry } = await import('@napi-rs/keyring');
    return new AsyncEntry(service, account, options);
  };
  return {
    getPassword: async (service, account) => (await entry(service, account)).getPassword(),
    setPassword: async (service, account, password) => (await entry(service, account)).setPassword(password),
    deletePassword: async (service, account) => (await entry(service, account)).deletePassword(),
  };
}

export interface SessionStore {
  /** The server this app talks to: the saved one, else the build's default. */
  getServerUrl(): Promise<string>;
  /** Saves another (already normalised) server; forgets the remembered e-mail. */
  setServerUrl(serverUrl: string): Promise<void>;
  /** The refresh token for the current server and the remembered e-mail, or null. */
  readRefreshToken(): Promise<string | null>;
  /**
   * After a sign-in: stores the token for the current server and `email` and remembers `email`
   * (one session per server: another e-mail's entry on this server is deleted).
   */
  saveRefreshToken(email: string, refreshToken: string): Promise<void>;
  /** After a refresh: replaces the token of the current server and remembered e-mail. */
  replaceRefreshToken(refreshToken: string): Promise<void>;
  /** Deletes the current server and e-mail's entry and forgets the e-mail. */
  deleteRefreshToken(): Promise<void>;
  /**
   * This app's device id for the current server: made once (random) and kept in the keychain, so it
   * stays the same across restarts and sign-ins. If the keychain fails, an id for this run only.
   */
  getDeviceId(): Promise<string>;
}

export interface SessionStoreOptions {
  keyring: Keyring;
  /** The app's data folder (`app.getPath('userData')`); the settings file goes in it. */
  settingsDir: string;
  service: string;
  /** The brand's server (APP_BRAND.serverUrl), until the user saves another. */
  defaultServerUrl: string;
  /** Where keychain failures are reported (they never stop the app). */
  warn?: (message: string, error: unknown) => void;
}

export const SETTINGS_FILE = 'settings.json';

const SettingsFile = z.object({
  serverUrl: z.string().max(2048).optional().catch(undefined),
  email: z.string().min(1).max(254).optional().catch(undefined),
});

interface Settings {
  serverUrl?: string;
  email?: string;
}

/** The keychain account of a session: the server's origin and the e-mail, e.g. `https://vpn.example.com a@b.c`. */
export const keychainAccount = (serverUrl: string, email: string): string => `${serverUrl} ${email}`;

/** The keychain account of the app's device id on a server: beside its sessions, never an e-mail (no `@`). */
export const deviceIdAccount = (serverUrl: string): string => `${serverUrl} #device-id`;

const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const { keyring, service, settingsDir } = options;
  const fallbackServerUrl = options.defaultServerUrl;
  const warn = options.warn ?? ((message, error) => console.warn(`[session-store] ${message}:`, error));
  const settingsPath = join(settingsDir, SETTINGS_FILE);
  let cached: Settings | undefined;
  let writing: Promise<void> = Promise.resolve();
  /** Device ids by server, once read or made (one keychain read per server and run). */
  const deviceIds = new Map<string, Promise<string>>();

  async function readSettings(): Promise<Settings> {
    if (cached) return cached;
    cached = parseSettings(await readFile(settingsPath, 'utf8').catch(() => ''));
    return cached;
  }

  /** Writes one at a time, through a temporary file, so a crash never leaves half a file. */
  function writeSettings(next: Settings): Promise<void> {
    cached = next;
    const write = async () => {
      await mkdir(settingsDir, { recursive: true });
      const temporary = `${settingsPath}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, settingsPath);
    };
    writing = writing.catch(() => {}).then(write);
    return writing;
  }

  async function currentAccount(): Promise<string | null> {
    const settings = await readSettings();
    if (!settings.email) return null;
    return keychainAccount(settings.serverUrl ?? fallbackServerUrl, settings.email);
  }

  return {
    async getServerUrl() {
      return (await readSettings()).serverUrl ?? fallbackServerUrl;
    },

    async setServerUrl(serverUrl) {
      await writeSettings({ serverUrl });
    },

    async readRefreshToken() {
      const account = await currentAccount();
      if (!account) return null;
      try {
        return await keyring.getPassword(service, account);
      } catch (error) {
        warn('could not read the keychain', error);
        return null;
      }
    },

    async saveRefreshToken(email, refreshToken) {
      const settings = await readSettings();
      const previous = await currentAccount();
      const account = keychainAccount(settings.serverUrl ?? fallbackServerUrl, email);
      if (previous && previous !== account) await deleteEntry(previous);
      await writeSettings({ ...settings, email });
      await setEntry(account, refreshToken);
    },

    async replaceRefreshToken(refreshToken) {
      const account = await currentAccount();
      if (account) await setEntry(account, refreshToken);
    },

    async deleteRefreshToken() {
      const account = await currentAccount();
      if (!account) return;
      const { email: _forgotten, ...rest } = await readSettings();
      await writeSettings(rest);
      await deleteEntry(account);
    },

    async getDeviceId() {
      const serverUrl = (await readSettings()).serverUrl ?? fallbackServerUrl;
      let id = deviceIds.get(serverUrl);
      if (!id) {
        id = loadOrMakeDeviceId(deviceIdAccount(serverUrl));
        deviceIds.set(serverUrl, id);
      }
      return id;
    },
  };

  async function loadOrMakeDeviceId(account: string): Promise<string> {
    try {
      const stored = await keyring.getPassword(service, account);
      if (stored && DEVICE_ID.test(stored)) return stored;
    } catch (error) {
      warn('could not read the device id from the keychain (using one for this run)', error);
      return newDeviceId();
    }
    const id = newDeviceId();
    try {
      await keyring.setPassword(service, account, id);
    } catch (error) {
      warn('could not keep the device id in the keychain (using it for this run)', error);
    }
    return id;
  }

  async function setEntry(account: string, refreshToken: string): Promise<void> {
    try {
      await keyring.setPassword(service, account, refreshToken);
    } catch (error) {
      warn('could not write the keychain (the session lasts until the app quits)', error);
    }
  }

  async function deleteEntry(account: string): Promise<void> {
    try {
      await keyring.deletePassword(service, account);
    } catch (error) {
      warn('could not delete the keychain entry', error);
    }
  }
}

/** A missing, unreadable or tampered settings file counts as empty; a bad server URL as unset. */
function parseSettings(text: string): Settings {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  const parsed = SettingsFile.safeParse(raw);
  if (!parsed.success) return {};
  const settings: Settings = {};
  if (parsed.data.serverUrl) {
    const serverUrl = normaliseServerUrl(parsed.data.serverUrl);
    if (serverUrl.ok) settings.serverUrl = serverUrl.serverUrl;
  }
  if (parsed.data.email) settings.email = parsed.data.email;
  return settings;
}
