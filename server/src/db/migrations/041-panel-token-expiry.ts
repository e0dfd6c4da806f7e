import type { Knex } from 'knex';

/**
 * When a panel's API token ends (issue 52): Remnawave 3.x tokens carry an end date the token itself cannot
 * read back, so the admin gives it with the server; they are warned 14 and 3 days before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('masterservers', (t) => {
    t.timestamp('token_expires_at', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('masterservers', (t) => {
    t.dropColumn('token_expires_at');
  });
}
