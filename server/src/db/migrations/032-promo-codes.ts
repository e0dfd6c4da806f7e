import type { Knex } from 'knex';

/**
 * Promo codes and their redemptions. A redemption is written with the checkout's transaction, in the same
 * database transaction, while the code's row is held: whether it still counts against the code's uses
 * follows from its transaction's status (an expired, cancelled or failed checkout gives its use back), so
 * no counter is kept anywhere.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('promo_codes', (t) => {
    t.string('id', 36).primary();
    t.string('code', 40).notNullable();
    /** The code upper-cased: codes match whatever case they are typed in. */
    t.string('code_key', 40).notNullable().unique();
    t.integer('percent_off');
    t.integer('amount_off');
    t.string('currency', 3);
    t.string('duration', 16).notNullable();
    t.integer('duration_months');
    /** JSON array of plan ids, or null for every plan. */
    t.text('plan_ids');
    t.integer('max_redemptions');
    t.boolean('once_per_customer').notNullable().defaultTo(false);
    t.timestamp('starts_at', { useTz: true });
    t.timestamp('ends_at', { useTz: true });
    t.boolean('active').notNullable().defaultTo(true);
    t.string('created_by', 36);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('promo_redemptions', (t) => {
    t.string('id', 36).primary();
    t.string('promo_code_id', 36).notNullable().references('id').inTable('promo_codes').onDelete('RESTRICT');
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.string('transaction_id', 36).notNullable().unique().references('id').inTable('transactions').onDelete('CASCADE');
    t.string('subscription_id', 36).notNullable();
    /** The plan's price, and what the code took off the first payment, in `currency`'s minor units. */
    t.integer('amount_before').notNullable();
    t.integer('discount').notNullable();
    t.string('currency', 3).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['promo_code_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('promo_redemptions');
  await knex.schema.dropTableIfExists('promo_codes');
}
