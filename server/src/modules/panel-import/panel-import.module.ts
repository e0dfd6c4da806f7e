import type { WithAccounts } from '../accounts/index.js';
import { defineModule, route } from '../module.js';
import { createPanelImportRepo } from './panel-import.repo.js';
import { adminPanelImportRoutes } from './panel-import.routes.js';
import { createPanelImportService } from './panel-import.service.js';

/** A panel's existing users brought in as customers' accounts. */
export const panelImportModule = defineModule({
  name: 'panel-import',
  build({ db, audit, clock, log, plansRepo, servers }: WithAccounts) {
    return {
      panelImport: createPanelImportService({
        repo: createPanelImportRepo(db),
        plans: plansRepo,
        findServer: (id) => servers.findServerRecord(id),
        driverFor: (server) => servers.driverFor(server),
        audit,
        clock,
        log,
      }),
    };
  },
  routes: ({ panelImport }) => [route(adminPanelImportRoutes, { panelImport })],
});
