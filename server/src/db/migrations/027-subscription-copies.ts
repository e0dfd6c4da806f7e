import type { Knex } from 'knex';

/**
 * What `/sub/<token>` last got from the panel, per account and panel format (issue 27): the panel's answer
 * as it came (`body`, its `subscription-userinfo`), the panel URL it came from, and when. Every instance
 * answers from it at once and refreshes it in the background; `refreshing_since` is the claim one
 * instance takes (a conditional update) so a fleet asks the panel once per account, not once per instance.
 * The primary key serves every read (by account and format) and the account's own rows (its first column).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('subscription_copies', (t) => {
    t.string('vpn_account_id', 36).notNullable().references('id').inTable('vpn_accounts').onDelete('CASCADE');
    t.string('source', 16).notNullable();
    t.text('subscription_url').notNullable();
    t.text('body').notNullable();
    t.string('userinfo', 255).nullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable();
    t.timestamp('refreshing_since', { useTz: true }).nullable();
    t.primary(['vpn_account_id', 'source']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('subscription_copies');
}
