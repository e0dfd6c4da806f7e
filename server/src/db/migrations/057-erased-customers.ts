import type { Knex } from 'knex';

/**
 * A customer who deleted their account (issue 56, `DELETE /api/me`) keeps a `user_profiles` row without personal data,
 * so the payments kept for the law still have someone to belong to; `erased_customers` says when it was erased, and
 * `email_hash` (a keyed hash of the address, not the address) lets the trial stay once per person when the same address
 * signs up again. A table of its own: the customers' table, read on every request, does not grow for a rare event.
 * The audit log gets an index on who acted, which a customer's export and erasure read by.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('erased_customers', (t) => {
    t.string('user_id', 36).primary().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.timestamp('erased_at', { useTz: true }).notNullable();
    t.string('email_hash', 64).nullable();
    t.index(['email_hash'], 'erased_customers_email_hash_index');
  });
  await knex.schema.alterTable('audit_log', (t) => {
    t.index(['actor_id'], 'audit_log_actor_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_log', (t) => {
    t.dropIndex(['actor_id'], 'audit_log_actor_id_index');
  });
  await knex.schema.dropTable('erased_customers');
}
