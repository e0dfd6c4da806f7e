import type { Knex } from 'knex';

/**
 * Passkeys (issue 56, staff passkeys): a user's WebAuthn credentials, their recovery codes (hashed, each used once),
 * the challenge a session was last given (used once, short-lived) and when a session last proved a passkey.
 * Tables of their own: the customers' table, read on every request, does not grow for what only staff use.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('passkeys', (t) => {
    t.string('id', 36).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    // base64url of the authenticator's credential id (at most 1023 bytes by the WebAuthn spec).
    t.string('credential_id', 1400).notNullable().unique();
    t.text('public_key').notNullable();
    t.bigInteger('counter').notNullable().defaultTo(0);
    t.string('transports', 200).notNullable().defaultTo('');
    t.string('name', 60).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('last_used_at', { useTz: true });
    t.index(['user_id'], 'passkeys_user_id_index');
  });
  await knex.schema.createTable('passkey_recovery_codes', (t) => {
    t.string('id', 36).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.string('code_hash', 64).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['user_id'], 'passkey_recovery_codes_user_id_index');
  });
  await knex.schema.createTable('session_passkeys', (t) => {
    t.string('session_id', 36).primary().references('id').inTable('sessions').onDelete('CASCADE');
    // The challenge last handed out for this session, what it was for and until when (taken once).
    t.string('challenge', 128);
    t.string('challenge_kind', 16);
    t.timestamp('challenge_expires_at', { useTz: true });
    t.timestamp('verified_at', { useTz: true });
    t.timestamp('step_up_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('session_passkeys');
  await knex.schema.dropTable('passkey_recovery_codes');
  await knex.schema.dropTable('passkeys');
}
