import { resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { prepareSqliteFile } from './sqlite-file.js';

export type Db = Knex;
export type Dialect = 'sqlite' | 'postgres';

// PostgreSQL returns int8 (bigint, count(*)) as strings; our values (bytes, counts) fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface DbOptions {
  /** PostgreSQL only: the schema to work in (tests use one schema per suite). */
  searchPath?: string;
}

/** Opens the database named by a `sqlite:<path>` or `postgres://…` URL. */
export function createDb(databaseUrl: string, options: DbOptions = {}): Db {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    const filename = path === ':memory:' ? path : resolve(path);
    if (filename !== ':memory:') prepareSqliteFile(filename);
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          done(null, conn);
        },
      },
    });
  }
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    searchPath: options.searchPath ? [options.searchPath] : undefined,
    pool: { min: 0, max: 10 },
  });
}

export function dialectOf(db: Db): Dialect {
  return db.client.config.client === 'pg' ? 'postgres' : 'sqlite';
}
