import type { Knex } from 'knex';

/**
 * One trial per user, enforced by the database: a trial account row names its user here, and the
 * unique index makes a second, simultaneous claim fail instead of creating a second account.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.string('trial_user_id', 36);
  });
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.unique(['trial_user_id'], { indexName: 'vpn_accounts_trial_user_id_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropUnique(['trial_user_id'], 'vpn_accounts_trial_user_id_unique');
  });
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropColumn('trial_user_id');
  });
}
