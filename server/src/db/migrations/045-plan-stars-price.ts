import type { Knex } from 'knex';

/**
 * A plan's price in Telegram Stars: whole Stars the bot sells it for, at most 10,000 (Telegram's cap);
 * null, as every plan starts, means it is not sold for Stars.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.integer('stars_price').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.dropColumn('stars_price');
  });
}
