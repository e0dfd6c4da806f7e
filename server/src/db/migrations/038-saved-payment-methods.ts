import type { Knex } from 'knex';

/**
 * Recurring plans renewed by this server (issue 51): a provider without subscriptions of its own (YooKassa) keeps
 * the card the first payment was made with, and our renewal job charges it before each period ends.
 * `saved_payment_methods`: one row per method a customer allowed to be charged again (the provider's id of it, how
 * the customer recognises it, and when they removed it). `subscriptions.saved_method_id`: the method that renews
 * it. `transactions.charge_attempts`: the tries of a renewal charge so far (counted before each is sent).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('saved_payment_methods', (t) => {
    t.string('id', 36).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    /** payment_providers.name ('yookassa'). */
    t.string('provider', 32).notNullable();
    /** The provider account that keeps it (provider_accounts); its charges go there. */
    t.string('provider_account_id', 36);
    /** The provider's id of the method (YooKassa's payment_method.id). */
    t.string('method_ref', 255).notNullable();
    /** "Bank card *4444". */
    t.string('title', 128).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('removed_at', { useTz: true });
    t.unique(['provider', 'method_ref']);
    t.index(['user_id']);
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    t.string('saved_method_id', 36);
    t.index(['saved_method_id'], 'subscriptions_saved_method_id_index');
  });
  await knex.schema.alterTable('transactions', (t) => {
    t.integer('charge_attempts').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transactions', (t) => {
    t.dropColumn('charge_attempts');
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropIndex(['saved_method_id'], 'subscriptions_saved_method_id_index');
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropColumn('saved_method_id');
  });
  await knex.schema.dropTable('saved_payment_methods');
}
