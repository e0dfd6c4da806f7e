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
 * moves (a save here, or on another instance through Redis) or after SETTINGS_CACHE_TTL_MS. Saving
 * through this object moves the signal.
 */
export function createCachedSettings(inner: SettingsService, deps: { signal: ChangeSignal; now?: () => number; ttlMs?: number }): SettingsService {
  const now = deps.now ?? Date.now;
  const ttlMs = deps.ttlMs ?? SETTINGS_CACHE_TTL_MS;

  function cached<T>(read: () => Promise<T>): () => Promise<T> {
    let entry: Entry<T> | undefined;
    return () => {
      const version = deps.signal.version();
      const at = now();
      if (entry && entry.version === version && at < entry.expiresAt) return entry.value;
      const value = read();
      const fresh: Entry<T> = { version, expiresAt: at + ttlMs, value };
      entry = fresh;
      value.catch(() => {
        if (entry === fresh) entry = undefined;
      });
      return value;
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
