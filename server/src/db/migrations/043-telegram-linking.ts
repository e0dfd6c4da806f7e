import type { Knex } from 'knex';

/**
 * Linking a Telegram user to a customer (issue 54). `telegram_link_tokens`: the one-time links the dashboard hands
 * out (`t.me/<bot>?start=link_<token>`), kept as the token's SHA-256, good for a quarter of an hour and once.
 * `telegram_chats.awaiting` / `awaiting_email`: where a person is in linking by e-mail code inside the bot (asked for
 * their address, then for the code sent to it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('telegram_link_tokens', (t) => {
    // An id of its own, as every table the retention purge deletes from in batches has.
    t.increments('id').primary();
    t.string('token_hash', 64).notNullable().unique();
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
    t.index(['user_id']);
  });
  await knex.schema.alterTable('telegram_chats', (t) => {
    t.string('awaiting', 16).nullable();
    t.string('awaiting_email', 254).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('telegram_chats', (t) => {
    t.dropColumn('awaiting_email');
    t.dropColumn('awaiting');
  });
  await knex.schema.dropTable('telegram_link_tokens');
}
