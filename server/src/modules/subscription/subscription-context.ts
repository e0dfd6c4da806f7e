/**
 * What the `/sub` use cases (handle-subscription.ts, subscription-replies.ts) work with: the service's
 * dependencies with their defaults filled in, and the caches one instance keeps (configurations in memory and
 * in the database, account rows, brand settings, owners' languages), with how they are forgotten and drained.
 */
import { LOCALES, localizedPath, type Locale } from '../../../../shared/locales.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { LruMap } from '../../lib/lru-map.js';
import { PANEL_TIMEOUT_MS } from '../../panels/panel-http.js';
import { createDevicesRepo } from '../devices/index.js';
import { createAccountLookup, type AccountLookup } from './account-lookup.js';
import { createDeviceAdmission, type DeviceAdmission } from './device-admission.js';
import { createDeviceLimitNotice, type DeviceLimitNotice } from './device-limit-notice.js';
import { cacheKey, fetchCopy } from './panel-copies.js';
import { createStoredCopies, type StoredCopies } from './stored-copies.js';
import { createBrandSettings, type BrandSettings } from './subscription-brand.js';
import { DEFAULT_SWR_OPTIONS, SwrCache } from './subscription-cache.js';
import type { PanelCopy } from './subscription-content.js';
import { createSubscriptionCopiesRepo } from './subscription-copies.repo.js';
import type { SiteLinks, SubscriptionLog, SubscriptionServiceDeps } from './subscription-deps.js';
import { createSubscriptionRepo, type SubscriptionRepo } from './subscription.repo.js';

export interface SubscriptionContext {
  clock: Clock;
  repo: SubscriptionRepo;
  log: SubscriptionLog;
  /** The site's pages in English: the profile headers link to them. */
  links: SiteLinks;
  /** The site's pages in each language: the page and a blocked account's text link to those of its reader. */
  localizedLinks: Record<Locale, SiteLinks>;
  devices: DeviceAdmission;
  /** Tells an account's customer a new device was refused over its limit (once a day). */
  deviceLimitReached: DeviceLimitNotice;
  /** The configurations in this instance's memory, by cacheKey (panel-copies.ts). */
  content: SwrCache<PanelCopy>;
  /** The configurations stored in the database for every instance. */
  stored: StoredCopies;
  accounts: AccountLookup;
  brand: BrandSettings;
  /** The language of each owner's announcement, kept a while (subscription-replies.ts). */
  ownerLocales: LruMap<string, { locale: Locale; at: number }>;
}

export function createSubscriptionContext(deps: SubscriptionServiceDeps): SubscriptionContext {
  const clock = deps.clock ?? systemClock;
  const repo = deps.repo ?? createSubscriptionRepo(deps.db);
  const timeoutMs = deps.fetchTimeoutMs ?? PANEL_TIMEOUT_MS;
  const accountTtlMs = deps.accountTtlMs ?? 5000;
  const linksIn = (locale: Locale): SiteLinks => ({
    dashboard: new URL(localizedPath(locale, '/dashboard'), deps.publicUrl).href,
    support: new URL(localizedPath(locale, '/support'), deps.publicUrl).href,
  });
  const localizedLinks = Object.fromEntries(LOCALES.map((locale) => [locale, linksIn(locale)])) as Record<Locale, SiteLinks>;
  const log: SubscriptionLog = deps.log ?? { warn() {}, error() {} };
  const devices = deps.devices ?? createDeviceAdmission({ repo: createDevicesRepo(deps.db), now: () => clock().getTime(), ttlMs: accountTtlMs, log });

  const content = new SwrCache<PanelCopy>(
    { ...DEFAULT_SWR_OPTIONS, ...deps.cache, now: () => clock().getTime() },
    (copy) => copy.size,
    () => {}, // logged where the fetch failed
  );
  const stored = createStoredCopies({
    repo: deps.copies ?? createSubscriptionCopiesRepo(deps.db),
    fetchCopy: (account, source, userAgent) => fetchCopy({ timeoutMs, log }, account, source, userAgent),
    now: clock,
    freshMs: deps.storedFreshMs ?? DEFAULT_SWR_OPTIONS.freshMs,
    leaseMs: deps.refreshLeaseMs ?? 30_000,
    maxRefreshes: deps.maxRefreshes ?? 4,
    saveDelayMs: deps.storedSaveDelayMs ?? 1000,
    claimDelayMs: deps.refreshClaimDelayMs ?? 100,
    log,
    refreshed: (account, source, copy) => content.set(cacheKey(account, source), copy),
  });
  const accounts = createAccountLookup({
    repo,
    clock,
    accountTtlMs,
    unknownTokenTtlMs: deps.unknownTokenTtlMs ?? 30_000,
    maxAccounts: Math.max(1000, (deps.cache?.maxEntries ?? DEFAULT_SWR_OPTIONS.maxEntries) * 2),
  });
  const brand = createBrandSettings({
    settings: deps.settings,
    publicUrl: deps.publicUrl,
    clock,
    log,
    ttlMs: deps.brandTtlMs ?? 30_000,
    settingsVersion: deps.settingsVersion ?? (() => 0),
    updateIntervalHours: deps.updateIntervalHours,
  });
  return {
    clock,
    repo,
    log,
    links: localizedLinks.en,
    localizedLinks,
    devices,
    deviceLimitReached: createDeviceLimitNotice({ notices: deps.notices, clock, log }),
    content,
    stored,
    accounts,
    brand,
    ownerLocales: new LruMap<string, { locale: Locale; at: number }>(10_000),
  };
}

/** Forgets what is cached (here) and stored (for every instance) for an account: call after renewing, disabling or moving it. */
export function invalidateAccount(ctx: SubscriptionContext, accountId: string): Promise<void> {
  ctx.devices.forget(accountId);
  ctx.content.deleteWhere((key) => key.startsWith(`${accountId}\n`));
  ctx.accounts.forget(accountId);
  return ctx.stored.forget(accountId);
}

/** Resolves when no panel fetch or stored-copy write is in flight (tests; graceful shutdown). */
export async function whenIdle({ content, stored }: SubscriptionContext): Promise<void> {
  while (content.loading > 0 || stored.refreshing > 0) {
    await content.whenIdle();
    await stored.whenIdle();
  }
  await stored.whenIdle();
}

/** Sizes, for tests and diagnostics. */
export function stats({ content, stored, accounts }: SubscriptionContext) {
  return {
    entries: content.size,
    bytes: content.bytes,
    loading: content.loading,
    refreshing: stored.refreshing,
    accounts: accounts.size,
    unknownTokens: accounts.unknownTokens,
  };
}
