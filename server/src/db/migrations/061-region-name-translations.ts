import type { Knex } from 'knex';

/**
 * Region names in the customers' languages (issue 57): a server's public region name ("Germany") as the operator
 * writes it in Russian, Persian and Chinese, one row per server and language. A language without a row shows the
 * name as written. A table of its own: the servers' rows, read by every check and checkout, do not grow for it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('region_name_translations', (t) => {
    t.string('server_id', 36).notNullable().references('id').inTable('masterservers').onDelete('CASCADE');
    t.string('locale', 8).notNullable();
    t.string('name', 60).notNullable();
    t.primary(['server_id', 'locale']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('region_name_translations');
}
