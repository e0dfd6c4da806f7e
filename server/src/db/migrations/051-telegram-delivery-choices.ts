import type { Knex } from 'knex';

/**
 * How a linked customer is told things (issue 54), kept on their Telegram chat: `notices_by_email` (false: billing
 * notices only by Telegram while the bot can reach them) and `codes_by_telegram` (sign-in codes also to the chat).
 * `choices_user_id` is the customer who made them: a chat linked to someone else later starts from the defaults
 * instead of carrying the choices of the customer before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('telegram_chats', (t) => {
    t.boolean('notices_by_email').notNullable().defaultTo(true);
    t.boolean('codes_by_telegram').notNullable().defaultTo(false);
    t.string('choices_user_id', 36).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('telegram_chats', (t) => {
    t.dropColumn('choices_user_id');
    t.dropColumn('codes_by_telegram');
    t.dropColumn('notices_by_email');
  });
}
