import { resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { namedStatements, type PgConnection } from './pg-named-statements.js';
import { prepareSqliteFile } from './sqlite-file.js';
import { cacheSqliteStatements, type SqliteConnection } from './sqlite-statement-cache.js';

export type Db = Knex;
export type Dialect = 'sqlite' | 'postgres';

// PostgreSQL returns int8 (bigint, count(*)) as strings; our values (bytes, counts) fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface DbOptions {
  /** PostgreSQL only: the schema to work in (tests use one schema per suite). */
  searchPath?: string;
  /** Reuse prepared statements (default): SQLite caches them per connection, PostgreSQL names repeated ones. Off only to measure. */
  preparedStatements?: boolean;
}

/**
 * The SQLite file a `sqlite:<path>` URL names, resolved as the server opens it (relative to the working folder;
 * `:memory:` as is), or null for PostgreSQL. Backups and restores find the database through this too.
 */
export function sqliteFileOf(databaseUrl: string): string | null {
  if (!databaseUrl.startsWith('sqlite:')) return null;
  const path = databaseUrl.slice('sqlite:'.length);
  return path === ':memory:' ? path : resolve(path);
}

/** Opens the database named by a `sqlite:<path>` or `postgres://…` URL. */
export function createDb(databaseUrl: string, options: DbOptions = {}): Db {
  const reuseStatements = options.preparedStatements ?? true;
  const sqliteFile = sqliteFileOf(databaseUrl);
  if (sqliteFile !== null) {
    const filename = sqliteFile;
    if (filename !== ':memory:') prepareSqliteFile(filename);
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: SqliteConnection & { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          // knex prepares every query anew; parsing was a fifth of a request's CPU.
          if (reuseStatements) cacheSqliteStatements(conn);
          done(null, conn);
        },
      },
    });
  }
  const nameStatements = reuseStatements ? namedStatements() : undefined;
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    searchPath: options.searchPath ? [options.searchPath] : undefined,
    pool: {
      min: 0,
      max: 10,
      afterCreate(conn: PgConnection, done: (err: Error | null, conn: unknown) => void) {
        nameStatements?.(conn);
        done(null, conn);
      },
    },
  });
}

export function dialectOf(db: Db): Dialect {
  return db.client.config.client === 'pg' ? 'postgres' : 'sqlite';
}
