import type { Knex } from 'knex';

/**
 * When each live recurring subscription is next read from its provider by the reconcile job (issue 25,
 * item 7): the last read that worked, the failed reads in a row and the last error, and the next try.
 * A failing row backs off alone; the picker takes rows by `next_try_at` (its index), and the admin's
 * count of subscriptions that cannot be read looks rows up by `failures`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('reconcile_schedule', (t) => {
    t.string('subscription_id', 36).primary().references('id').inTable('subscriptions').onDelete('CASCADE');
    t.timestamp('next_try_at', { useTz: true }).notNullable();
    t.timestamp('last_read_at', { useTz: true }).nullable();
    t.timestamp('last_tried_at', { useTz: true }).nullable();
    t.integer('failures').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    t.index(['next_try_at'], 'reconcile_schedule_next_try_at_index');
    t.index(['failures'], 'reconcile_schedule_failures_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('reconcile_schedule');
}
