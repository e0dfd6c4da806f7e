import type { Knex } from 'knex';

/**
 * Webhook events a payment driver could not read (issue 25, item 6), one row per provider and API version:
 * such an event is refused (the provider delivers it again), and the admin's System tab shows the version
 * and when it was last seen until the provider's events are read again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('unreadable_webhook_versions', (t) => {
    t.string('provider', 32).notNullable();
    t.string('api_version', 64).notNullable();
    t.string('last_event_id', 255).notNullable();
    t.string('last_event_type', 128).notNullable();
    t.text('reason').notNullable();
    t.integer('times_seen').notNullable();
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.primary(['provider', 'api_version']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('unreadable_webhook_versions');
}
