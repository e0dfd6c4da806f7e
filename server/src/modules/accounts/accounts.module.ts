import type { Configured } from '../settings/index.js';
import type { serversModule } from '../servers/index.js';
import { defineModule, route, type Provided } from '../module.js';
import { accountsRoutes, adminAccountsRoutes } from './accounts.routes.js';
import { createAccountsService } from './accounts.service.js';
import { createAdminAccountActions } from './admin-account-actions.js';
import { adminAccountActionsRoutes } from './admin-account-actions.routes.js';
import { CLEANUP_PANEL_USER, cleanupPanelUserJob, createCleanupPanelUserHandler } from './cleanup-panel-user.js';
import { createProvisioner } from './provisioning.js';
import { createStuckAccountsSweep } from './stuck-accounts.js';
import { createSweepStuckAccountsHandler, SWEEP_STUCK_ACCOUNTS } from './sweep-stuck-accounts.js';

/**
 * VPN accounts: made on a panel (the provisioner), the customer's list and trial, the admin's actions, and the
 * sweep of accounts left half-made. Deleting one tells the others first (`account.deleting`: billing closes what
 * renews it).
 */
export const accountsModule = defineModule({
  name: 'accounts',
  build(deps: Configured & Provided<typeof serversModule>) {
    const { db, config, clock, log, events, jobs, accountsRepo, servers } = deps;
    const provisioner = createProvisioner({
      accounts: accountsRepo,
      servers,
      clock,
      log,
      scheduleCleanup: async (payload) => {
        await jobs.enqueue(cleanupPanelUserJob(payload, clock()), clock());
      },
    });
    const userChanged = (userId: string) => events.tell('user.changed', { userId });
    const accounts = createAccountsService({
      db,
      accounts: accountsRepo,
      plans: deps.plansRepo,
      users: deps.usersRepo,
      servers,
      settings: deps.settings,
      provisioner,
      clock,
      log,
      publicUrl: config.publicUrl,
      closeOpenCheckouts: (accountId) => events.emit('account.deleting', { accountId }),
      userChanged,
      serversVersion: () => deps.changeSignal.version(),
      plansVersion: () => deps.changeSignal.version(),
      commitToken: deps.commitToken,
    });
    return {
      provisioner,
      accounts,
      adminAccountActions: createAdminAccountActions({
        accounts: accountsRepo,
        accountsService: accounts,
        users: deps.usersRepo,
        servers,
        audit: deps.audit,
        clock,
        accountChanged: (accountId) => events.tell('account.changed', { accountId }),
      }),
      stuckAccounts: createStuckAccountsSweep({
        db,
        accounts: accountsRepo,
        servers,
        jobs,
        clock,
        log,
        stuckAfterSeconds: config.stuckAccounts.afterSeconds,
        userChanged,
      }),
    };
  },
  routes: ({ accounts, adminAccountActions }) => [
    route(accountsRoutes, { accounts }),
    route(adminAccountsRoutes, { accounts }),
    route(adminAccountActionsRoutes, { actions: adminAccountActions }),
  ],
  jobs: ({ config, clock, servers, accountsRepo, stuckAccounts }) => ({
    [CLEANUP_PANEL_USER]: createCleanupPanelUserHandler({ servers, accounts: accountsRepo }),
    [SWEEP_STUCK_ACCOUNTS]: createSweepStuckAccountsHandler({ sweep: stuckAccounts, clock, intervalSeconds: config.stuckAccounts.sweepIntervalSeconds }),
  }),
  periodicJobs: [SWEEP_STUCK_ACCOUNTS],
});

/** What the modules after accounts may use. */
export type WithAccounts = Configured & Provided<typeof serversModule> & Provided<typeof accountsModule>;
