import { z } from 'zod';
import type { BackupStatus, ProviderHealth, SystemStatus } from '../../../shared/accounts.js';
import type { RecurringMetrics, UnreadableWebhookAlert } from '../../../shared/billing.js';
import { PROVIDER_METHODS } from '../../../shared/billing-schemas.js';
import { DESKTOP_CHANNELS, DESKTOP_PLATFORMS } from '../../../shared/desktop-releases.js';
import { AdminTransactionAnswer } from './billing.js';

/**
 * What the admin's System tab reads (`GET /api/admin/system`): the database, mail, each panel, the job queue, the
 * published desktop app and the payments an admin must look at, checked against the shared type the service
 * returns. Amounts are integer minor units; times are ISO strings.
 */

const Int = z.number().int();

/** One panel, reached just now; its API token's end when the admin gave it. */
const PanelHealthAnswer = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  status: z.enum(['active', 'disabled']),
  reachable: z.boolean(),
  error: z.string().nullable(),
  tokenExpiresAt: z.string().nullable(),
  tokenDaysLeft: Int.nullable(),
}) satisfies z.ZodType<SystemStatus['panels'][number]>;

/** The job queue: how many jobs per status, what the queued ones are (by type), and the newest failed ones. */
const JobsHealthAnswer = z.object({
  counts: z.record(z.string(), Int),
  queued: z.array(z.object({ type: z.string(), waiting: Int, due: Int, oldestDueAt: z.string().nullable() })),
  failed: z.array(z.object({ id: z.string(), type: z.string(), attempts: Int, lastError: z.string().nullable(), updatedAt: z.string() })),
}) satisfies z.ZodType<SystemStatus['jobs']>;

/** The recurring business at a glance (MRR per month, in minor units of `currency`). */
const RecurringMetricsAnswer = z.object({
  activeRecurring: Int,
  pastDue: Int,
  cancelingAtPeriodEnd: Int,
  monthlyRecurringRevenue: Int,
  currency: z.string(),
  unreadable: Int,
  lastReadError: z.string().nullable(),
  otherCurrencies: z.array(z.object({ currency: z.string(), monthlyRecurringRevenue: Int })),
}) satisfies z.ZodType<RecurringMetrics>;

/** Webhook events of one provider's API version that could not be read. */
const UnreadableWebhookAlertAnswer = z.object({
  provider: z.string(),
  apiVersion: z.string(),
  lastEventType: z.string(),
  lastEventId: z.string(),
  reason: z.string(),
  timesSeen: Int,
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
}) satisfies z.ZodType<UnreadableWebhookAlert>;

/** A payment provider with keys: offered or not, answering now or not, and its last payment. */
const ProviderHealthAnswer = z.object({
  method: z.enum(PROVIDER_METHODS),
  offered: z.boolean(),
  reachable: z.boolean(),
  latencyMs: Int.nullable(),
  error: z.string().nullable(),
  lastPaidAt: z.string().nullable(),
}) satisfies z.ZodType<ProviderHealth>;

/** The backups: the schedule and the newest one in BACKUP_DIR. */
const BackupStatusAnswer = z.object({
  scheduledAt: z.string().nullable().describe('The daily backup time, HH:MM UTC; null when none is scheduled'),
  keep: Int,
  count: Int,
  last: z.object({ takenAt: z.string(), ageSeconds: Int, bytes: Int, name: z.string() }).nullable(),
  alert: z.boolean().describe('The newest backup is more than a day old, or backups are scheduled and there is none'),
}) satisfies z.ZodType<BackupStatus>;

/** `GET /api/admin/system`. */
export const SystemStatusAnswer = z.object({
  version: z.string(),
  database: z.object({ ok: z.boolean(), dialect: z.enum(['sqlite', 'postgres']) }),
  mail: z.object({ kind: z.enum(['smtp', 'log']), ok: z.boolean() }),
  rateLimits: z.object({ store: z.enum(['memory', 'redis', 'memory_fallback']), redisDownSince: z.string().nullable() }),
  panels: z.array(PanelHealthAnswer),
  jobs: JobsHealthAnswer,
  desktopApp: z
    .record(z.enum(DESKTOP_CHANNELS), z.record(z.enum(DESKTOP_PLATFORMS), z.string().nullable()))
    .describe('The published version per channel and platform; null where nothing is published'),
  backups: BackupStatusAnswer,
  payments: z.object({
    cardEnabled: z.boolean(),
    cryptoEnabled: z.boolean(),
    needsReview: z.array(AdminTransactionAnswer),
    disputed: z.array(AdminTransactionAnswer),
    recurring: RecurringMetricsAnswer,
    unreadableWebhooks: z.array(UnreadableWebhookAlertAnswer),
    providers: z.array(ProviderHealthAnswer),
  }),
}) satisfies z.ZodType<SystemStatus>;
