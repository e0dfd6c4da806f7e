import type { Knex } from 'knex';

/**
 * Auto-renew from the balance (issue 51): `vpn_accounts.wallet_auto_renew`, set by its customer, makes the account
 * renew itself from the wallet a day before it ends (wallet-renewals.ts), once per period.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.boolean('wallet_auto_renew').notNullable().defaultTo(false);
    // Only the flag: an index naming paid_until would stop 030's down from dropping that column on SQLite.
    t.index(['wallet_auto_renew'], 'vpn_accounts_wallet_auto_renew_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropIndex(['wallet_auto_renew'], 'vpn_accounts_wallet_auto_renew_index');
  });
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropColumn('wallet_auto_renew');
  });
}
