/**
 * Our subscription link, `PUBLIC_URL/sub/<token>` (architecture.md, "The subscription link"; clients.md):
 * finds the account by its unguessable token, tells a browser about it on a branded page, and gives a
 * VPN client the configuration from the panel in the format it wants, with our own headers.
 *
 * - The format: a path suffix forces it; else the User-Agent's anchored rules. We ask the panel for that
 *   format explicitly (each kind's own path, panels/subscription-url.ts), passing on the client's User-Agent
 *   where the panel wants it: through the panel URL the admin added first, then the panel's public
 *   subscription address (which a blocked or private domain may make unreachable from here).
 * - Cached per account and format in two layers: this instance's memory (fresh for 60 s, then served stale
 *   while one background refresh runs), and behind it the database (stored-copies.ts), shared by every
 *   instance: a copy fetched once is served from there at once, and refreshed in the background when older
 *   than 60 s. Memory keeps an account read from the database only when it is asked for again soon (within
 *   half a minute surely, after a minute never): clients ask every few hours, most accounts once in that
 *   time. The panel is asked before answering only for a copy never fetched; the panel down → the last good
 *   copy, or 503 without one.
 *   Account rows and the brand are cached briefly, and a token that matched no row answers 404 for 30 s
 *   without a query.
 * - An account that cannot be used (ours says suspended / disabled / expired / over quota, or the panel
 *   serves its `disabled` placeholder or says expired / over quota) gets a plain message, never configs.
 * - Nothing of the panel is passed on but the configuration itself: headers are ours, errors are generic.
 * - Devices (issue 24): a client that sends `x-hwid` is a device of the account; on an account with a
 *   device limit a new device beyond it, or (if the operator says so) a client without a device id, gets
 *   a placeholder entry naming the reason, and nothing is asked of the panel (device-admission.ts).
 */
import { DEFAULT_BRAND_NAME, defaultSupportEmail } from '../../../../shared/config.js';
import { DEVICELESS_WINDOW, type DevicelessClientPolicy } from '../../../../shared/devices.js';
import { activeSubscriptionHost, originOf, type SubscriptionDomain } from '../../../../shared/subscription-domains.js';
import { asError, batchPerTurn } from '../../db/batched-read.js';
import type { Db } from '../../db/knex.js';
import { AppError, notFound } from '../../errors.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { PanelError } from '../../panels/panel-driver.js';
import { PANEL_TIMEOUT_MS } from '../../panels/panel-http.js';
import { fetchPanelSubscription } from '../../panels/subscription-fetch.js';
import { panelSubscriptionRequests } from '../../panels/subscription-url.js';
import { platformFromUserAgent } from '../../../../shared/deep-links.js';
import { LOCALES, localizedPath, type Locale } from '../../../../shared/locales.js';
import { localeFromAcceptLanguage } from '../../lib/locale.js';
import { anonymousDevice, type ClientDevice } from '../devices/device-headers.js';
import { createDevicesRepo } from '../devices/devices.repo.js';
import { createDeviceAdmission, type DeviceAdmission, type DeviceCheck } from './device-admission.js';
import { placeholderBody } from './device-placeholder.js';
import { pageText } from './page-messages/index.js';
import { renderOpenPage, type OpenPageReply } from './open-page.js';
import { LruMap } from '../../lib/lru-map.js';
import { RecentlySeen } from '../../lib/recently-seen.js';
import { DEFAULT_SWR_OPTIONS, SwrCache, type SwrCacheOptions } from './subscription-cache.js';
import { parsePanelAnswer, type PanelCopy, type SubscriptionUserinfo } from './subscription-content.js';
import { appHeaders, appHeaderSettings, headerSafe, type AppHeaderSettings } from './app-headers.js';
import { SUBSCRIPTION_HEADER_DEFAULTS, type SubscriptionHeaderSettings } from '../../../../shared/subscription-headers.js';
import { createSubscriptionCopiesRepo, type SubscriptionCopiesRepo } from './subscription-copies.repo.js';
import { createStoredCopies, type FetchedCopy } from './stored-copies.js';
import {
  CONTENT_TYPES,
  PANEL_SOURCE,
  formatForUserAgent,
  parseSubscriptionPath,
  wantsHtml,
  type PanelFormat,
  type SubscriptionFormat,
} from './subscription-format.js';
import { pageNotice, renderQrSvg, renderSubscriptionPage, type PageStatus } from './subscription-page.js';
import { createSubscriptionRepo, type SubscriptionAccount, type SubscriptionRepo } from './subscription.repo.js';

export interface SubscriptionBrand {
  brandName: string;
  supportEmail: string;
  /** Clients without a device id on an account with a device limit (the admin's setting); default `allow`. */
  devicelessClients?: DevicelessClientPolicy;
  /** With `count`: how long such a client keeps its slot after it was last seen, hours; default 24. */
  devicelessWindowHours?: number;
  /** Spare subscription domains (the admin's setting); links are issued on the first one not blocked. */
  subscriptionDomains?: SubscriptionDomain[];
  /** The headers apps act on (the admin's settings); default: none but the usual ones, refreshed every `updateIntervalHours`. */
  subscriptionHeaders?: SubscriptionHeaderSettings;
}

/** The few log calls the service makes (pino / Fastify's logger fit). */
export interface SubscriptionLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SubscriptionServiceDeps {
  db: Db;
  /** The settings service (or anything with `getAppSettings()`): brand name and support e-mail. */
  settings: { getAppSettings(): Promise<SubscriptionBrand> };
  /** PUBLIC_URL: our links, the dashboard and support pages are made from it. */
  publicUrl: URL;
  clock?: Clock;
  log?: SubscriptionLog;
  /** Time limit of one panel request, ms. Default 10 s (PANEL_TIMEOUT_MS). */
  fetchTimeoutMs?: number;
  /** `profile-update-interval`: how often clients should refresh, hours. Default 12. */
  updateIntervalHours?: number;
  /** The configuration cache: freshMs 60 s, staleWhileRevalidateMs 15 min, maxEntries 5000, maxBytes 64 MiB, failureBackoffMs 10 s. */
  cache?: Partial<Omit<SwrCacheOptions, 'now'>>;
  /**
   * The configurations stored in the database: served once older than `storedFreshMs` (default 60 s) while
   * one instance refreshes them; a refresh claim holds `refreshLeaseMs` (default 30 s); at most
   * `maxRefreshes` (default 4) background refreshes run at once on an instance (each is a panel request and a share of one batched write).
   */
  storedFreshMs?: number;
  refreshLeaseMs?: number;
  maxRefreshes?: number;
  /** How long a refreshed configuration waits to be stored with the others refreshed meanwhile (one write for all), ms. Default 1 s. */
  storedSaveDelayMs?: number;
  /**
   * How long a stale configuration waits for its refresh to be claimed with the others asked for meanwhile
   * (one claim for all; at most `maxRefreshes` per such wait in a burst), ms. Default 100.
   */
  refreshClaimDelayMs?: number;
  /** For tests: another store of configurations. */
  copies?: SubscriptionCopiesRepo;
  /** How long an account row is reused before it is read again, ms. Default 5 s. */
  accountTtlMs?: number;
  /** How long a token found in no row answers 404 without asking the database again, ms. Default 30 s. */
  unknownTokenTtlMs?: number;
  /** How long the brand settings are reused, ms. Default 30 s. */
  brandTtlMs?: number;
  /** Moves when the admin saves settings (the app's change signal): the brand settings are read again at once. */
  settingsVersion?: () => number;
  /** For tests: another way to find accounts. */
  repo?: SubscriptionRepo;
  /** Which devices may fetch (default: the account_devices table, admitted devices reused for `accountTtlMs`). */
  devices?: DeviceAdmission;
}

export interface SubscriptionRequest {
  /** The path after `/sub/`: `<token>` or `<token>/<format>`. */
  path: string;
  userAgent?: string;
  accept?: string;
  /** The browser's languages: the page's language when the account's owner has none stored. */
  acceptLanguage?: string;
  /** The device the client announced (`x-hwid` and the headers beside it); null or absent when none. */
  device?: ClientDevice | null;
  /** The address the request came from (an app without a device id may be counted by it). */
  clientAddress?: string;
  /** The host it was asked on (`Host`, with its port): on a domain no longer issued, apps are told the new one. */
  host?: string;
}

export interface SubscriptionReply {
  statusCode: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export const SUBSCRIPTION_MESSAGES = {
  notFound: 'This subscription link does not exist. Copy it again from your dashboard.',
  /** The spec's catalogue message for an unreachable panel. */
  unavailable: 'Service is temporarily unavailable. Please try again later or contact support.',
  pending: 'This subscription is still being set up. Please try again in a minute.',
  paidPending: 'Your payment is confirmed; your account is being set up. Please try again in a minute.',
} as const;

/**
 * The one 404 of `/sub`, made once: an unknown token (a guess, a stale link) is the most frequent answer
 * under a flood, and a new error per request would capture a stack trace no one reads (the error handler
 * only reads its status, code and message; nothing mutates it).
 */
export const SUBSCRIPTION_NOT_FOUND = notFound(SUBSCRIPTION_MESSAGES.notFound);

const pendingMessage = (account: SubscriptionAccount) => (account.paid ? SUBSCRIPTION_MESSAGES.paidPending : SUBSCRIPTION_MESSAGES.pending);

/** What the account's state is for this link, from our row (and, for a client, the panel's answer). */
export type AccountState = PageStatus;
type BlockedState = Exclude<AccountState, 'active' | 'on_hold' | 'pending'>;

const BLOCKED_STATUSES = new Set<string>(['suspended', 'disabled', 'expired', 'limited']);

/** The state our own row gives: its status, then expiry and quota (the sync job may not have run yet). */
export function accountState(account: SubscriptionAccount, now: Date): AccountState {
  // Paid, and waiting only for its panel user: being set up, not waiting for a payment.
  if (account.status === 'suspended' && account.paid) return 'pending';
  if (BLOCKED_STATUSES.has(account.status)) return account.status as BlockedState;
  if (account.status !== 'active' && account.status !== 'on_hold') return 'inactive';
  if (account.expireDate && account.expireDate.getTime() <= now.getTime()) return 'expired';
  if (account.dataLimitBytes !== null && account.usedTrafficBytes !== null && account.usedTrafficBytes >= account.dataLimitBytes) return 'limited';
  if (account.subscriptionUrl === null) return 'pending';
  return account.status;
}

/** What the panel's own answer says: its placeholder, or its userinfo past expiry or quota. */
function panelState(copy: PanelCopy, now: Date): BlockedState | null {
  if (copy.placeholder) return 'disabled';
  const usage = copy.usage;
  if (!usage) return null;
  if (usage.expire > 0 && usage.expire * 1000 <= now.getTime()) return 'expired';
  if (usage.total > 0 && usage.upload + usage.download >= usage.total) return 'limited';
  return null;
}

export interface SiteLinks {
  dashboard: string;
  support: string;
}

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');


/** `attachment; filename="<ascii>"; filename*=UTF-8''<pct-encoded>` (Hiddify reads the first, Clash Verge the second). */
export function contentDisposition(name: string): string {
  const clean = headerSafe(name) || 'subscription';
  const ascii = clean.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\%]/g, '').replace(/\s+/g, ' ').trim() || 'subscription';
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const MAX_FORWARDED_UA = 512;
/** Headers of Remnawave's answer when its own HWID limit held the request back (an empty or placeholder body). */
const REFUSED_BY_PANEL_DEVICE_LIMIT = ['x-hwid-not-supported', 'x-hwid-max-devices-reached'];
const UNKNOWN_TOKENS_KEPT = 10_000;
/** An account read from the database is kept in memory when it is asked for again within this long (up to twice as long: lib/recently-seen.ts). */
const ASKED_AGAIN_WITHIN_MS = 30_000;
/** How long an owner's language is reused for the announcement before it is read again. */
const OWNER_LOCALE_TTL_MS = 5 * 60_000;

export function createSubscriptionService(deps: SubscriptionServiceDeps) {
  const clock = deps.clock ?? systemClock;
  const repo = deps.repo ?? createSubscriptionRepo(deps.db);
  const timeoutMs = deps.fetchTimeoutMs ?? PANEL_TIMEOUT_MS;
  const defaultHeaders: SubscriptionHeaderSettings = { ...SUBSCRIPTION_HEADER_DEFAULTS, updateIntervalHours: Math.max(1, Math.round(deps.updateIntervalHours ?? 12)) };
  const accountTtlMs = deps.accountTtlMs ?? 5000;
  const unknownTokenTtlMs = deps.unknownTokenTtlMs ?? 30_000;
  const brandTtlMs = deps.brandTtlMs ?? 30_000;
  const linksIn = (locale: Locale): SiteLinks => ({
    dashboard: new URL(localizedPath(locale, '/dashboard'), deps.publicUrl).href,
    support: new URL(localizedPath(locale, '/support'), deps.publicUrl).href,
  });
  /** The site's pages in each language: the page and a blocked account's text link to those of its reader; the profile headers to the English ones. */
  const localizedLinks = Object.fromEntries(LOCALES.map((locale) => [locale, linksIn(locale)])) as Record<Locale, SiteLinks>;
  const links: SiteLinks = localizedLinks.en;
  const log: SubscriptionLog = deps.log ?? { warn() {}, error() {} };
  const devices = deps.devices ?? createDeviceAdmission({ repo: createDevicesRepo(deps.db), now: () => clock().getTime(), ttlMs: accountTtlMs, log });

  const content = new SwrCache<PanelCopy>(
    { ...DEFAULT_SWR_OPTIONS, ...deps.cache, now: () => clock().getTime() },
    (copy) => copy.size,
    () => {}, // logged where the fetch failed
  );
  const stored = createStoredCopies({
    repo: deps.copies ?? createSubscriptionCopiesRepo(deps.db),
    fetchCopy: (account, source, userAgent) => fetchCopy(account, source, userAgent),
    now: clock,
    freshMs: deps.storedFreshMs ?? DEFAULT_SWR_OPTIONS.freshMs,
    leaseMs: deps.refreshLeaseMs ?? 30_000,
    maxRefreshes: deps.maxRefreshes ?? 4,
    saveDelayMs: deps.storedSaveDelayMs ?? 1000,
    claimDelayMs: deps.refreshClaimDelayMs ?? 100,
    log,
    refreshed: (account, source, copy) => content.set(cacheKey(account, source), copy),
  });

  // Account rows by token, reused for a few seconds: the hot path then needs no database round trip.
  const accounts = new LruMap<string, { account: SubscriptionAccount; at: number }>(Math.max(1000, (deps.cache?.maxEntries ?? DEFAULT_SWR_OPTIONS.maxEntries) * 2));
  const accountLookups = new Map<string, Promise<SubscriptionAccount | undefined>>();
  // Tokens that matched no row, and when: guessed or stale links then cost no query each (bounded, so a
  // flood of new guesses only evicts older ones; the per-IP limit caps how fast they come).
  const unknownTokens = new LruMap<string, number>(UNKNOWN_TOKENS_KEPT);

  // The tokens asked for while this turn of the event loop reads its sockets, looked up in one statement
  // per format when it ends (db/batched-read.ts), one lookup at a time: a burst of cold requests (an instance
  // restarted, every client at once) then costs a round trip per batch of the requests that came while the
  // last one ran, not one per request. One at a time rather than two: the batches are larger, and on PostgreSQL
  // they go to one connection (the pool hands out the last one released). At a million users the cold ratio was
  // 0.51 against 0.48 with two (medians of 4), and on a table bloated by dead rows 0.43 against 0.36, PostgreSQL
  // spending 35–50 µs a request against 50–95 (2026-11-28, docs/performance.md).
  const loadAccount = batchPerTurn<{ token: string; source: PanelFormat }, SubscriptionAccount | undefined>(async (keys) => {
    const bySource = new Map<PanelFormat, Promise<Map<string, SubscriptionAccount> | Error>>();
    for (const { source } of keys) {
      if (!bySource.has(source)) bySource.set(source, repo.findByTokens(keys.filter((key) => key.source === source).map((key) => key.token), source).catch(asError));
    }
    const found = new Map<PanelFormat, Map<string, SubscriptionAccount> | Error>();
    for (const [source, lookup] of bySource) found.set(source, await lookup);
    return keys.map(({ token, source }) => {
      const accounts = found.get(source)!;
      return accounts instanceof Error ? accounts : accounts.get(token);
    });
  }, { maxInFlight: 1 });

  // The tokens of accounts read lately. Memory keeps an account (its row, its configuration) only when it is
  // asked for again soon (within half a minute surely, after a minute never): clients fetch every few hours,
  // so nearly every request is the only one of its account for hours, and keeping each for nothing made the
  // collector copy and mark every one of them (cold `/sub`: 90 against 74 µs of CPU a request,
  // docs/performance.md). The tokens themselves are not kept either (a filter of bits, lib/recently-seen.ts).
  const readLately = new RecentlySeen(ASKED_AGAIN_WITHIN_MS);

  /**
   * The account by its token, read (when not reused) with its stored configuration in `source`, and whether
   * memory keeps it (then its configuration is kept too).
   */
  async function findAccount(token: string, source: PanelFormat, now: number): Promise<{ account: SubscriptionAccount; kept: boolean } | undefined> {
    const cached = accounts.get(token);
    if (cached && now - cached.at < accountTtlMs) return { account: cached.account, kept: true };
    const missedAt = unknownTokens.peek(token);
    if (missedAt !== undefined && now - missedAt < unknownTokenTtlMs) return undefined;
    let lookup = accountLookups.get(token);
    if (!lookup) {
      lookup = loadAccount({ token, source }).finally(() => accountLookups.delete(token));
      accountLookups.set(token, lookup);
    }
    let account: SubscriptionAccount | undefined;
    try {
      account = await lookup;
    } catch (err) {
      // The database is unreachable: a row kept from moments ago is better than failing the client.
      if (cached) return { account: cached.account, kept: true };
      throw err;
    }
    if (!account) {
      accounts.delete(token);
      unknownTokens.set(token, clock().getTime());
      return undefined;
    }
    if (missedAt !== undefined) unknownTokens.delete(token);
    const at = clock().getTime();
    const kept = readLately.seenBefore(token, at) || cached !== undefined;
    if (kept) accounts.set(token, { account, at });
    return { account, kept };
  }

  /** The brand settings with the header values made from them (computed once per load, not per request). */
  interface Brand extends SubscriptionBrand {
    devicelessClients: DevicelessClientPolicy;
    devicelessWindowMs: number;
    /** The host links are issued on, its origin, every host of ours (PUBLIC_URL's and the spare domains), and their origins. */
    activeHost: string;
    activeOrigin: string;
    ourHosts: ReadonlySet<string>;
    ourOrigins: ReadonlySet<string>;
    profileTitle: string;
    contentDisposition: string;
    app: AppHeaderSettings;
  }
  const toBrand = (settings: SubscriptionBrand): Brand => {
    const brandName = headerSafe(settings.brandName) || DEFAULT_BRAND_NAME;
    return {
      brandName,
      supportEmail: headerSafe(settings.supportEmail) || defaultSupportEmail(deps.publicUrl),
      devicelessClients: settings.devicelessClients ?? 'allow',
      devicelessWindowMs: (settings.devicelessWindowHours ?? DEVICELESS_WINDOW.defaultHours) * 3_600_000,
      ...domainsOf(settings.subscriptionDomains ?? []),
      profileTitle: `base64:${b64(brandName)}`,
      contentDisposition: contentDisposition(brandName),
      app: appHeaderSettings(settings.subscriptionHeaders ?? defaultHeaders),
    };
  };
  const domainsOf = (domains: readonly SubscriptionDomain[]) => {
    const activeHost = activeSubscriptionHost(domains, deps.publicUrl);
    const ourHosts = new Set([deps.publicUrl.host, ...domains.map((entry) => entry.domain)]);
    return { activeHost, activeOrigin: originOf(activeHost, deps.publicUrl), ourHosts, ourOrigins: new Set([...ourHosts].map((host) => originOf(host, deps.publicUrl))) };
  };
  const settingsVersion = deps.settingsVersion ?? (() => 0);
  let brand: { value: Brand; at: number; version: number } | undefined;
  let brandLookup: Promise<Brand> | undefined;

  async function getBrand(now: number): Promise<Brand> {
    const version = settingsVersion();
    if (brand && now - brand.at < brandTtlMs && brand.version === version) return brand.value;
    brandLookup ??= deps.settings
      .getAppSettings()
      .then((settings) => {
        const value = toBrand(settings);
        brand = { value, at: clock().getTime(), version };
        return value;
      })
      .catch((err: unknown) => {
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'subscription: could not read the brand settings');
        return brand?.value ?? toBrand({ brandName: DEFAULT_BRAND_NAME, supportEmail: defaultSupportEmail(deps.publicUrl) });
      })
      .finally(() => {
        brandLookup = undefined;
      });
    return brandLookup;
  }

  const cacheKey = (account: SubscriptionAccount, source: PanelFormat) => `${account.id}\n${source}\n${account.subscriptionUrl}`;

  async function fetchCopy(account: SubscriptionAccount, source: PanelFormat, userAgent: string): Promise<FetchedCopy> {
    try {
      const requests = panelSubscriptionRequests(account.panelKind, account.panelUrl, account.subscriptionUrl!, source, userAgent);
      const { response } = await fetchPanelSubscription(requests, { timeoutMs });
      // The panel's own device limit refused our request (it sends no device id): never a configuration.
      if (REFUSED_BY_PANEL_DEVICE_LIMIT.some((header) => response.headers.has(header))) {
        throw new PanelError('rejected', "The panel's own device limit refused the subscription: turn it off for this user on the panel");
      }
      const userinfo = response.headers.get('subscription-userinfo');
      const { copy, served } = parsePanelAnswer(source, response.text, userinfo);
      return { copy, served, userinfo };
    } catch (err) {
      log.warn(
        { accountId: account.id, panelKind: account.panelKind, format: source, err: err instanceof Error ? `${err.name}: ${err.message}` : String(err) },
        'subscription: could not fetch the configuration from the panel',
      );
      throw err;
    }
  }

  function commonHeaders(account: SubscriptionAccount, current: Brand, panelUsage: SubscriptionUserinfo | null, locale: Locale = 'en'): Record<string, string> {
    return appHeaders({ account, panelUsage, settings: current.app, profileTitle: current.profileTitle, locale, links });
  }

  /**
   * The language of the announcement an account's answers carry: only asked for (and kept a while per
   * owner) when the operator's announcement differs by language.
   */
  const ownerLocales = new LruMap<string, { locale: Locale; at: number }>(10_000);
  async function announceLocale(account: SubscriptionAccount, current: Brand, request: SubscriptionRequest, now: number): Promise<Locale> {
    if (!current.app.announceByLanguage) return 'en';
    const kept = ownerLocales.get(account.userId);
    if (kept && now - kept.at < OWNER_LOCALE_TTL_MS) return kept.locale;
    const locale = await readerLocale(account, request);
    ownerLocales.set(account.userId, { locale, at: now });
    return locale;
  }

  /**
   * The headers of a successful client answer, made once per (panel copy, account row, brand, format,
   * announcement language) and reused while all stay the same: the cached path then allocates almost nothing.
   * (No `Vary`: every answer is `no-store`, so no shared cache keeps one to vary.)
   */
  function clientHeaders(copy: PanelCopy, account: SubscriptionAccount, current: Brand, format: SubscriptionFormat, locale: Locale): Record<string, string> {
    const memo = copy.answers[format];
    if (memo && memo.account === account && memo.brand === current && memo.locale === locale) return memo.headers;
    const headers = commonHeaders(account, current, copy.usage, locale);
    headers['content-type'] = CONTENT_TYPES[format];
    headers['content-disposition'] = current.contentDisposition;
    copy.answers[format] = { account, brand: current, locale, headers };
    return headers;
  }

  /** The panel state already known from a cached copy (for the page: no panel request is made for it). */
  function knownPanelState(account: SubscriptionAccount, now: Date): BlockedState | null {
    if (!account.subscriptionUrl) return null;
    for (const source of ['v2ray', 'sing-box', 'clash-meta', 'clash'] as const) {
      const copy = content.peek(cacheKey(account, source));
      if (copy) return panelState(copy, now);
    }
    return null;
  }

  /**
   * The language a page or a refusal is in: its owner's (read here, not with the row: only these answers show
   * it); until they have one, or when it cannot be read, the client's.
   */
  async function readerLocale(account: SubscriptionAccount, request: SubscriptionRequest): Promise<Locale> {
    const owner = await repo.ownerLocale(account.userId).catch(() => null);
    return owner ?? localeFromAcceptLanguage(request.acceptLanguage);
  }

  async function page(account: SubscriptionAccount, token: string, state: AccountState, request: SubscriptionRequest, now: Date): Promise<SubscriptionReply> {
    const current = await getBrand(now.getTime());
    const subscriptionUrl = `${current.activeOrigin}/sub/${token}`;
    const usable = state === 'active' || state === 'on_hold' || state === 'pending';
    const locale = await readerLocale(account, request);
    const pageLinks = localizedLinks[locale];
    const html = renderSubscriptionPage({
      locale,
      brandName: current.brandName,
      supportEmail: current.supportEmail,
      subscriptionUrl,
      dashboardUrl: pageLinks.dashboard,
      supportUrl: pageLinks.support,
      username: account.username,
      status: state,
      notice: state === 'active' || state === 'on_hold' ? null : pageNotice(state, pageLinks, account.paid, locale),
      usedBytes: account.usedTrafficBytes ?? 0,
      limitBytes: account.dataLimitBytes,
      expiresAt: account.expireDate,
      platform: platformFromUserAgent(request.userAgent),
      now,
      qrSvg: usable ? await renderQrSvg(subscriptionUrl) : null,
    });
    return {
      statusCode: usable ? 200 : 403,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-language': locale,
        'cache-control': 'no-store',
        'x-robots-tag': 'noindex, nofollow',
        'referrer-policy': 'no-referrer',
      },
      body: html,
    };
  }

  /** Why the account cannot be used, as the VPN client shows it: in the owner's language (until they have one, the client's). */
  async function blockedReply(account: SubscriptionAccount, state: BlockedState, panelUsage: SubscriptionUserinfo | null, request: SubscriptionRequest, now: Date): Promise<SubscriptionReply> {
    const current = await getBrand(now.getTime());
    const locale = await readerLocale(account, request);
    return {
      statusCode: 403,
      headers: { ...commonHeaders(account, current, panelUsage, locale), 'content-type': 'text/plain; charset=utf-8', 'content-language': locale },
      body: pageNotice(state, localizedLinks[locale], account.paid, locale),
    };
  }

  /**
   * What a refused device gets: 200 with one placeholder entry in its format, named with the reason in
   * the owner's language (until they have one, the client's), and our usual headers. Remnawave's
   * `x-hwid-*` headers say the same to the clients that read them (v2RayTun reads `x-hwid-limit`), and
   * `announce` shows the text in Happ.
   */
  async function deviceRefusal(account: SubscriptionAccount, refusal: Exclude<DeviceCheck, { allowed: true }>, format: SubscriptionFormat, request: SubscriptionRequest, now: Date): Promise<SubscriptionReply> {
    const current = await getBrand(now.getTime());
    const locale = await readerLocale(account, request);
    const dashboard = localizedLinks[locale].dashboard;
    const text = refusal.reason === 'limit_reached'
      ? pageText(locale, 'device.limitReached', { count: refusal.count, limit: refusal.limit, dashboard })
      : pageText(locale, 'device.idRequired', { dashboard });
    return {
      statusCode: 200,
      headers: {
        ...commonHeaders(account, current, null),
        'content-type': CONTENT_TYPES[format],
        'content-disposition': current.contentDisposition,
        'content-language': locale,
        announce: `base64:${b64(text)}`,
        'x-hwid-active': 'true',
        'x-hwid-limit': 'true',
        [refusal.reason === 'limit_reached' ? 'x-hwid-max-devices-reached' : 'x-hwid-not-supported']: 'true',
      },
      body: placeholderBody(format, text, current.brandName),
    };
  }

  return {
    /** Answers one `GET /sub/<path>`. Throws AppError 404 (unknown or malformed) and 503 (panel down, nothing cached; not provisioned yet). */
    async handle(request: SubscriptionRequest): Promise<SubscriptionReply> {
      const parsed = parseSubscriptionPath(request.path);
      if (!parsed) throw SUBSCRIPTION_NOT_FOUND;
      const now = clock();
      const format: SubscriptionFormat = parsed.forced ?? formatForUserAgent(request.userAgent);
      const found = await findAccount(parsed.token, PANEL_SOURCE[format], now.getTime());
      if (!found) throw SUBSCRIPTION_NOT_FOUND;
      const { account, kept } = found;
      const state = accountState(account, now);

      if (!parsed.forced && wantsHtml(request.accept)) {
        const known = state === 'active' || state === 'on_hold' ? knownPanelState(account, now) : null;
        return page(account, parsed.token, known ?? state, request, now);
      }
      if (state === 'pending') throw new AppError(503, 'service_unavailable', pendingMessage(account), { retryAfterSeconds: 60 });
      if (state !== 'active' && state !== 'on_hold') return blockedReply(account, state, null, request, now);

      let device = request.device ?? null;
      let windowMs = Infinity;
      if (!device && account.deviceLimit !== null) {
        // An app without a device id on a limited account: counted as a device by its app and address, if the operator says so.
        const current = await getBrand(now.getTime());
        if (current.devicelessClients === 'count') {
          device = anonymousDevice(request.userAgent, request.clientAddress);
          windowMs = current.devicelessWindowMs;
        }
      }
      if (device ? !devices.admittedNow(account.id, device, windowMs) : account.deviceLimit !== null) {
        const deviceless = device || account.deviceLimit === null ? 'allow' : (await getBrand(now.getTime())).devicelessClients;
        const admitted = await devices.check(account, device, deviceless, windowMs);
        if (!admitted.allowed) return deviceRefusal(account, admitted, format, request, now);
      }
      const source = PANEL_SOURCE[format];
      const userAgent = (request.userAgent ?? '').slice(0, MAX_FORWARDED_UA);
      const key = cacheKey(account, source);
      // Not in memory, and stored: the copy read with the row is served as it is (nothing more to wait for),
      // and kept when the account is.
      let copy = content.has(key) ? undefined : stored.fromRow(account, source, userAgent);
      if (copy) {
        if (kept) content.set(key, copy);
      } else {
        try {
          copy = (await content.get(key, () => stored.load(account, source, userAgent))).value;
        } catch {
          throw new AppError(503, 'service_unavailable', SUBSCRIPTION_MESSAGES.unavailable, { retryAfterSeconds: 30 });
        }
      }

      const fromPanel = panelState(copy, now);
      if (fromPanel) return blockedReply(account, fromPanel, copy.usage, request, now);
      const body = copy.bodies[format];
      if (!body) throw new AppError(503, 'service_unavailable', SUBSCRIPTION_MESSAGES.unavailable, { retryAfterSeconds: 30 });

      const current = await getBrand(now.getTime());
      const headers = clientHeaders(copy, account, current, format, await announceLocale(account, current, request, now.getTime()));
      // Asked on a domain of ours links are no longer issued on (it was blocked): apps that can move to the new one (Happ) are told where.
      if (request.host && request.host !== current.activeHost && current.ourHosts.has(request.host)) {
        return { statusCode: 200, headers: { ...headers, 'new-domain': current.activeHost, 'new-url': `${current.activeOrigin}/sub/${request.path}` }, body };
      }
      return { statusCode: 200, headers, body };
    },

    /** `GET /open/<app>?url=`: the page that opens an app's deep link for one of our `/sub` links (open-page.ts). */
    async openApp(request: { appId: string; url: string | undefined; acceptLanguage?: string }): Promise<OpenPageReply> {
      const current = await getBrand(clock().getTime());
      return renderOpenPage({ appId: request.appId, url: request.url, origins: current.ourOrigins, brandName: current.brandName, locale: localeFromAcceptLanguage(request.acceptLanguage) });
    },

    /** Forgets what is cached (here) and stored (for every instance) for an account: call after renewing, disabling or moving it. */
    invalidateAccount(accountId: string): Promise<void> {
      devices.forget(accountId);
      content.deleteWhere((key) => key.startsWith(`${accountId}\n`));
      for (const token of [...accounts.keys()]) if (accounts.peek(token)?.account.id === accountId) accounts.delete(token);
      return stored.forget(accountId);
    },

    /** Forgets which devices the account has admitted (call after one is removed, here or on another instance). */
    forgetDevices(accountId: string): void {
      devices.forget(accountId);
    },

    /** Forgets the cached brand settings (call after the admin saves them). */
    invalidateBrand(): void {
      brand = undefined;
    },

    /** Resolves when no panel fetch or stored-copy write is in flight (tests; graceful shutdown). */
    async whenIdle(): Promise<void> {
      while (content.loading > 0 || stored.refreshing > 0) {
        await content.whenIdle();
        await stored.whenIdle();
      }
      await stored.whenIdle();
    },

    /** Sizes, for tests and diagnostics. */
    stats() {
      return { entries: content.size, bytes: content.bytes, loading: content.loading, refreshing: stored.refreshing, accounts: accounts.size, unknownTokens: unknownTokens.size };
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
