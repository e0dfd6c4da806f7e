import type { Knex } from 'knex';

/**
 * The admin's broadcasts by Telegram (issue 54). `telegram_broadcasts`: one message to a segment of the bot's
 * people, with its counts. `telegram_broadcast_recipients`: who it goes to, fixed when it is made, each marked as it
 * goes (`sending` before the call to Telegram, `sent`, `blocked` or `failed` after), so a broadcast carries on after
 * a restart and nobody gets it twice: one left `sending` by a crash is not sent again (`interrupted`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('telegram_broadcasts', (t) => {
    t.string('id', 36).primary();
    t.text('text').notNullable();
    t.string('audience', 16).notNullable();
    t.string('locale', 8).nullable();
    t.string('status', 16).notNullable();
    t.integer('total').notNullable();
    t.string('created_by', 36).nullable().references('id').inTable('user_profiles').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.index(['created_at']);
  });
  await knex.schema.createTable('telegram_broadcast_recipients', (t) => {
    t.string('broadcast_id', 36).notNullable().references('id').inTable('telegram_broadcasts').onDelete('CASCADE');
    t.bigInteger('telegram_id').notNullable();
    t.string('status', 16).notNullable();
    t.timestamp('updated_at', { useTz: true }).nullable();
    t.primary(['broadcast_id', 'telegram_id']);
    t.index(['broadcast_id', 'status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('telegram_broadcast_recipients');
  await knex.schema.dropTable('telegram_broadcasts');
}
