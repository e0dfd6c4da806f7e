import type { Knex } from 'knex';

/**
 * Refunds as a ledger (issue 25, item 4): one row per refund, written as intent before the provider is
 * asked (its idempotency key is unique, so a retried request finds the same row), and completed with the
 * provider's answer. `lease_until` keeps two senders of one refund from calling the provider at once.
 *
 * `kept_reversals`: a refund or dispute the provider reported for a payment we have not confirmed yet
 * (the webhook overtook checkout.session.completed); it is applied when the payment confirms.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('refunds', (t) => {
    t.string('id', 36).primary();
    t.string('transaction_id', 36).notNullable().references('id').inTable('transactions').onDelete('CASCADE');
    t.integer('amount').notNullable();
    t.string('currency', 3).notNullable();
    /** requested → succeeded | pending | failed; succeeded/pending → failed when the provider fails it later. */
    t.string('status', 16).notNullable();
    /** admin, undeliverable (a renewal that could not be delivered), provider (made in the provider's dashboard). */
    t.string('source', 16).notNullable();
    t.string('idempotency_key', 255).notNullable().unique();
    t.string('provider_refund_id', 255).unique();
    t.string('reason', 32);
    t.text('note');
    t.text('claim_url');
    t.text('error');
    t.string('actor_id', 36);
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['transaction_id'], 'refunds_transaction_id_index');
    t.index(['status', 'created_at'], 'refunds_status_created_at_index');
  });
  await knex.schema.createTable('kept_reversals', (t) => {
    t.increments('id').primary();
    t.string('payment_ref', 255).notNullable();
    t.string('kind', 16).notNullable();
    t.jsonb('event').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('applied_at', { useTz: true });
    t.index(['payment_ref'], 'kept_reversals_payment_ref_index');
    // The retention purge deletes them by age.
    t.index(['created_at'], 'kept_reversals_created_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('kept_reversals');
  await knex.schema.dropTable('refunds');
}
