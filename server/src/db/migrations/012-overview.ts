import type { Knex } from 'knex';

/**
 * The admin's overview (modules/overview) at a million users: every number is a range scan over the
 * last days or a read of `daily_stats`.
 * - `daily_stats`: per UTC day, metric and server (`''` for none) a value: the panel sync adds each
 *   server's traffic, the hourly snapshot writes the day's active accounts and total users.
 * - `vpn_accounts.traffic_counted`: the used-traffic figure the sync last added to `daily_stats`, so each
 *   byte is counted once whoever else refreshes the account's usage (null: not counted yet).
 * - signups walk user_profiles (created_at, id) (010); trials a partial index on trial accounts' creation;
 *   revenue an index of transactions holding every column it reads; active accounts now
 *   vpn_accounts (status, updated_at) (004).
 */
const REVENUE_COLUMNS = ['created_at', 'status', 'currency', 'amount', 'amount_refunded'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('daily_stats', (t) => {
    t.string('metric', 32).notNullable();
    /** The UTC date, YYYY-MM-DD. */
    t.string('day', 10).notNullable();
    t.string('server_id', 36).notNullable().defaultTo('');
    t.bigInteger('value').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['metric', 'day', 'server_id']);
  });
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.bigInteger('traffic_counted').nullable();
  });
  await knex.raw('CREATE INDEX vpn_accounts_trial_created_at_index ON vpn_accounts (created_at) WHERE trial_user_id IS NOT NULL');
  await knex.schema.alterTable('transactions', (t) => {
    t.index(REVENUE_COLUMNS, 'transactions_revenue_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transactions', (t) => {
    t.dropIndex(REVENUE_COLUMNS, 'transactions_revenue_index');
  });
  await knex.raw('DROP INDEX vpn_accounts_trial_created_at_index');
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropColumn('traffic_counted');
  });
  await knex.schema.dropTable('daily_stats');
}
