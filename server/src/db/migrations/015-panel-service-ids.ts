import type { Knex } from 'knex';

/**
 * A server's service field holds several comma-separated ids for Remnawave (internal squad UUIDs) and
 * PasarGuard (group ids): room for up to ten UUIDs. SQLite does not enforce lengths.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') await knex.raw('ALTER TABLE masterservers ALTER COLUMN service_id TYPE varchar(400)');
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') await knex.raw('ALTER TABLE masterservers ALTER COLUMN service_id TYPE varchar(64)');
}
