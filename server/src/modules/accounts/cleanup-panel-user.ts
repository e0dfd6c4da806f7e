import { z } from 'zod';
import type { AccountsRepo } from './accounts.repo.js';
import type { ServersService } from '../servers/index.js';
import { addSeconds } from '../../lib/clock.js';
import type { EnqueueJob } from '../../jobs/jobs.repo.js';
import { PermanentJobError, RetryJobLater, type JobHandler } from '../../jobs/worker.js';

export const CLEANUP_PANEL_USER = 'cleanup_panel_user';
/** While a paid account still waits for its panel user, the clean-up waits too (the retry may adopt the user). */
const WAITING_ACCOUNT_RECHECK_SECONDS = 300;
/** A create that may have landed late is cleaned up after this long (time for the panel to finish). */
export const CLEANUP_DELAY_SECONDS = 30;
/** Waiting on an account counts as an attempt: enough for weeks of a paid account waiting on its panel. */
const CLEANUP_MAX_ATTEMPTS = 5000;

const Payload = z.object({ serverId: z.string(), username: z.string(), marker: z.string() });
export type CleanupPanelUserPayload = z.infer<typeof Payload>;

/** The clean-up of one (server, username): at most one job ever per pair. Enqueue it with `trx` to tie it to a change. */
export function cleanupPanelUserJob(payload: CleanupPanelUserPayload, now: Date): EnqueueJob {
  return {
    type: CLEANUP_PANEL_USER,
    payload,
    runAt: addSeconds(now, CLEANUP_DELAY_SECONDS),
    dedupeKey: `${CLEANUP_PANEL_USER}:${payload.serverId}:${payload.username}`,
    maxAttempts: CLEANUP_MAX_ATTEMPTS,
  };
}

/**
 * After a create the panel may have carried out after we gave up on it (a timeout, a 5xx), the
 * user is deleted again, but only if it carries our marker and no account uses it: the account row
 * named by the marker is gone, or was provisioned elsewhere. While that row still waits (a paid
 * account's provisioning job retries with the same username and adopts the user), the clean-up waits.
 * A panel that does not answer makes the job fail and retry later.
 */
export function createCleanupPanelUserHandler(deps: { servers: ServersService; accounts: AccountsRepo }): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad cleanup payload');
    const { serverId, username, marker } = parsed.data;
    const owner = await deps.accounts.findById(marker);
    if (owner?.status === 'suspended' && owner.subscriptionUrl === null) {
      throw new RetryJobLater('the account is still waiting for its panel user', WAITING_ACCOUNT_RECHECK_SECONDS);
    }
    if (owner && owner.masterServerId === serverId && owner.username === username) return;
    const server = await deps.servers.findServerRecord(serverId);
    if (!server) return;
    const driver = deps.servers.driverFor(server);
    const account = await driver.getAccount(username);
    if (account && account.note === marker) await driver.deleteAccount(username);
  };
}
