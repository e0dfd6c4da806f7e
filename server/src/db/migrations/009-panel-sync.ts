import type { Knex } from 'knex';

/**
 * The panel sync (modules/panel-sync): where each server's pass through the panel's user list has got
 * to, and when each of our accounts was last seen in such a pass (an account not seen in a complete
 * pass is looked up by name, and marked disabled when the panel has no such user).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('panel_sync_state', (t) => {
    t.string('server_id', 36).primary().references('id').inTable('masterservers').onDelete('CASCADE');
    /** The next page to read; 1 = a new pass starts. */
    t.integer('next_page').notNullable().defaultTo(1);
    t.timestamp('pass_started_at', { useTz: true }).nullable();
    t.timestamp('last_complete_pass_at', { useTz: true }).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.timestamp('panel_seen_at', { useTz: true }).nullable();
    t.index(['master_server_id', 'panel_seen_at'], 'vpn_accounts_server_seen_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropIndex(['master_server_id', 'panel_seen_at'], 'vpn_accounts_server_seen_index');
    t.dropColumn('panel_seen_at');
  });
  await knex.schema.dropTable('panel_sync_state');
}
