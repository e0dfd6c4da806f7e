import type { Db } from '../../db/knex.js';

export interface ServerRegion {
  name: string;
  locations: string;
  active: boolean;
}

export function createServersRepo(db: Db) {
  return {
    /** Name, locations and state of every panel server: what the public may know (never the address). */
    async listRegions(): Promise<ServerRegion[]> {
      const rows = await db('masterservers').select('name', 'locations', 'status').orderBy('name');
      return rows.map((row) => ({ name: row.name, locations: row.locations, active: row.status === 'active' }));
    },
  };
}

export type ServersRepo = ReturnType<typeof createServersRepo>;
