import type { FastifyBaseLogger } from 'fastify';
import { warnExpiringTokens } from './token-expiry.js';
import pLimit from 'p-limit';
import { HEALTH_FAILURES_TO_DOWN } from '../../../../shared/servers.js';
import type { Db } from '../../db/knex.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import type { Clock } from '../../lib/clock.js';
import type { PanelDriver } from '../../panels/panel-driver.js';
import type { ServerRecord, ServersRepo } from './servers.repo.js';
import { withTimeout } from '../../lib/with-timeout.js';

/**
 * Every enabled server is checked once a minute, a few at a time, each check given at most 15 s; after
 * a first failure the next pass comes 20 s later, so a server that stopped is reported down within
 * 60 + 20 + 15 s at worst.
 */
export const HEALTH_CHECKS = { intervalSeconds: 60, recheckSeconds: 20, timeoutMs: 15_000, concurrency: 4 } as const;

/** Sends the admins one "server down" / "server back up" e-mail (send-server-health-email.ts). */
export const SEND_SERVER_HEALTH_EMAIL = 'send_server_health_email';

export interface ServerHealthNotice {
  serverId: string;
  state: 'up' | 'down';
  /** When the state changed. */
  at: string;
}

export interface HealthPass {
  checked: number;
  up: number;
  down: number;
  /** Failed this time but not down yet: worth checking again soon. */
  failing: number;
  /** Servers whose state changed in this pass, as `name: up|down`. */
  changed: string[];
}

/**
 * Live panel health: logs in to each enabled server (the driver's credential test, which also checks
 * that this panel admin may still provision) and records the latency or the error. DOWN after
 * HEALTH_FAILURES_TO_DOWN failures in a row, UP after one check that answers. Each change of state is
 * written by one conditional update with its e-mail job in the same transaction, so racing checks or a
 * crash between the two can neither lose the mail nor send it twice. Down servers are skipped for new
 * accounts and checkout (provisioning.ts) and shown as down on the public status page.
 */
export function createServerHealth(deps: {
  db: Db;
  servers: ServersRepo;
  driverFor(server: ServerRecord): PanelDriver;
  jobs: JobsRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  timeoutMs?: number;
}) {
  const { db, servers, jobs, clock } = deps;
  const timeoutMs = deps.timeoutMs ?? HEALTH_CHECKS.timeoutMs;

  async function notify(server: ServerRecord, state: 'up' | 'down', now: Date, trx: Db): Promise<void> {
    const notice: ServerHealthNotice = { serverId: server.id, state, at: now.toISOString() };
    await jobs.enqueue(
      { type: SEND_SERVER_HEALTH_EMAIL, payload: notice, dedupeKey: `${SEND_SERVER_HEALTH_EMAIL}:${server.id}:${state}:${notice.at}`, maxAttempts: 200 },
      now,
      trx,
    );
  }

  /** Checks one server; returns its state after the check, and whether this check changed it. */
  async function check(server: ServerRecord): Promise<{ state: 'up' | 'down' | 'failing'; changed: boolean }> {
    const started = performance.now();
    let failure: string | null = null;
    try {
      await withTimeout(deps.driverFor(server).testConnection(), timeoutMs);
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
    const latencyMs = Math.round(performance.now() - started);
    const now = clock();
    return db.transaction(async (trx) => {
      if (failure === null) {
        const { recovered } = await servers.recordCheckSuccess(server.id, latencyMs, now, trx);
        if (recovered) await notify(server, 'up', now, trx);
        return { state: 'up' as const, changed: recovered };
      }
      const { wentDown } = await servers.recordCheckFailure(server.id, failure, HEALTH_FAILURES_TO_DOWN, now, trx);
      if (wentDown) await notify(server, 'down', now, trx);
      const down = wentDown || server.health.state === 'down';
      return { state: down ? ('down' as const) : ('failing' as const), changed: wentDown };
    });
  }

  return {
    /** One pass over every enabled server. */
    async checkAll(): Promise<HealthPass> {
      const enabled = (await servers.list()).filter((server) => server.status === 'active');
      // Tokens about to end are told as the checks run (once per threshold and token: the job's key).
      await warnExpiringTokens(jobs, enabled, clock());
      const limit = pLimit(HEALTH_CHECKS.concurrency);
      const results = await Promise.all(enabled.map((server) => limit(async () => ({ server, result: await check(server) }))));
      const changed = results.filter(({ result }) => result.changed).map(({ server, result }) => `${server.name}: ${result.state}`);
      for (const line of changed) deps.log.warn({ change: line }, 'panel server health changed');
      return {
        checked: results.length,
        up: results.filter(({ result }) => result.state === 'up').length,
        down: results.filter(({ result }) => result.state === 'down').length,
        failing: results.filter(({ result }) => result.state === 'failing').length,
        changed,
      };
    },
  };
}

export type ServerHealth = ReturnType<typeof createServerHealth>;
