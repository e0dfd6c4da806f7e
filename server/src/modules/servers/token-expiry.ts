/**
 * Panel API tokens that end (Remnawave 3.x tokens have an end date the token cannot read back; the admin gives
 * it with the server): the admins are e-mailed 14 and 3 days before, once each per token (the job's dedupe key
 * names the server, the threshold and the end), and System shows how many days are left.
 */
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import type { ServerRecord } from './servers.repo.js';
import { SEND_SERVER_HEALTH_EMAIL } from './server-health.js';
import { DAY_MS } from '../../../../shared/constants.js';

/** The days before a token ends on which the admins are warned, farthest first. */
export const TOKEN_WARNING_DAYS = [14, 3] as const;

/** Whole days until `expiresAt`, rounded up (0 or less: it has ended). */
export const tokenDaysLeft = (expiresAt: Date, now: Date) => Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS);

/** The nearest warning threshold reached, or null while the end is further than the first. */
export function tokenWarning(expiresAt: Date, now: Date): (typeof TOKEN_WARNING_DAYS)[number] | null {
  const left = tokenDaysLeft(expiresAt, now);
  const reached = TOKEN_WARNING_DAYS.filter((days) => left <= days);
  return reached.length > 0 ? reached[reached.length - 1]! : null;
}

/** Queues the warning of every enabled server whose token is within a threshold (each once, however often this runs). */
export async function warnExpiringTokens(jobs: JobsRepo, servers: readonly ServerRecord[], now: Date): Promise<number> {
  let queued = 0;
  for (const server of servers) {
    if (server.status !== 'active' || !server.tokenExpiresAt) continue;
    const threshold = tokenWarning(server.tokenExpiresAt, now);
    if (threshold === null) continue;
    const expiresAt = server.tokenExpiresAt.toISOString();
    await jobs.enqueue(
      {
        type: SEND_SERVER_HEALTH_EMAIL,
        payload: { serverId: server.id, state: 'token_expiring', at: expiresAt },
        dedupeKey: `${SEND_SERVER_HEALTH_EMAIL}:${server.id}:token${threshold}:${expiresAt}`,
        maxAttempts: 200,
      },
      now,
    );
    queued += 1;
  }
  return queued;
}
