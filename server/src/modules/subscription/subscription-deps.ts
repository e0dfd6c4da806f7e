/**
 * What the `/sub` service (subscription.service.ts) is given and answers: its dependencies, a request and its
 * reply, the brand settings it reads, and the messages a customer sees when there is nothing to serve.
 */
import type { DevicelessClientPolicy } from '../../../../shared/devices.js';
import type { SubscriptionDomain } from '../../../../shared/subscription-domains.js';
import type { SubscriptionHeaderSettings } from '../../../../shared/subscription-headers.js';
import type { Db } from '../../db/knex.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { BillingNotices } from '../billing/index.js';
import type { ClientDevice } from '../devices/index.js';
import type { DeviceAdmission } from './device-admission.js';
import type { SwrCacheOptions } from './subscription-cache.js';
import type { SubscriptionCopiesRepo } from './subscription-copies.repo.js';
import type { SubscriptionRepo } from './subscription.repo.js';

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
  /** Where a new device refused over the account's limit is told to its customer (device-limit-notice.ts); none: nobody is told. */
  notices?: Pick<BillingNotices, 'notify'>;
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

export interface SiteLinks {
  dashboard: string;
  support: string;
}
