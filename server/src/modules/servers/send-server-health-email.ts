import { z } from 'zod';
import { DEFAULT_LOCALE } from '../../../../shared/locales.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import type { Clock } from '../../lib/clock.js';
import { renderServerHealthEmail, renderTokenExpiringEmail } from '../../mail/server-health-email.js';
import type { Mailer } from '../../mail/mailer.js';
import { SEND_SERVER_HEALTH_EMAIL } from './server-health.js';
import type { ServersRepo } from './servers.repo.js';
import type { SettingsService } from '../settings/index.js';
import type { UsersRepo } from '../users/index.js';
import { PermanentJobError, type JobHandler } from '../../jobs/worker.js';

const Notice = z.object({
  serverId: z.string().min(1),
  /** `token_expiring`: the panel's API token ends at `at`. */
  state: z.enum(['up', 'down', 'token_expiring']),
  at: z.iso.datetime(),
  /** Set on the per-admin jobs this one fans out to. */
  to: z.string().min(3).optional(),
});

/**
 * A server went down or came back (server-health.ts queued this once per change). Without `to`, the job
 * queues one e-mail job per admin (the admins in the database and ADMIN_EMAILS), each with its own
 * dedupe key, so a mail server failing for one admin never resends to the others.
 */
export function createSendServerHealthEmailHandler(deps: {
  servers: ServersRepo;
  users: UsersRepo;
  adminEmails: ReadonlySet<string>;
  settings: SettingsService;
  mailer: Mailer;
  jobs: JobsRepo;
  publicUrl: URL;
  clock: Clock;
}): JobHandler {
  return async (payload, job) => {
    const parsed = Notice.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError(`bad server health notice: ${parsed.error.message}`);
    const notice = parsed.data;
    if (notice.to === undefined) {
      const admins = new Set([...(await deps.users.listAdminEmails()), ...deps.adminEmails]);
      const now = deps.clock();
      for (const to of admins) {
        await deps.jobs.enqueue(
          { type: SEND_SERVER_HEALTH_EMAIL, payload: { ...notice, to }, dedupeKey: `${job.dedupeKey ?? job.id}:${to}`, maxAttempts: 200 },
          now,
        );
      }
      return;
    }
    const server = await deps.servers.findById(notice.serverId);
    if (!server) return; // deleted since: nothing to tell
    const { brandName } = await deps.settings.getAppSettings();
    // The admin's stored language; English for an address of ADMIN_EMAILS that has not signed in yet.
    const locale = (await deps.users.findByEmail(notice.to))?.locale ?? DEFAULT_LOCALE;
    if (notice.state === 'token_expiring') {
      // A new token (or end date) saved since: this warning is about a token no longer used.
      if (server.tokenExpiresAt?.toISOString() !== notice.at) return;
      await deps.mailer.send(
        renderTokenExpiringEmail({
          to: notice.to,
          brandName,
          publicUrl: deps.publicUrl,
          serverName: server.name,
          expiresAt: server.tokenExpiresAt,
          now: deps.clock(),
          locale,
        }),
      );
      return;
    }
    await deps.mailer.send(
      renderServerHealthEmail({
        to: notice.to,
        brandName,
        publicUrl: deps.publicUrl,
        serverName: server.name,
        state: notice.state,
        at: new Date(notice.at),
        lastError: server.health.error,
        locale,
      }),
    );
  };
}
