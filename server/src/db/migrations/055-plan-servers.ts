import type { Knex } from 'knex';

/**
 * Locations per plan (issue 55): `plan_servers`, the servers a plan's accounts may use, each with the squads, groups,
 * services or inbounds they get there (`service_id`; null: the server's own). A plan with no rows uses every server
 * that covers its location codes, as before. `masterservers.premium`: a server only the plans that list it may use.
 * A server a plan lists cannot be deleted (the admin is told which plans list it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plan_servers', (t) => {
    t.string('plan_id', 36).notNullable().references('id').inTable('plans').onDelete('CASCADE');
    t.string('server_id', 36).notNullable().references('id').inTable('masterservers');
    t.string('service_id', 400).nullable();
    t.integer('position').notNullable().defaultTo(0);
    t.primary(['plan_id', 'server_id']);
    t.index(['server_id']);
  });
  await knex.schema.alterTable('masterservers', (t) => {
    t.boolean('premium').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('masterservers', (t) => {
    t.dropColumn('premium');
  });
  await knex.schema.dropTable('plan_servers');
}
