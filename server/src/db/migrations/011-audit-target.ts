import type { Knex } from 'knex';

/** The admin's user page reads the audit entries about one user and their accounts: by target, newest first. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_log', (t) => {
    t.index(['target_id', 'created_at'], 'audit_log_target_id_created_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_log', (t) => {
    t.dropIndex(['target_id', 'created_at'], 'audit_log_target_id_created_at_index');
  });
}
