import type { DesktopChannel, DesktopPlatform } from './desktop-releases.js';
import type { AdminTransaction, RecurringMetrics, UnreadableWebhookAlert } from './billing.js';
import type { ProviderMethod } from './billing-schemas.js';
import { z } from 'zod';
import type { RegionNameTranslations } from './region-names.js';
import type { PlanNames } from './plan-translations.js';

export const ACCOUNT_STATUSES = ['active', 'suspended', 'disabled', 'limited', 'expired', 'on_hold'] as const;
export type VpnAccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** `GET /api/accounts` (the caller's own), newest first. */
export interface VpnAccount {
  id: string;
  username: string;
  status: VpnAccountStatus;
  expireDate: string | null;
  /** null = unlimited. */
  dataLimitBytes: number | null;
  usedTrafficBytes: number;
  createdAt: string;
  /** Our own subscription link: PUBLIC_URL/sub/<token>. null while the account is not provisioned. */
  combinedUrl: string | null;
  /**
   * The same link as `combinedUrl` (kept for clients that read this name). Never the panel's own
   * subscription address: customers only ever get our `/sub/<token>` link.
   */
  subscriptionUrl: string | null;
  /** Per-configuration links. */
  links: string[];
  /**
   * Where it runs, as the status page names it: the server's public region name, or "Location N" with
   * `locationNumber` set when it has none (never the server's internal admin name).
   */
  server: { name: string; locationNumber: number | null; nameTranslations: RegionNameTranslations; locations: string } | null;
  planName: string | null;
  /** The plan's name in the languages the operator translated it into, on sale or not (`planName` is the English). */
  planNames?: PlanNames;
  /** The plan it was bought on, while that plan exists. */
  planId: string | null;
  /** True when the account can be renewed by card: it was bought on a paid plan that is still on sale. */
  renewable: boolean;
  /** True when the panel could not be asked just now: usage and status are the last known values. */
  usageStale: boolean;
  /** A payment for it has succeeded: a `suspended` account is then being set up, not waiting to be paid. */
  paymentConfirmed: boolean;
  usageCheckedAt: string | null;
  /** How many devices may use this account (from its plan when bought or renewed); null = unlimited. */
  deviceLimit: number | null;
  /** Its customer set it to renew itself from their balance a day before it ends (`POST /api/accounts/:id/auto-renew`). */
  autoRenewFromWallet: boolean;
  /** A downgrade waiting for the paid end: the plan it switches to, and when (shared/plan-changes.ts). */
  scheduledPlanChange: { planId: string; effectiveAt: string } | null;
}

/** `POST /api/accounts/:id/auto-renew`: renew the account from the balance before it ends, or stop. */
export const AutoRenewBody = z.object({ enabled: z.boolean({ error: 'enabled is true or false' }) }, { error: 'Send a JSON object.' });
export type AutoRenewBody = z.infer<typeof AutoRenewBody>;

export const CreateAccountBody = z.object({ planId: z.string({ error: 'planId is required' }).trim().min(1).max(64) });
export type CreateAccountBody = z.infer<typeof CreateAccountBody>;

/** `POST /api/admin/accounts`: a custom account, for the admin unless `userId` is given. */
export const AdminCreateAccountBody = z.object({
  serverId: z.string({ error: 'Select a server' }).trim().min(1, 'Select a server').max(64),
  dataLimitGb: z.number({ error: 'Data limit is required' }).int('Use a whole number').min(1).max(100_000),
  expireDays: z.number({ error: 'Expiry is required' }).int('Use a whole number').min(1).max(3650),
  userId: z.string().trim().min(1).max(64).optional(),
});
export type AdminCreateAccountBody = z.infer<typeof AdminCreateAccountBody>;

/** Messages from the spec's catalogue. */
export const ACCOUNT_MESSAGES = {
  serviceUnavailable: 'Service is temporarily unavailable. Please try again later or contact support.',
  trialUsed: 'Trial Already Used',
  trialCreated: 'Trial account created successfully!',
  deleteConfirm: 'Are you sure you want to delete this account? This action cannot be undone.',
  deleted: 'Account deleted successfully',
  deleteFailed: 'Failed to delete VPN account',
  linkCopied: 'Link copied to clipboard',
  subscriptionCopied: 'Subscription URL copied to clipboard!',
  loadFailed: 'Failed to load your data. Please try again.',
  createTrialFailed: 'Failed to create trial account',
  customFailed: 'Failed to create VPN account',
  serversFailed: 'Failed to fetch available servers',
} as const;

/** `GET /api/admin/logs?limit=100`: provisioning steps, newest first (never secrets). */
export interface AccountLogEntry {
  id: number;
  step: string;
  status: 'success' | 'failure';
  details: Record<string, unknown>;
  vpnAccountId: string | null;
  userId: string | null;
  createdAt: string;
}

/** `GET /api/admin/system`. */
export interface SystemStatus {
  version: string;
  database: { ok: boolean; dialect: 'sqlite' | 'postgres' };
  mail: { kind: 'smtp' | 'log'; ok: boolean };
  /**
   * Where the rate limits count: `memory` (this instance; no REDIS_URL), `redis` (shared by every instance), or
   * `memory_fallback` (REDIS_URL is set but Redis cannot be reached since `redisDownSince`: each instance counts
   * on its own until it returns).
   */
  rateLimits: { store: 'memory' | 'redis' | 'memory_fallback'; redisDownSince: string | null };
  /** Each panel, reached now; `tokenExpiresAt` / `tokenDaysLeft`: when its API token ends (null: not given). */
  panels: Array<{
    id: string;
    name: string;
    kind: string;
    status: 'active' | 'disabled';
    reachable: boolean;
    error: string | null;
    tokenExpiresAt: string | null;
    tokenDaysLeft: number | null;
  }>;
  jobs: {
    counts: Record<string, number>;
    /**
     * What the queue holds, by job type (most due first): `waiting` for their time (normal: reminders, renewals,
     * retries later on), `due` now, the oldest due since `oldestDueAt` (long past it, the worker is behind or stopped).
     */
    queued: Array<{ type: string; waiting: number; due: number; oldestDueAt: string | null }>;
    failed: Array<{ id: string; type: string; attempts: number; lastError: string | null; updatedAt: string }>;
  };
  /** The operator's desktop app as published for auto-update: the version per channel and platform, null where none is. */
  desktopApp: Record<DesktopChannel, Record<DesktopPlatform, string | null>>;
  /** The backups in BACKUP_DIR and their schedule (docs/backups.md). */
  backups: BackupStatus;
  /**
   * Payments an admin must look at: paid amounts that differ from the order, open disputes, and webhook events
   * refused because their API version (or shape) could not be read.
   */
  payments: {
    cardEnabled: boolean;
    cryptoEnabled: boolean;
    needsReview: AdminTransaction[];
    disputed: AdminTransaction[];
    recurring: RecurringMetrics;
    unreadableWebhooks: UnreadableWebhookAlert[];
    /** Each provider with keys: offered or not, answering now or not, and its last payment. */
    providers: ProviderHealth[];
  };
}

/** Backups in the System tab: the daily time (HH:MM UTC, null: none scheduled), how many are kept, the newest one. */
export interface BackupStatus {
  scheduledAt: string | null;
  keep: number;
  /** Backups in BACKUP_DIR now. */
  count: number;
  last: { takenAt: string; ageSeconds: number; bytes: number; name: string } | null;
  /** The newest backup is more than a day old, or backups are scheduled and there is none yet. */
  alert: boolean;
}

/** A payment provider's health in the System tab. */
export interface ProviderHealth {
  method: ProviderMethod;
  /** Customers are offered it now (enabled, and it takes the store's currency). */
  offered: boolean;
  /** It answered one authenticated read with its keys just now. */
  reachable: boolean;
  latencyMs: number | null;
  error: string | null;
  /** When it last took a payment that went through. */
  lastPaidAt: string | null;
}
