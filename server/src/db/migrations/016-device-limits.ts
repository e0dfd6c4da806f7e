import type { Knex } from 'knex';

/**
 * Device limits (issue 24): a plan's `device_limit` (null = unlimited), copied onto the accounts bought
 * or renewed on it; and the devices each account's VPN clients announced with `x-hwid` on `/sub`.
 * The unique (account, hwid) index also serves every lookup by account (its first column).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.integer('device_limit').nullable();
  });
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.integer('device_limit').nullable();
  });
  await knex.schema.createTable('account_devices', (t) => {
    t.string('id', 36).primary();
    t.string('vpn_account_id', 36).notNullable().references('id').inTable('vpn_accounts').onDelete('CASCADE');
    t.string('hwid', 128).notNullable();
    t.string('os', 32);
    t.string('os_version', 32);
    t.string('model', 64);
    t.string('app', 64);
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.unique(['vpn_account_id', 'hwid']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('account_devices');
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropColumn('device_limit');
  });
  await knex.schema.alterTable('plans', (t) => {
    t.dropColumn('device_limit');
  });
}
