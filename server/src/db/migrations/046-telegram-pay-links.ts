import type { Knex } from 'knex';

/**
 * Paying on the site from the bot (issue 54). `telegram_pay_links`: the one-time links the bot hands a linked customer
 * (`PUBLIC_URL/pay/<token>`) that sign them in on the site and open the checkout for a plan (`plan_id`) or the renewal
 * of one of their accounts (`account_id`); kept as the token's SHA-256, good for a quarter of an hour and once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('telegram_pay_links', (t) => {
    // An id of its own, as every table the retention purge deletes from in batches has.
    t.increments('id').primary();
    t.string('token_hash', 64).notNullable().unique();
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    // What the checkout opens for: exactly one of the two. A plan deleted meanwhile leaves the link to a plan no longer on sale.
    t.string('plan_id', 36).nullable();
    t.string('account_id', 36).nullable().references('id').inTable('vpn_accounts').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('telegram_pay_links');
}
