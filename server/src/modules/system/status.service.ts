import type { StatusResponse } from '../../../../shared/status.js';
import type { Db } from '../../db/knex.js';
import type { Clock } from '../../lib/clock.js';
import type { ServersRepo } from '../servers/servers.repo.js';
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
        regions: regions.map((r) => ({ name: r.name, locations: r.locations, status: r.active && r.health !== 'down' ? 'up' : 'down' })),
        checkedAt: deps.clock().toISOString(),
      };
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
