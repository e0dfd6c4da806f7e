import type { Knex } from 'knex';

/**
 * A stored `/sub` configuration kept in the form it is served (issue 27): a cold request then sends it without
 * parsing the panel's answer again. `placeholder` says whether the panel gave its inactive-user placeholder;
 * null marks a row stored before this migration, whose `body` is the panel's answer as it came (read as before).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscription_copies', (t) => {
    t.boolean('placeholder').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscription_copies', (t) => {
    t.dropColumn('placeholder');
  });
}
