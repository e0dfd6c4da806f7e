import type { Knex } from 'knex';

/** The region name the public status page shows for a server (its own name stays internal). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('masterservers', (t) => {
    t.string('public_name', 60).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('masterservers', (t) => {
    t.dropColumn('public_name');
  });
}
