import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Payments tied to the provider account that took them (issue 25, item 3). `provider_accounts` keeps the
 * keys of every account that took a payment (sealed with APP_SECRET, like payment_providers'), so the
 * admin can switch to another Stripe account or BTCPay store while the old one's payments keep working.
 * Subscriptions and transactions name their account; null = the account in force (rows from before this
 * migration until their account is known).
 *
 * Backfill: the BTCPay store in force is known from its settings (server address and store id are in
 * clear), so its row is made and its payments named. A Stripe account's id can only be read from Stripe
 * with the key, which a migration cannot open: the server names those rows, and moves payment_customers
 * from the key's fingerprint to the account id, the first time it reads the account (provider-accounts.repo.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('provider_accounts', (t) => {
    t.string('id', 36).primary();
    /** 'stripe' or 'btcpay' (payment_providers.name). */
    t.string('provider', 32).notNullable();
    /** Stripe: the `acct_…` id; BTCPay: `server address|store id`. The same after a key is rolled. */
    t.string('account_ref', 512).notNullable();
    /** Stripe's secret key or BTCPay's API key, sealed. */
    t.text('secret_encrypted');
    t.text('webhook_secret_encrypted');
    /** BTCPay: { serverUrl, storeId }. */
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['provider', 'account_ref']);
  });
  for (const table of ['subscriptions', 'transactions']) {
    await knex.schema.alterTable(table, (t) => {
      t.string('provider_account_id', 36).references('id').inTable('provider_accounts').onDelete('SET NULL');
      t.index(['provider_account_id'], `${table}_provider_account_id_index`);
    });
  }
  await backfillBtcpayStore(knex);
}

async function backfillBtcpayStore(knex: Knex): Promise<void> {
  const store = await knex('payment_providers').select('id', 'settings', 'secret_key_encrypted', 'webhook_secret_encrypted').where({ type: 'crypto', name: 'btcpay' }).first();
  if (!store) return;
  const settings = (typeof store.settings === 'string' ? JSON.parse(store.settings) : store.settings) as { serverUrl?: string; storeId?: string };
  if (!settings.serverUrl || !settings.storeId) return;
  const serverUrl = settings.serverUrl.trim().replace(/\/+$/, '');
  const id = randomUUID();
  const now = new Date();
  await knex('provider_accounts').insert({
    id, provider: 'btcpay', account_ref: `${serverUrl}|${settings.storeId}`, secret_encrypted: store.secret_key_encrypted ?? null,
    webhook_secret_encrypted: store.webhook_secret_encrypted ?? null, settings: JSON.stringify({ serverUrl, storeId: settings.storeId }), created_at: now, updated_at: now,
  });
  await knex('subscriptions').where({ provider_id: store.id }).update({ provider_account_id: id });
  await knex('transactions').whereIn('subscription_id', knex('subscriptions').select('id').where({ provider_id: store.id })).update({ provider_account_id: id });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['transactions', 'subscriptions']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(['provider_account_id'], `${table}_provider_account_id_index`);
    });
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('provider_account_id');
    });
  }
  await knex.schema.dropTable('provider_accounts');
}
