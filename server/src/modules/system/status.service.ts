import type { StatusResponse } from '../../../../shared/status.js';
import type { Db } from '../../db/knex.js';
import type { Clock } from '../../lib/clock.js';
import type { ServersRepo } from '../servers/index.js';
import { publicRegionName } from '../servers/index.js';
import { pingDatabase } from './health.routes.js';

/** Public service status: the site (answering), the database, and each panel region's live health. */
export function createStatusService(deps: { db: Db; servers: ServersRepo; clock: Clock }) {
  return {
    async getStatus(): Promise<StatusResponse> {
      const database = await pingDatabase(deps.db);
      const regions = database ? await deps.servers.listRegions().catch(() => []) : [];
      return {
        site: 'up',
        database: database ? 'up' : 'down',
        // A disabled server, or one its health checks found down, is down; one not checked yet passed its credential test when enabled.
        // Unnamed servers are numbered in the order they were added; the list reads alphabetically.
        regions: regions
          .map((r, index) => ({
            ...publicRegionName(r.publicName, index + 1, r.publicNameTranslations),
            locations: r.locations,
            status: r.active && r.health !== 'down' ? ('up' as const) : ('down' as const),
          }))
          .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true })),
        checkedAt: deps.clock().toISOString(),
      };
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
