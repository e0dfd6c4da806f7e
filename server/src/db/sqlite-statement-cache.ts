import { LruMap } from '../lib/lru-map.js';

/** The parts of a better-sqlite3 Database and Statement the cache touches. */
export interface SqliteStatement {
  readonly busy: boolean;
  raw(toggle?: boolean): unknown;
  pluck(toggle?: boolean): unknown;
  expand(toggle?: boolean): unknown;
  safeIntegers(toggle?: boolean): unknown;
}
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}

/** Enough for every query the app writes; ad-hoc SQL (whereIn lists of every length) evicts the oldest. */
export const SQLITE_STATEMENT_CACHE_SIZE = 500;

// Modes a caller can switch on a statement; better-sqlite3 keeps them on the statement object.
const MODES = ['raw', 'pluck', 'expand', 'safeIntegers'] as const;

/**
 * Makes `conn.prepare` (what knex's better-sqlite3 client calls for every query) return the statement
 * it prepared last time for the same SQL, so SQLite parses each query once per connection.
 * SQLite re-prepares a statement by itself when the schema changes, so DDL needs nothing here.
 * A statement whose mode someone changes leaves the cache (theirs alone now), so no mode leaks into
 * the next query; a statement still iterating is busy, so that caller gets a fresh one.
 */
export function cacheSqliteStatements(conn: SqliteConnection, capacity = SQLITE_STATEMENT_CACHE_SIZE): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new LruMap<string, SqliteStatement>(capacity);

  const keep = (sql: string, statement: SqliteStatement) => {
    for (const mode of MODES) {
      const setMode = statement[mode];
      statement[mode] = (toggle?: boolean) => {
        if (cache.get(sql) === statement) cache.delete(sql);
        return setMode.call(statement, toggle);
      };
    }
    cache.set(sql, statement);
  };

  conn.prepare = (sql: string) => {
    const cached = cache.get(sql);
    if (cached && !cached.busy) return cached;
    const statement = prepare(sql);
    if (!cached) keep(sql, statement);
    return statement;
  };
}
