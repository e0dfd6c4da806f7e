import type { Knex } from 'knex';

/**
 * Refunds and disputes name the payment (Stripe: the PaymentIntent), not the checkout: a paid
 * transaction keeps that reference, indexed, and how much of it has been refunded so far. Payments
 * and paid periods are also found by account.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transactions', (t) => {
    t.string('provider_payment_id', 255);
    t.integer('amount_refunded').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('transactions', (t) => {
    t.unique(['provider_payment_id'], { indexName: 'transactions_provider_payment_id_unique' });
    t.index(['subscription_id'], 'transactions_subscription_id_index');
  });
  // An account's paid periods and payments are looked up by account (renewals, refunds, its status).
  await knex.schema.alterTable('subscriptions', (t) => {
    t.index(['vpn_account_id'], 'subscriptions_vpn_account_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropIndex(['vpn_account_id'], 'subscriptions_vpn_account_id_index');
  });
  await knex.schema.alterTable('transactions', (t) => {
    t.dropIndex(['subscription_id'], 'transactions_subscription_id_index');
    t.dropUnique(['provider_payment_id'], 'transactions_provider_payment_id_unique');
  });
  await knex.schema.alterTable('transactions', (t) => {
    t.dropColumn('amount_refunded');
    t.dropColumn('provider_payment_id');
  });
}
