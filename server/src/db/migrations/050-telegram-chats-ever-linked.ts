import type { Knex } from 'knex';

/**
 * Whether a Telegram user was ever linked to a customer (issue 54): one who was is not made a new customer without an
 * e-mail (and so a second free trial) by unlinking first; they link their account again instead.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('telegram_chats', (t) => {
    t.boolean('ever_linked').notNullable().defaultTo(false);
  });
  await knex('telegram_chats').whereNotNull('user_id').update({ ever_linked: true });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('telegram_chats', (t) => {
    t.dropColumn('ever_linked');
  });
}
