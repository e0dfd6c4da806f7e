import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/knex.js';
import { cleanupPanelUserJob } from './cleanup-panel-user.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import { addSeconds, type Clock } from '../../lib/clock.js';
import type { PanelAccount } from '../../panels/panel-driver.js';
import type { ServerRecord, ServersService } from '../servers/index.js';
import type { AccountsRepo, StuckAccount } from './accounts.repo.js';
import { provisionedFields } from './provisioning.js';

/**
 * A waiting row untouched for this long has lost the request or process that was provisioning it. A
 * live one records its intent before every panel call, and each call times out after about 10 s, so
 * five minutes is far beyond any request still at work.
 */
export const DEFAULT_STUCK_AFTER_SECONDS = 300;
/** How often the sweep looks for stuck rows. */
export const DEFAULT_SWEEP_INTERVAL_SECONDS = 60;
/** Rows looked at per pass; a full pass that changed something is followed by another at once. */
export const SWEEP_BATCH_SIZE = 200;

export interface SweepResult {
  adopted: number;
  removed: number;
  /** Rows left for a later pass because their panel did not answer, one line per server. */
  deferred: string[];
  /** The batch was full: more rows may be waiting. */
  more: boolean;
}

/**
 * Nothing stuck after a crash: trial, free and admin-made accounts are provisioned in the request, so
 * a crash (or a lost database write) can leave their row `suspended`, with the trial claimed, and maybe
 * a panel user carrying our marker. For each such row older than the threshold, with no payment waiting
 * on it (paid rows belong to their provisioning job), the sweep asks the server the row recorded
 * before its panel call:
 * - the user is there with our marker → adopt it: the row becomes the account (and the trial is used);
 * - it is not (or no server was ever recorded, or the server is gone) → delete the row, which gives the
 *   trial back; a cleanup job still removes a marker user that might show up there later;
 * - the panel does not answer → leave the row untouched for the next pass.
 * Every write is conditional on the row still being stuck with the same intent, so several app
 * instances, and a request that comes back to life, can never be undone by it.
 */
export function createStuckAccountsSweep(deps: {
  db: Db;
  accounts: AccountsRepo;
  servers: ServersService;
  jobs: JobsRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  stuckAfterSeconds: number;
  /** A trial was marked used behind the users repository: caches of that profile let go. */
  userChanged(userId: string): void;
}) {
  const { accounts, clock } = deps;

  async function remove(account: StuckAccount, server: ServerRecord | undefined, cutoff: Date, reason: string): Promise<boolean> {
    return deps.db.transaction(async (trx) => {
      const now = clock();
      if (!(await accounts.removeStuck(account, cutoff, trx))) return false;
      if (server) await deps.jobs.enqueue(cleanupPanelUserJob({ serverId: server.id, username: account.username, marker: account.id }, now), now, trx);
      await accounts.insertLog(
        {
          accountId: account.id,
          userId: account.userId,
          step: 'stuck_account_removed',
          status: 'success',
          details: { serverId: server?.id ?? null, username: account.username, reason, trial: account.trialUserId !== null },
          now,
        },
        trx,
      );
      return true;
    });
  }

  async function adopt(account: StuckAccount, server: ServerRecord, panelAccount: PanelAccount, cutoff: Date): Promise<boolean> {
    const fields = provisionedFields({ server, username: account.username, panelAccount });
    const adopted = await deps.db.transaction(async (trx) => {
      const now = clock();
      if (!(await accounts.adoptStuck(account, fields, cutoff, now, trx))) return false;
      await accounts.insertLog(
        {
          accountId: account.id,
          userId: account.userId,
          step: 'stuck_account_adopted',
          status: 'success',
          details: { serverId: server.id, username: account.username, trial: account.trialUserId !== null },
          now,
        },
        trx,
      );
      return true;
    });
    if (adopted && account.trialUserId) deps.userChanged(account.trialUserId);
    return adopted;
  }

  /** The user the row's last intent may have created, if it is ours; throws when the panel does not answer. */
  async function findOurUser(account: StuckAccount, server: ServerRecord): Promise<PanelAccount | null> {
    const driver = deps.servers.driverFor(server);
    const found = await driver.getAccount(account.username);
    if (!found || found.note !== account.id) return null;
    if (found.links) return found;
    try {
      return (await driver.getAccount(account.username, { withLinks: true })) ?? found;
    } catch {
      return found; // the links are filled in by the next usage refresh
    }
  }

  return {
    async sweep(): Promise<SweepResult> {
      const cutoff = addSeconds(clock(), -deps.stuckAfterSeconds);
      const stuck = await accounts.listStuck(cutoff, SWEEP_BATCH_SIZE);
      const result: SweepResult = { adopted: 0, removed: 0, deferred: [], more: stuck.length === SWEEP_BATCH_SIZE };
      // A panel that failed once in this pass is not asked again (each try may cost a full timeout).
      const unanswered = new Map<string, { server: ServerRecord; rows: number; message: string }>();
      for (const account of stuck) {
        const server = account.provisioningServerId ? await deps.servers.findServerRecord(account.provisioningServerId) : undefined;
        if (!server) {
          // No panel was ever called for it (the intent is written before the call), or its server was deleted.
          if (await remove(account, undefined, cutoff, account.provisioningServerId ? 'server deleted' : 'no panel call recorded')) result.removed += 1;
          continue;
        }
        const failed = unanswered.get(server.id);
        if (failed) {
          failed.rows += 1;
          continue;
        }
        let ours: PanelAccount | null;
        try {
          ours = await findOurUser(account, server);
        } catch (err) {
          unanswered.set(server.id, { server, rows: 1, message: err instanceof Error ? err.message : String(err) });
          continue;
        }
        if (ours ? await adopt(account, server, ours, cutoff) : await remove(account, server, cutoff, 'no panel user')) {
          if (ours) result.adopted += 1;
          else result.removed += 1;
        }
      }
      for (const { server, rows, message } of unanswered.values()) {
        result.deferred.push(`${server.name}: ${rows} stuck account(s) left for the next pass (${message})`);
      }
      if (result.adopted + result.removed + result.deferred.length > 0) deps.log.info({ ...result }, 'sweep of stuck accounts');
      return result;
    },
  };
}

export type StuckAccountsSweep = ReturnType<typeof createStuckAccountsSweep>;
