import {
  DESKTOP_CHANNELS,
  DESKTOP_PLATFORMS,
  type DesktopChannel,
  type DesktopPlatform,
  type DesktopReleasesResponse,
} from '../../../../shared/desktop-releases.js';
import type { ReleaseFeeds } from '../desktop-releases/index.js';
import type { BackupStatusReader } from '../backups/index.js';
import type { SystemStatus } from '../../../../shared/accounts.js';
import { dialectOf, type Db } from '../../db/knex.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import { APP_VERSION } from '../../lib/package-info.js';
import type { Mailer } from '../../mail/mailer.js';
import type { RefundsService, SubscriptionsAdminRepo, UnreadableWebhooksRepo } from '../billing/index.js';
import type { Clock } from '../../lib/clock.js';
import type { RateLimitCounters } from '../../lib/rate-limit-counters.js';
import type { ServersService } from '../servers/index.js';
import type { SettingsService } from '../settings/index.js';
import { pingDatabase } from './health.routes.js';
import type { ProviderHealthCheck } from './provider-health.js';
import { withTimeout } from '../../lib/with-timeout.js';
import { tokenDaysLeft } from '../servers/index.js';
import { DAY_MS } from '../../../../shared/constants.js';

const PROBE_TIMEOUT_MS = 4000;

/** A refused webhook version not seen for this long has stopped coming (Stripe gives up after three days). */
const UNREADABLE_WEBHOOK_ALERT_MS = 7 * DAY_MS;

/** The published desktop app's version per channel and platform (null: nothing published there). */
function desktopVersions(releases: DesktopReleasesResponse): SystemStatus['desktopApp'] {
  const versions = (channel: DesktopChannel) =>
    Object.fromEntries(DESKTOP_PLATFORMS.map((platform) => [platform, releases.channels[channel][platform]?.version ?? null])) as Record<
      DesktopPlatform,
      string | null
    >;
  return Object.fromEntries(DESKTOP_CHANNELS.map((channel) => [channel, versions(channel)])) as SystemStatus['desktopApp'];
}

/** The admin's System tab: database, mail, each panel, the job queue, payments, version. */
export function createSystemService(deps: {
  db: Db;
  mailer: Mailer;
  servers: ServersService;
  jobs: JobsRepo;
  settings: SettingsService;
  payments: Pick<RefundsService, 'listTransactions'>;
  subscriptions: Pick<SubscriptionsAdminRepo, 'metrics' | 'unreadable'>;
  webhooks: Pick<UnreadableWebhooksRepo, 'listSeenSince'>;
  desktopReleases: Pick<ReleaseFeeds, 'list'>;
  backups: BackupStatusReader;
  providers: ProviderHealthCheck;
  rateLimits: Pick<RateLimitCounters, 'state'>;
  clock: Clock;
}) {
  return {
    async getSystemStatus(): Promise<SystemStatus> {
      const [
        database,
        mailOk,
        servers,
        counts,
        failed,
        queued,
        config,
        needsReview,
        disputed,
        recurring,
        unreadable,
        unreadableWebhooks,
        desktop,
        providers,
        backups,
      ] = await Promise.all([
        pingDatabase(deps.db),
        withTimeout(deps.mailer.verify(), PROBE_TIMEOUT_MS).catch(() => false),
        deps.servers.listServerRecords(),
        deps.jobs.countByStatus(),
        deps.jobs.listFailed(20),
        deps.jobs.queuedByType(deps.clock()),
        deps.settings.getPublicConfig(),
        deps.payments.listTransactions({ status: 'needs_review', limit: 50 }),
        deps.payments.listTransactions({ status: 'disputed', limit: 50 }),
        deps.settings.getAppSettings().then((settings) => deps.subscriptions.metrics(settings.currency)),
        deps.subscriptions.unreadable(),
        deps.webhooks.listSeenSince(new Date(deps.clock().getTime() - UNREADABLE_WEBHOOK_ALERT_MS)),
        deps.desktopReleases.list(),
        deps.providers.check(),
        deps.backups.status(),
      ]);
      const now = deps.clock();
      const rateLimits = deps.rateLimits.state();
      const panels = await Promise.all(
        servers.map(async (server) => {
          const token = {
            tokenExpiresAt: server.tokenExpiresAt?.toISOString() ?? null,
            tokenDaysLeft: server.tokenExpiresAt ? tokenDaysLeft(server.tokenExpiresAt, now) : null,
          };
          try {
            await withTimeout(deps.servers.driverFor(server).testConnection(), PROBE_TIMEOUT_MS);
            return { id: server.id, name: server.name, kind: server.kind, status: server.status, reachable: true, error: null, ...token };
          } catch (err) {
            return {
              id: server.id,
              name: server.name,
              kind: server.kind,
              status: server.status,
              reachable: false,
              error: err instanceof Error ? err.message : String(err),
              ...token,
            };
          }
        }),
      );
      return {
        version: APP_VERSION,
        database: { ok: database, dialect: dialectOf(deps.db) },
        mail: { kind: deps.mailer.kind, ok: mailOk },
        rateLimits: { store: rateLimits.store, redisDownSince: rateLimits.redisDownSince?.toISOString() ?? null },
        panels,
        jobs: {
          counts,
          queued: queued.map((row) => ({ ...row, oldestDueAt: row.oldestDueAt?.toISOString() ?? null })),
          failed: failed.map((job) => ({
            id: job.id,
            type: job.type,
            attempts: job.attempts,
            lastError: job.lastError,
            updatedAt: job.updatedAt.toISOString(),
          })),
        },
        desktopApp: desktopVersions(desktop),
        backups,
        payments: {
          cardEnabled: config.cardPaymentsEnabled,
          cryptoEnabled: config.paymentMethods.includes('crypto'),
          needsReview,
          disputed,
          recurring: { ...recurring, ...unreadable },
          unreadableWebhooks,
          providers,
        },
      };
    },
  };
}
