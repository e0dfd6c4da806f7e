import type { FastifyBaseLogger } from 'fastify';
import { ACCOUNT_MESSAGES } from '../../../../shared/accounts.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { PanelError, type PanelAccount, type PanelDriver } from '../../panels/panel-driver.js';
import type { ServerRecord } from '../servers/servers.repo.js';
import type { ServersService } from '../servers/servers.service.js';
import { generateUsername, serverCovers } from './account-values.js';
import type { AccountsRepo, ProvisionedFields } from './accounts.repo.js';
import type { CleanupPanelUserPayload } from '../../jobs/handlers/cleanup-panel-user.js';

const USERNAME_TRIES = 3;

/** The configuration links of a new account, when the panel's create answer lacks them (best effort). */
async function withLinks(driver: PanelDriver, account: PanelAccount): Promise<PanelAccount> {
  try {
    return (await driver.getAccount(account.username, { withLinks: true })) ?? account;
  } catch {
    return account;
  }
}

export interface ProvisionRequest {
  accountId: string;
  userId: string;
  username: string;
  dataLimitBytes: number | null;
  expiresAt: Date | null;
}

export interface Provisioned {
  server: ServerRecord;
  username: string;
  panelAccount: PanelAccount;
}

/** What a provisioned account's row keeps of the panel's answer. */
export function provisionedFields(result: Provisioned): ProvisionedFields {
  return {
    masterServerId: result.server.id,
    username: result.username,
    status: result.panelAccount.status,
    subscriptionUrl: result.panelAccount.subscriptionUrl,
    expireDate: result.panelAccount.expiresAt,
    dataLimitBytes: result.panelAccount.dataLimitBytes ?? 0,
    links: result.panelAccount.links ?? [],
    usedTrafficBytes: result.panelAccount.usedTrafficBytes,
  };
}

/**
 * Creates the panel user for an account row: on the first server that answers, taking servers in
 * the spec's order, with a new username when the panel has the name already; every step is logged
 * (never a password or token).
 */
export function createProvisioner(deps: {
  accounts: AccountsRepo;
  servers: ServersService;
  clock: Clock;
  log: FastifyBaseLogger;
  scheduleCleanup(payload: CleanupPanelUserPayload): Promise<void>;
}) {
  const { accounts, clock } = deps;
  const logStep = (request: ProvisionRequest, step: string, status: 'success' | 'failure', details: Record<string, unknown>) =>
    accounts.insertLog({ accountId: request.accountId, userId: request.userId, step, status, details, now: clock() });

  return {
    /** Active servers whose locations cover the plan's, most recently checked first (spec section 7). */
    async candidateServers(planLocations: string): Promise<ServerRecord[]> {
      const all = await deps.servers.listServerRecords();
      return all
        .filter((server) => server.status === 'active' && serverCovers(server.locations, planLocations))
        .sort((a, b) => (b.lastCheck?.getTime() ?? 0) - (a.lastCheck?.getTime() ?? 0));
    },

    async provision(request: ProvisionRequest, candidates: ServerRecord[]): Promise<Provisioned> {
      if (candidates.length === 0) {
        await logStep(request, 'select_server', 'failure', { reason: 'no active server covers the plan locations' });
        throw new AppError(503, 'service_unavailable', ACCOUNT_MESSAGES.serviceUnavailable);
      }
      let username = request.username;
      for (const server of candidates) {
        const driver = deps.servers.driverFor(server);
        for (let attempt = 1; attempt <= USERNAME_TRIES; attempt += 1) {
          try {
            const created = await driver.createAccount({ username, dataLimitBytes: request.dataLimitBytes, expiresAt: request.expiresAt, note: request.accountId });
            await logStep(request, 'create_panel_user', 'success', { serverId: server.id, server: server.name, username });
            return { server, username, panelAccount: created.links ? created : await withLinks(driver, created) };
          } catch (err) {
            const kind = err instanceof PanelError ? err.kind : 'unexpected';
            const message = err instanceof Error ? err.message : String(err);
            await logStep(request, 'create_panel_user', 'failure', { serverId: server.id, server: server.name, username, kind, message });
            if (kind === 'conflict') {
              username = generateUsername();
              await accounts.renameUsername(request.accountId, username, clock());
              continue;
            }
            if (!(err instanceof PanelError)) throw err;
            if (err.kind === 'timeout' || err.kind === 'server_error') {
              // The panel may have created the user anyway: have it removed once the panel answers.
              await deps.scheduleCleanup({ serverId: server.id, username, marker: request.accountId });
            }
            if (err.kind === 'rejected' || err.kind === 'invalid_response') {
              throw new AppError(502, 'panel_error', ACCOUNT_MESSAGES.customFailed);
            }
            deps.log.warn({ serverId: server.id, kind, message }, 'panel unavailable for provisioning; trying the next server');
            break;
          }
        }
      }
      throw new AppError(503, 'service_unavailable', ACCOUNT_MESSAGES.serviceUnavailable);
    },
  };
}

export type Provisioner = ReturnType<typeof createProvisioner>;
