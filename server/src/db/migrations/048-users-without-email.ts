import type { Knex } from 'knex';
import { dialectOf } from '../knex.js';

/**
 * A customer who came through the Telegram bot may have no e-mail address (issue 54): `user_profiles.email` becomes
 * nullable. Unique still holds for the addresses there are (both databases let any number of rows be null).
 *
 * SQLite cannot drop a NOT NULL in place, and rebuilding user_profiles would drop its counting triggers (see
 * migrate.ts) and, with foreign keys on, cascade into every table that references it. Removing a NOT NULL does not
 * change a single stored byte, so this follows SQLite's own procedure for such changes (sqlite.org/lang_altertable.html,
 * "making other kinds of table schema changes", its simpler procedure): the table's CREATE statement is edited in
 * sqlite_schema and the schema version raised, so every connection reads the new one. better-sqlite3 refuses writes
 * to the schema in its default defensive mode; it is left only for this statement. It runs outside a transaction
 * (`config`), on a connection of its own, and checks the database's integrity before it returns.
 */
export const config = { transaction: false };

const EMAIL_NOT_NULL = /(["`]email["`]\s+varchar\(254\))\s+not null/i;

interface SqliteConnection {
  unsafeMode(on: boolean): void;
  pragma(sql: string, options?: { simple?: boolean }): unknown;
  prepare(sql: string): { get(...params: unknown[]): unknown; run(...params: unknown[]): unknown };
}

export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) === 'postgres') {
    await knex.raw('ALTER TABLE user_profiles ALTER COLUMN email DROP NOT NULL');
    return;
  }
  await withSqliteConnection(knex, (conn) => {
    const row = conn.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'user_profiles'").get() as
      | { sql: string }
      | undefined;
    if (!row || !EMAIL_NOT_NULL.test(row.sql)) return;
    editTableSql(conn, row.sql.replace(EMAIL_NOT_NULL, '$1 null'));
  });
}

export async function down(knex: Knex): Promise<void> {
  if (dialectOf(knex) === 'postgres') {
    await knex.raw('ALTER TABLE user_profiles ALTER COLUMN email SET NOT NULL');
    return;
  }
  await withSqliteConnection(knex, (conn) => {
    if (conn.prepare('SELECT 1 FROM user_profiles WHERE email IS NULL LIMIT 1').get()) {
      throw new Error('user_profiles: some users have no e-mail address; give them one before going back to 047');
    }
    const row = conn.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'user_profiles'").get() as {
      sql: string;
    };
    const nullable = /(["`]email["`]\s+varchar\(254\))\s+null/i;
    if (nullable.test(row.sql)) editTableSql(conn, row.sql.replace(nullable, '$1 not null'));
  });
}

async function withSqliteConnection(knex: Knex, work: (conn: SqliteConnection) => void): Promise<void> {
  const conn = (await knex.client.acquireConnection()) as SqliteConnection;
  try {
    work(conn);
  } finally {
    await knex.client.releaseConnection(conn);
  }
}

function editTableSql(conn: SqliteConnection, sql: string): void {
  const version = conn.pragma('schema_version', { simple: true }) as number;
  conn.unsafeMode(true);
  try {
    conn.pragma('writable_schema = ON');
    conn.prepare("UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = 'user_profiles'").run(sql);
    conn.pragma(`schema_version = ${version + 1}`);
  } finally {
    conn.pragma('writable_schema = OFF');
    conn.unsafeMode(false);
  }
  const check = conn.pragma('integrity_check', { simple: true });
  if (check !== 'ok') throw new Error(`user_profiles: integrity check after dropping NOT NULL said ${String(check)}`);
}
