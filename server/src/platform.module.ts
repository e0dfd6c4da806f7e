import { createCommitToken } from './db/commit-token.js';
import { createJobsRepo } from './jobs/jobs.repo.js';
import { createBroadcast } from './lib/broadcast.js';
import { createChangeSignal } from './lib/change-signal.js';
import { createRateLimitCounters } from './lib/rate-limit-counters.js';
import { createAuditRepo } from './modules/audit/audit.repo.js';
import { cachedSessions, createSessionCache, forgettingUsers } from './modules/auth/session-cache.js';
import { createSessionsRepo } from './modules/auth/sessions.repo.js';
import { createBillingNotices } from './modules/billing/billing-notices.js';
import { defineModule, route, type Core } from './modules/module.js';
import { healthRoutes } from './modules/system/health.routes.js';
import { createUsersRepo } from './modules/users/users.repo.js';
import { erasedEmailHash } from './modules/users/erased-email.js';

/**
 * What every module stands on: messages between instances, the "site changed" signal, the job queue, the audit
 * log, who is signed in (sessions, cached and forgotten on every instance when a user changes), and the
 * customer notices queued as e-mails, and the counters of the rate limits (Redis when REDIS_URL is set, this process
 * while it cannot be reached).
 */
export const platformModule = defineModule({
  name: 'platform',
  build({ config, db, clock, log, keys }: Core) {
    // Messages between instances (Redis when REDIS_URL is set, else PostgreSQL's LISTEN/NOTIFY) that keep their in-memory caches honest.
    const broadcast = createBroadcast({ redisUrl: config.redisUrl, db, onError: (err) => log.warn({ err: err.message }, 'broadcast error') });
    const sessionsRepo = createSessionsRepo(db);
    const sessionCache = createSessionCache({ load: sessionsRepo.findSessionWithUser, broadcast, now: () => clock().getTime() });
    const jobs = createJobsRepo(db);
    return {
      broadcast,
      // "The site changed" (settings, payment settings, plans, servers): caches of pages and public settings follow it, across instances.
      changeSignal: createChangeSignal(broadcast),
      jobs,
      audit: createAuditRepo(db),
      commitToken: createCommitToken(db),
      sessionCache,
      sessions: cachedSessions(sessionsRepo, sessionCache),
      usersRepo: forgettingUsers(createUsersRepo(db, { erasedEmailHash: (email) => erasedEmailHash(keys, email) }), sessionCache),
      notices: createBillingNotices({ jobs, clock }),
      rateLimitCounters: createRateLimitCounters({ redisUrl: config.redisUrl, log }),
    };
  },
  routes: ({ db }) => [route(healthRoutes, { db })],
  listeners: ({ changeSignal, sessionCache }) => ({
    'site.changed': () => changeSignal.changed(),
    'user.changed': ({ userId }) => sessionCache.forgetUser(userId),
  }),
});
