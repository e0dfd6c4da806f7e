import type { Knex } from 'knex';

/**
 * The daily purge of rows past their retention (modules/retention) deletes by time: each of these
 * indexes makes one of its deletes a range scan instead of a pass over the whole table.
 * vpn_account_logs.created_at and audit_log.created_at are indexed since 001.
 */
const INDEXES: Array<readonly [table: string, columns: string[], name: string]> = [
  ['otp_codes', ['expires_at'], 'otp_codes_expires_at_index'],
  ['sessions', ['expires_at'], 'sessions_expires_at_index'],
  ['sessions', ['revoked_at'], 'sessions_revoked_at_index'],
  ['refresh_tokens', ['expires_at'], 'refresh_tokens_expires_at_index'],
  ['webhook_events', ['processed_at'], 'webhook_events_processed_at_index'],
  ['jobs', ['status', 'updated_at'], 'jobs_status_updated_at_index'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [table, columns, name] of INDEXES) {
    await knex.schema.alterTable(table, (t) => {
      t.index(columns, name);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, columns, name] of [...INDEXES].reverse()) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(columns, name);
    });
  }
}
