import type { PublicConfig } from '../../../../shared/config.js';
import type { ChangeSignal } from '../../lib/change-signal.js';
import type { AppSettings, SettingsService } from './settings.service.js';

/** How long a read is trusted without any signal: bounds a change made behind the app's back (a script, another instance without Redis). */
export const SETTINGS_CACHE_TTL_MS = 5_000;

interface Entry<T> {
  version: number;
  expiresAt: number;
  value: Promise<T>;
}

/**
 * The settings every page and request reads, kept in memory: read again only when the change signal
 * moves (a save here, or on another instance through Redis) or after SETTINGS_CACHE_TTL_MS; while the
 * database does not answer, the last settings read are used. Saving through this object moves the signal.
 */
export function createCachedSettings(inner: SettingsService, deps: { signal: ChangeSignal; now?: () => number; ttlMs?: number }): SettingsService {
  const now = deps.now ?? Date.now;
  const ttlMs = deps.ttlMs ?? SETTINGS_CACHE_TTL_MS;

  /**
   * A read shared by concurrent callers and reused while fresh. Once it is stale by time alone (nothing was
   * saved), the last value is served at once while one new read runs behind it; when a read fails (the
   * database is down), the last value stays in use. After a save (the signal moved) callers wait for the new
   * read. With no value read yet, an error stands.
   */
  function cached<T>(read: () => Promise<T>): () => Promise<T> {
    let entry: Entry<T> | undefined;
    let lastGood: { value: T; version: number } | undefined;
    let refreshing = false;

    function load(version: number, at: number): Promise<T> {
      refreshing = true;
      const fresh: Entry<T> = { version, expiresAt: at + ttlMs, value: undefined as unknown as Promise<T> };
      fresh.value = read().then(
        (result) => {
          lastGood = { value: result, version };
          return result;
        },
        (err: unknown) => {
          if (entry === fresh) entry = undefined;
          if (lastGood) return lastGood.value;
          throw err;
        },
      ).finally(() => {
        refreshing = false;
      });
      entry = fresh;
      return fresh.value;
    }

    return () => {
      const version = deps.signal.version();
      const at = now();
      if (entry && entry.version === version && at < entry.expiresAt) return entry.value;
      if (lastGood && lastGood.version === version) {
        if (!refreshing) void load(version, at).catch(() => undefined);
        return Promise.resolve(lastGood.value);
      }
      return load(version, at);
    };
  }

  const getAppSettings = cached<AppSettings>(() => inner.getAppSettings());
  const getPublicConfig = cached<PublicConfig>(() => inner.getPublicConfig());
  return {
    ...inner,
    getAppSettings,
    getPublicConfig,
    async updateSettings(...args: Parameters<SettingsService['updateSettings']>) {
      const saved = await inner.updateSettings(...args);
      deps.signal.changed();
      return saved;
    },
  };
}
