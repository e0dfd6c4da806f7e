import type { FastifyBaseLogger } from 'fastify';
import { ACCOUNT_MESSAGES } from '../../../../shared/accounts.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { crashPoint } from '../../lib/crash-points.js';
import { PanelError, type PanelAccount, type PanelDriver } from '../../panels/panel-driver.js';
import type { ServerRecord, ServersService } from '../servers/index.js';
import { planAllowsServer, type PlanPlacement, type PlanServer } from '../../../../shared/plan-servers.js';
import { generateUsername } from './account-values.js';
import type { AccountsRepo, ProvisionedFields } from './accounts.repo.js';
import type { CleanupPanelUserPayload } from './cleanup-panel-user.js';
import { panelUsage } from './panel-values.js';

const USERNAME_TRIES = 3;
/** Create failures after which the user may exist on the panel all the same (no answer, a 5xx, an answer we could not read). */
const MAY_HAVE_CREATED = new Set<string>(['timeout', 'server_error', 'invalid_response', 'unexpected']);

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
  /** The plan's servers with their squads or groups (shared/plan-servers.ts); on one it does not list, the server's own. */
  planServers?: PlanServer[];
  /**
   * The server an earlier attempt recorded before it stopped (a crash, a job retry): tried first with
   * the same username, so the user it may have created is adopted (our marker is in its note).
   */
  resumeServerId?: string | null;
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
    subscriptionUrl: result.panelAccount.subscriptionUrl,
    ...panelUsage(result.panelAccount, []),
  };
}

/** The candidates with the server an earlier attempt used moved to the front. */
function resumeFirst(candidates: ServerRecord[], resumeServerId: string | null | undefined): ServerRecord[] {
  const index = candidates.findIndex((server) => server.id === resumeServerId);
  return index <= 0 ? candidates : [candidates[index]!, ...candidates.slice(0, index), ...candidates.slice(index + 1)];
}

/** The row no longer waits (the sweep of stuck accounts removed it): nothing may be created for it. */
export class AccountNoLongerWaiting extends Error {
  constructor(accountId: string) {
    super(`Account ${accountId} no longer waits for its panel user`);
    this.name = 'AccountNoLongerWaiting';
  }
}

/**
 * Creates the panel user for an account row: on the first server that answers, taking servers in
 * the spec's order, with a new username when the panel has the name already; every step is logged
 * (never a password or token). Before each create the row records the server and username (intent
 * before side effect), so that after a crash the sweep or the job's next attempt knows where to look.
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
    /**
     * Active servers the plan may use (those it lists, else those that cover its locations and are not premium), most
     * recently checked first (spec section 7).
     */
    async candidateServers(plan: PlanPlacement): Promise<ServerRecord[]> {
      const all = await deps.servers.listServerRecords();
      return (
        all
          // A server its health checks found down is skipped until it answers again (modules/servers/server-health.ts).
          .filter((server) => server.status === 'active' && server.health.state !== 'down' && planAllowsServer(plan, server))
          .sort((a, b) => (b.lastCheck?.getTime() ?? 0) - (a.lastCheck?.getTime() ?? 0))
      );
    },

    async provision(request: ProvisionRequest, candidates: ServerRecord[]): Promise<Provisioned> {
      if (candidates.length === 0) {
        await logStep(request, 'select_server', 'failure', { reason: 'no active server covers the plan locations' });
        throw new AppError(503, 'service_unavailable', ACCOUNT_MESSAGES.serviceUnavailable);
      }
      let username = request.username;
      if (request.resumeServerId) {
        // A user an earlier attempt left there is adopted below, or removed once the account exists elsewhere.
        await deps.scheduleCleanup({ serverId: request.resumeServerId, username, marker: request.accountId });
      }
      for (const server of resumeFirst(candidates, request.resumeServerId)) {
        const driver = deps.servers.driverFor(server);
        for (let attempt = 1; attempt <= USERNAME_TRIES; attempt += 1) {
          if (!(await accounts.recordIntent(request.accountId, { serverId: server.id, username }, clock()))) {
            throw new AccountNoLongerWaiting(request.accountId);
          }
          await crashPoint('provision:before-create');
          let created: PanelAccount;
          try {
            const serviceId = request.planServers?.find((listed) => listed.serverId === server.id)?.serviceId ?? undefined;
            created = await driver.createAccount({
              username,
              dataLimitBytes: request.dataLimitBytes,
              expiresAt: request.expiresAt,
              note: request.accountId,
              ...(serviceId ? { serviceId } : {}),
            });
          } catch (err) {
            const kind = err instanceof PanelError ? err.kind : 'unexpected';
            const message = err instanceof Error ? err.message : String(err);
            await logStep(request, 'create_panel_user', 'failure', { serverId: server.id, server: server.name, username, kind, message });
            if (kind === 'conflict') {
              username = generateUsername(); // recorded with the next attempt's intent
              continue;
            }
            if (MAY_HAVE_CREATED.has(kind)) {
              // The panel may have created the user anyway: have it removed once the panel answers.
              await deps.scheduleCleanup({ serverId: server.id, username, marker: request.accountId });
            }
            if (!(err instanceof PanelError)) throw err;
            if (err.kind === 'rejected' || err.kind === 'invalid_response') {
              throw new AppError(502, 'panel_error', ACCOUNT_MESSAGES.customFailed);
            }
            deps.log.warn({ serverId: server.id, kind, message }, 'panel unavailable for provisioning; trying the next server');
            break;
          }
          // From here on the panel user exists: nothing may throw it away (the log is best effort).
          await crashPoint('provision:after-create');
          await logStep(request, 'create_panel_user', 'success', { serverId: server.id, server: server.name, username }).catch((err: unknown) => {
            deps.log.warn({ accountId: request.accountId, err: err instanceof Error ? err.message : err }, 'could not log the panel user just created');
          });
          return { server, username, panelAccount: created.links ? created : await withLinks(driver, created) };
        }
      }
      throw new AppError(503, 'service_unavailable', ACCOUNT_MESSAGES.serviceUnavailable);
    },

    /**
     * A panel user was created but its row could not be saved: a cleanup job deletes it from the panel
     * once the row is gone (while the row still waits, the job waits too, and the sweep may adopt it).
     */
    async releaseCreated(accountId: string, created: Provisioned): Promise<void> {
      await deps.scheduleCleanup({ serverId: created.server.id, username: created.username, marker: accountId });
    },
  };
}

export type Provisioner = ReturnType<typeof createProvisioner>;
