import type { PublicConfig } from '../../../../shared/config.js';
import type { ChangeSignal } from '../../lib/change-signal.js';
import { toJsonAnswer, type JsonAnswer } from '../../lib/json-answer.js';
import { VERSIONED_READ_TTL_MS, versionedRead } from '../../lib/versioned-read.js';
import type { AppSettings, SettingsService } from './settings.service.js';

/** How long a read is trusted without any signal: bounds a change made behind the app's back (a script, another instance without Redis). */
export const SETTINGS_CACHE_TTL_MS = VERSIONED_READ_TTL_MS;

/**
 * The settings every page and request reads, kept in memory: read again only when the change signal
 * moves (a save here, or on another instance through Redis) or after SETTINGS_CACHE_TTL_MS; while the
 * database does not answer, the last settings read are used (see versionedRead). Saving through this
 * object moves the signal. The public config is also kept serialised, for `/api/config`.
 */
export function createCachedSettings(inner: SettingsService, deps: { signal: ChangeSignal; now?: () => number; ttlMs?: number }): SettingsService {
  const options = { version: () => deps.signal.version(), now: deps.now, ttlMs: deps.ttlMs ?? SETTINGS_CACHE_TTL_MS };
  const getAppSettings = versionedRead<AppSettings>(() => inner.getAppSettings(), options);
  const getPublicConfig = versionedRead<PublicConfig>(() => inner.getPublicConfig(), options);
  // The cached read hands out the same object until it reads again: serialise each object once.
  let serialised: { config: PublicConfig; answer: JsonAnswer } | undefined;
  return {
    ...inner,
    getAppSettings,
    getPublicConfig,
    async getPublicConfigAnswer() {
      const config = await getPublicConfig();
      if (serialised?.config !== config) serialised = { config, answer: toJsonAnswer(config) };
      return serialised.answer;
    },
    async updateSettings(...args: Parameters<SettingsService['updateSettings']>) {
      const saved = await inner.updateSettings(...args);
      deps.signal.changed();
      return saved;
    },
  };
}
