import type { Knex } from 'knex';

/**
 * Intent before side effect: before a panel user is created for a waiting (`suspended`) account, the
 * row names the server it is about to be created on (and already holds the username), so that after
 * a crash the sweep of stuck accounts knows where to look. `updated_at` is when that intent was last
 * written; the index serves the sweep's query for suspended rows older than its threshold.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.string('provisioning_server_id', 36);
  });
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.index(['status', 'updated_at'], 'vpn_accounts_status_updated_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropIndex(['status', 'updated_at'], 'vpn_accounts_status_updated_at_index');
  });
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropColumn('provisioning_server_id');
  });
}
