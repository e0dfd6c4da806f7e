import type { Knex } from 'knex';

/**
 * The whole data model: the product spec's entities (section 3) plus what a real server needs
 * (one-time codes, sessions and refresh tokens, jobs, processed webhook events, an audit log).
 * Times are written by the application (never DB defaults), money is integer cents, data is bytes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_profiles', (t) => {
    t.string('id', 36).primary();
    t.string('email', 254).notNullable().unique();
    t.string('role', 16).notNullable().defaultTo('user');
    t.boolean('trial_used').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('plans', (t) => {
    t.string('id', 36).primary();
    t.string('name', 120).notNullable();
    t.double('days').notNullable();
    t.bigInteger('data_limit').notNullable();
    t.string('locations', 500).notNullable().defaultTo('all');
    t.integer('price').notNullable().defaultTo(0);
    t.string('status', 16).notNullable().defaultTo('active');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['status', 'price']);
  });

  await knex.schema.createTable('masterservers', (t) => {
    t.string('id', 36).primary();
    t.string('kind', 16).notNullable().defaultTo('marzneshin');
    t.string('name', 120).notNullable();
    t.string('url', 500).notNullable();
    t.string('username', 200).notNullable();
    t.text('password_encrypted').notNullable();
    t.string('service_id', 64).notNullable();
    t.string('locations', 500).notNullable().defaultTo('all');
    t.text('access_token_encrypted');
    t.timestamp('access_token_expires_at', { useTz: true });
    t.string('status', 16).notNullable().defaultTo('active');
    t.timestamp('last_check', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['status', 'last_check']);
  });

  await knex.schema.createTable('vpn_accounts', (t) => {
    t.string('id', 36).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.string('master_server_id', 36).references('id').inTable('masterservers').onDelete('SET NULL');
    t.string('plan_id', 36).references('id').inTable('plans').onDelete('SET NULL');
    t.string('username', 64).notNullable().unique();
    t.string('status', 16).notNullable();
    t.timestamp('expire_date', { useTz: true });
    t.bigInteger('data_limit').notNullable().defaultTo(0);
    t.string('sub_token', 64).notNullable().unique();
    t.text('subscription_url');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.timestamp('usage_checked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['user_id', 'created_at']);
  });

  await knex.schema.createTable('payment_providers', (t) => {
    t.string('id', 36).primary();
    t.string('name', 64).notNullable();
    t.string('type', 16).notNullable();
    t.boolean('enabled').notNullable().defaultTo(false);
    t.integer('priority').notNullable().defaultTo(0);
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.text('secret_key_encrypted');
    t.text('webhook_secret_encrypted');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['type', 'name']);
  });

  await knex.schema.createTable('payment_methods', (t) => {
    t.string('id', 36).primary();
    t.string('provider_id', 36).notNullable().references('id').inTable('payment_providers').onDelete('CASCADE');
    t.string('name', 64).notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('subscriptions', (t) => {
    t.string('id', 36).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.string('vpn_account_id', 36).references('id').inTable('vpn_accounts').onDelete('SET NULL');
    t.string('provider_id', 36).references('id').inTable('payment_providers').onDelete('SET NULL');
    t.string('method_id', 36).references('id').inTable('payment_methods').onDelete('SET NULL');
    t.string('plan_id', 36).references('id').inTable('plans').onDelete('SET NULL');
    t.string('status', 16).notNullable().defaultTo('incomplete');
    t.timestamp('current_period_start', { useTz: true });
    t.timestamp('current_period_end', { useTz: true });
    t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
    t.timestamp('canceled_at', { useTz: true });
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['user_id', 'created_at']);
  });

  await knex.schema.createTable('transactions', (t) => {
    t.string('id', 36).primary();
    t.string('subscription_id', 36).notNullable().references('id').inTable('subscriptions').onDelete('CASCADE');
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.string('status', 16).notNullable().defaultTo('pending');
    t.integer('amount').notNullable();
    t.string('currency', 3).notNullable().defaultTo('usd');
    t.string('provider_transaction_id', 255).unique();
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['user_id', 'created_at']);
  });

  await knex.schema.createTable('settings', (t) => {
    t.string('id', 64).primary();
    t.jsonb('value').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('vpn_account_logs', (t) => {
    t.increments('id').primary();
    t.string('vpn_account_id', 36);
    t.string('user_id', 36);
    t.string('step', 64).notNullable();
    t.string('status', 16).notNullable();
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['created_at']);
  });

  await knex.schema.createTable('otp_codes', (t) => {
    t.string('id', 36).primary();
    t.string('email', 254).notNullable();
    t.string('code_hash', 128).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('consumed_at', { useTz: true });
    t.string('ip', 64);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['email', 'created_at']);
  });

  await knex.schema.createTable('sessions', (t) => {
    t.string('id', 36).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.string('client', 16).notNullable();
    t.string('user_agent', 500);
    t.string('ip', 64);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.string('revoked_reason', 32);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('last_used_at', { useTz: true }).notNullable();
    t.index(['user_id']);
  });

  await knex.schema.createTable('refresh_tokens', (t) => {
    t.string('id', 36).primary();
    t.string('session_id', 36).notNullable().references('id').inTable('sessions').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('rotated_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['session_id']);
  });

  await knex.schema.createTable('jobs', (t) => {
    t.string('id', 36).primary();
    t.string('type', 64).notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.string('status', 16).notNullable().defaultTo('queued');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable().defaultTo(20);
    t.timestamp('run_at', { useTz: true }).notNullable();
    t.timestamp('locked_at', { useTz: true });
    t.string('locked_by', 64);
    t.text('last_error');
    t.string('dedupe_key', 128).unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['status', 'run_at']);
  });

  await knex.schema.createTable('webhook_events', (t) => {
    t.string('id', 255).primary();
    t.string('provider', 32).notNullable();
    t.string('type', 128).notNullable();
    t.timestamp('processed_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('audit_log', (t) => {
    t.increments('id').primary();
    t.string('actor_id', 36);
    t.string('actor_email', 254);
    t.string('action', 64).notNullable();
    t.string('target_type', 32);
    t.string('target_id', 64);
    t.jsonb('details').notNullable().defaultTo('{}');
    t.string('ip', 64);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'audit_log', 'webhook_events', 'jobs', 'refresh_tokens', 'sessions', 'otp_codes', 'vpn_account_logs',
    'settings', 'transactions', 'subscriptions', 'payment_methods', 'payment_providers', 'vpn_accounts',
    'masterservers', 'plans', 'user_profiles',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
