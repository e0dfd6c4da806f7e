import type { Knex } from 'knex';

/**
 * Live health of each panel server (modules/servers/server-health.ts): the last check's time, latency
 * and error, the failures in a row, and the state they add up to ('unknown' until the first check).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('masterservers', (t) => {
    t.string('health', 16).notNullable().defaultTo('unknown');
    t.integer('health_failures').notNullable().defaultTo(0);
    t.timestamp('health_checked_at', { useTz: true }).nullable();
    t.timestamp('health_changed_at', { useTz: true }).nullable();
    t.integer('health_latency_ms').nullable();
    t.text('health_error').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('masterservers', (t) => {
    t.dropColumn('health_error');
    t.dropColumn('health_latency_ms');
    t.dropColumn('health_changed_at');
    t.dropColumn('health_checked_at');
    t.dropColumn('health_failures');
    t.dropColumn('health');
  });
}
