import type { Knex } from 'knex';

/**
 * Recurring plans (issue 12). A plan is one-off or recurring; a recurring subscription is linked to
 * the provider's subscription, and each of its invoices is one transaction (the invoice id is the
 * exactly-once key of a renewal). Each customer has one provider customer per provider account.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.string('billing', 16).notNullable().defaultTo('one_off');
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    t.string('billing', 16).notNullable().defaultTo('one_off');
    t.string('provider_subscription_id', 255);
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    t.unique(['provider_subscription_id'], { indexName: 'subscriptions_provider_subscription_id_unique' });
    t.index(['billing', 'status', 'current_period_end'], 'subscriptions_billing_status_period_index');
  });
  await knex.schema.alterTable('transactions', (t) => {
    t.string('provider_invoice_id', 255);
  });
  await knex.schema.alterTable('transactions', (t) => {
    t.unique(['provider_invoice_id'], { indexName: 'transactions_provider_invoice_id_unique' });
  });
  await knex.schema.createTable('payment_customers', (t) => {
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    /** The provider and which of its accounts (a fingerprint of the secret key): test and live keys have different customers. */
    t.string('provider_key', 80).notNullable();
    t.string('customer_id', 255).notNullable();
    /** Test mode with test clocks only: the clock the customer runs on. */
    t.string('test_clock_id', 255);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['user_id', 'provider_key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_customers');
  await knex.schema.alterTable('transactions', (t) => {
    t.dropUnique(['provider_invoice_id'], 'transactions_provider_invoice_id_unique');
  });
  await knex.schema.alterTable('transactions', (t) => {
    t.dropColumn('provider_invoice_id');
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropIndex(['billing', 'status', 'current_period_end'], 'subscriptions_billing_status_period_index');
    t.dropUnique(['provider_subscription_id'], 'subscriptions_provider_subscription_id_unique');
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropColumn('provider_subscription_id');
    t.dropColumn('billing');
  });
  await knex.schema.alterTable('plans', (t) => {
    t.dropColumn('billing');
  });
}
