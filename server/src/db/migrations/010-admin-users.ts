import type { Knex } from 'knex';

/**
 * The admin's users list at a million users (modules/users): newest first is a walk down
 * (created_at, id); a role filter walks (role, created_at, id); "has an active account" is a probe of
 * (user_id, status), "past due" one of subscriptions' (user_id, status). The e-mail prefix
 * search is a range in byte order: on SQLite the e-mail's unique index (001) is that order; on
 * PostgreSQL, whose default collation may not be, an index on `email COLLATE "C"`.
 */
const INDEXES: Array<readonly [table: string, columns: string[], name: string]> = [
  ['user_profiles', ['created_at', 'id'], 'user_profiles_created_at_id_index'],
  ['user_profiles', ['role', 'created_at', 'id'], 'user_profiles_role_created_at_id_index'],
  ['vpn_accounts', ['user_id', 'status'], 'vpn_accounts_user_id_status_index'],
  ['subscriptions', ['user_id', 'status'], 'subscriptions_user_id_status_index'],
];

const isPostgres = (knex: Knex) => knex.client.config.client === 'pg';

export async function up(knex: Knex): Promise<void> {
  if (isPostgres(knex)) await knex.raw('CREATE INDEX user_profiles_email_c_index ON user_profiles (email COLLATE "C")');
  for (const [table, columns, name] of INDEXES) {
    await knex.schema.alterTable(table, (t) => {
      t.index(columns, name);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  if (isPostgres(knex)) await knex.raw('DROP INDEX user_profiles_email_c_index');
  for (const [table, columns, name] of [...INDEXES].reverse()) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(columns, name);
    });
  }
}
