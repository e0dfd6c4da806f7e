import type { WithAccounts } from '../accounts/index.js';
import { defineModule } from '../module.js';
import { createPanelSync } from './panel-sync.js';
import { createPanelSyncRepo } from './panel-sync.repo.js';
import { createSyncPanelAccountsHandler, SYNC_PANEL_ACCOUNTS } from './sync-panel-accounts.js';

/** Every minute, each panel's users read back: usage, status and expiry follow what the panel says. */
export const panelSyncModule = defineModule({
  name: 'panel-sync',
  build({ db, clock, log, events, accountsRepo, serversRepo, servers, notices }: WithAccounts) {
    return {
      panelSync: createPanelSync({
        db,
        repo: createPanelSyncRepo(db),
        accounts: accountsRepo,
        listServers: () => serversRepo.list(),
        driverFor: (server) => servers.driverFor(server),
        notices,
        accountChanged: (accountId) => events.tell('account.changed', { accountId }),
        clock,
        log,
      }),
    };
  },
  jobs: ({ panelSync, clock }) => ({ [SYNC_PANEL_ACCOUNTS]: createSyncPanelAccountsHandler({ sync: panelSync, clock }) }),
  periodicJobs: [SYNC_PANEL_ACCOUNTS],
});
