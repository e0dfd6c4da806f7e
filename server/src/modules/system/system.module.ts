import type { WithBilling } from '../billing/index.js';
import type { backupsModule } from '../backups/index.js';
import type { desktopReleasesModule } from '../desktop-releases/index.js';
import { defineModule, route, type Provided } from '../module.js';
import { createProviderHealth } from './provider-health.js';
import { statusRoutes } from './status.routes.js';
import { createStatusService } from './status.service.js';
import { adminSystemRoutes } from './system.routes.js';
import { createSystemService } from './system.service.js';

/** The public status page, and the admin's System: panels, queue, mail, payment providers, webhooks, releases. */
export const systemModule = defineModule({
  name: 'system',
  build(deps: WithBilling & Provided<typeof desktopReleasesModule> & Provided<typeof backupsModule>) {
    const { db, clock, mailer, jobs, settings, payments } = deps;
    return {
      status: createStatusService({ db, servers: deps.serversRepo, clock }),
      system: createSystemService({
        db,
        mailer,
        servers: deps.servers,
        jobs,
        settings,
        payments: deps.refunds,
        subscriptions: deps.subscriptionsAdmin,
        webhooks: deps.unreadableWebhooks,
        desktopReleases: deps.desktopReleases,
        backups: deps.backupStatus,
        rateLimits: deps.rateLimitCounters,
        clock,
        providers: createProviderHealth({
          drivers: payments,
          report: deps.revenue,
          offered: async () => (await settings.getPublicConfig()).paymentMethods,
          timeoutMs: 4000,
        }),
      }),
    };
  },
  routes: ({ status, system }) => [route(statusRoutes, { status }), route(adminSystemRoutes, { system })],
});
