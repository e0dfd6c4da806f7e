import type { Db } from '../../db/knex.js';
import { toDate } from '../../db/values.js';
import type { Clock } from '../../lib/clock.js';
import type { ServersRepo } from '../servers/index.js';

/** What a panel's health checks (modules/servers/server-health.ts) last found. */
export interface PanelReading {
  id: string;
  name: string;
  /** null: not checked yet. */
  up: boolean | null;
  /** The last successful check's time; null after a failure or before the first check. */
  latencyMs: number | null;
}

/**
 * The figures the gauges read when Prometheus scrapes, each an index range or a primary-key read, so a scrape
 * stays fast with a million customers: the job queue by (status, run_at), the active accounts from the counter
 * the database keeps (overview_counts, migration 025), the panels from their rows (a few).
 */
export function createScrapeReadings(deps: { db: Db; servers: ServersRepo; clock: Clock }) {
  const { db, clock } = deps;
  /** Two gauges read the panels in one scrape: one read serves both, forgotten when the next scrape starts. */
  let panels: Promise<PanelReading[]> | undefined;

  /** How many jobs of `status` (due ones only, with `dueBy`): a range of the (status, run_at) index. */
  async function countJobs(status: string, dueBy?: Date): Promise<number> {
    const query = db('jobs').where('status', status);
    if (dueBy) query.where('run_at', '<=', dueBy);
    const row: { count?: number | string } | undefined = await query.count({ count: '*' }).first();
    return Number(row?.count ?? 0);
  }

  async function readPanels(): Promise<PanelReading[]> {
    const servers = await deps.servers.list();
    return servers
      .filter((server) => server.status === 'active')
      .map((server) => ({
        id: server.id,
        name: server.name,
        up: server.health.state === 'unknown' ? null : server.health.state === 'up',
        latencyMs: server.health.latencyMs,
      }));
  }

  return {
    async jobQueue(): Promise<{ due: number; running: number; failed: number }> {
      const now = clock();
      const [due, running, failed] = await Promise.all([countJobs('queued', now), countJobs('running'), countJobs('failed')]);
      return { due, running, failed };
    },
    async oldestDueJobAgeSeconds(): Promise<number> {
      const now = clock();
      const oldest = await db<{ run_at: unknown; status: string }>('jobs')
        .select('run_at')
        .where('status', 'queued')
        .where('run_at', '<=', now)
        .orderBy('run_at')
        .first();
      if (!oldest) return 0;
      return Math.max(0, (now.getTime() - toDate(oldest.run_at).getTime()) / 1000);
    },
    async activeAccounts(): Promise<number> {
      const row = await db<{ value: number | string; metric: string; day: string; currency: string }>('overview_counts')
        .select('value')
        .where({ metric: 'active_accounts', day: '', currency: '' })
        .first();
      return Number(row?.value ?? 0);
    },
    /** A scrape begins: what the last one read is stale. */
    startScrape(): void {
      panels = undefined;
    },
    panels(): Promise<PanelReading[]> {
      panels ??= readPanels();
      return panels;
    },
  };
}

export type ScrapeReadings = ReturnType<typeof createScrapeReadings>;
