import type { Knex } from 'knex';

/**
 * Add-ons (issue 55): `add_ons`, what the operator sells on top of a plan (more devices or more traffic), and
 * `account_add_ons`, the ledger of what each account was given: a row per paid add-on (unique by its payment),
 * written with the payment's status change, ended (`revoked_at`) by a refund, never changed otherwise but for the
 * panel limit a traffic add-on sets, and the one its refund sets (`panel_data_limit`, `panel_data_limit_after_revoke`:
 * each written before the panel is asked, so a retry asks the same).
 * `vpn_accounts.extra_devices` is the devices its live add-ons add, kept with the ledger (the `/sub` read adds it to
 * the plan's limit without a join).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('add_ons', (t) => {
    t.string('id', 36).primary();
    t.string('name', 120).notNullable();
    t.string('kind', 16).notNullable();
    t.bigInteger('amount').notNullable();
    t.integer('price').notNullable();
    t.text('translations').notNullable().defaultTo('{}');
    t.text('applies_to').nullable();
    t.string('until', 16).notNullable();
    t.string('status', 16).notNullable().defaultTo('active');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('account_add_ons', (t) => {
    t.string('id', 36).primary();
    t.string('vpn_account_id', 36).notNullable().references('id').inTable('vpn_accounts').onDelete('CASCADE');
    t.string('user_id', 36).notNullable();
    t.string('add_on_id', 36).nullable();
    t.string('transaction_id', 36).notNullable().unique();
    t.string('name', 120).notNullable();
    t.string('kind', 16).notNullable();
    t.bigInteger('amount').notNullable();
    t.string('until', 16).notNullable();
    t.timestamp('ends_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.bigInteger('panel_data_limit').nullable();
    t.bigInteger('panel_data_limit_after_revoke').nullable();
    t.timestamp('applied_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['vpn_account_id'], 'account_add_ons_account_idx');
  });
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.integer('extra_devices').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropColumn('extra_devices');
  });
  await knex.schema.dropTable('account_add_ons');
  await knex.schema.dropTable('add_ons');
}
