import { createDriverRegistry } from '../../panels/driver-registry.js';
import type { Configured } from '../settings/index.js';
import { defineModule, route } from '../module.js';
import { CHECK_PANEL_HEALTH, createCheckPanelHealthHandler } from './check-panel-health.js';
import { createPanelUrlCheck } from './panel-address.js';
import { createSendServerHealthEmailHandler } from './send-server-health-email.js';
import { createServerHealth, SEND_SERVER_HEALTH_EMAIL } from './server-health.js';
import { adminServersRoutes } from './servers.routes.js';
import { createServersService } from './servers.service.js';

/** The panel servers: their settings (passwords encrypted at rest), drivers, and health checked every minute. */
export const serversModule = defineModule({
  name: 'servers',
  build({ db, config, keys, clock, log, events, audit, jobs, serversRepo, plansRepo, driverFactory }: Configured) {
    const servers = createServersService({
      servers: serversRepo,
      drivers: createDriverRegistry(driverFactory),
      audit,
      keys,
      clock,
      log,
      checkPanelUrl: createPanelUrlCheck({ allowLinkLocal: config.allowLinkLocalPanels }),
      onChange: () => events.tell('site.changed', {}),
      plansListing: (serverId) => plansRepo.namesListing(serverId),
    });
    const serverHealth = createServerHealth({ db, servers: serversRepo, driverFor: (server) => servers.driverFor(server), jobs, clock, log });
    return { servers, serverHealth };
  },
  routes: ({ servers }) => [route(adminServersRoutes, { servers })],
  jobs: ({ config, clock, mailer, jobs, usersRepo: users, settings, serversRepo, serverHealth }) => ({
    [CHECK_PANEL_HEALTH]: createCheckPanelHealthHandler({ health: serverHealth, clock }),
    [SEND_SERVER_HEALTH_EMAIL]: createSendServerHealthEmailHandler({
      servers: serversRepo,
      users,
      adminEmails: config.adminEmails,
      settings,
      mailer,
      jobs,
      publicUrl: config.publicUrl,
      clock,
    }),
  }),
  periodicJobs: [CHECK_PANEL_HEALTH],
});
