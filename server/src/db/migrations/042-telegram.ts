import type { Knex } from 'knex';

/**
 * The Telegram bot (issue 54). `telegram_chats`: each Telegram user who wrote to the bot, by their Telegram id, with
 * the language they chose there (null: their Telegram app's), the customer they are linked to once linked, and when
 * they blocked the bot (nothing is sent to them then). `telegram_updates`: the updates handled, by bot and update
 * id, so an update Telegram sends twice (a webhook retried, a poll repeated after a restart) is handled once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('telegram_chats', (t) => {
    t.bigInteger('telegram_id').primary();
    t.string('user_id', 36).nullable().unique().references('id').inTable('user_profiles').onDelete('SET NULL');
    t.string('username', 64).nullable();
    t.string('first_name', 128).nullable();
    t.string('language_code', 35).nullable();
    t.string('locale', 8).nullable();
    t.timestamp('blocked_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('telegram_updates', (t) => {
    // An id of its own, as every table the retention purge deletes from in batches has.
    t.increments('id').primary();
    t.bigInteger('bot_id').notNullable();
    t.bigInteger('update_id').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.unique(['bot_id', 'update_id']);
    t.index(['received_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('telegram_updates');
  await knex.schema.dropTable('telegram_chats');
}
