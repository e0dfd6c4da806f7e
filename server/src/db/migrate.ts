import type { Knex } from 'knex';
import type { Db } from './knex.js';
import * as initial from './migrations/001-initial.js';
import * as trialClaims from './migrations/002-trial-claims.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Migrations are listed here, in order, so they load the same from source and from the build. */
const MIGRATIONS: Array<readonly [name: string, migration: Migration]> = [
  ['001-initial', initial],
  ['002-trial-claims', trialClaims],
];

const source: Knex.MigrationSource<readonly [string, Migration]> = {
  getMigrations: async () => MIGRATIONS,
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};

export async function migrateToLatest(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource: source });
}
