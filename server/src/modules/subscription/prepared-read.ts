/**
 * A hot read with its SQL built once. On SQLite the statement is also prepared once, on a connection of
 * its own (WAL lets it read beside the app's writer), and run synchronously: `/sub` then pays neither
 * knex's query building nor a `prepare` per request, nor waits for the one pooled connection while it
 * writes. On PostgreSQL (and an in-memory SQLite, which a second connection would not see) it runs
 * through knex as any query.
 */
import type { Knex } from 'knex';
import { dialectOf, type Db } from '../../db/knex.js';

interface SqliteStatement {
  get(...params: unknown[]): unknown;
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  pragma(sql: string): unknown;
}

const READ_MMAP_BYTES = 256 * 1024 * 1024;

/** `build(...params)` is the query (ending in `.first()`); the result reads its first row by the same parameters. */
export function preparedRead<P extends string[]>(db: Db, build: (...params: P) => Knex.QueryBuilder): (...params: P) => Promise<Record<string, unknown> | undefined> {
  let read: ((...params: P) => Promise<Record<string, unknown> | undefined>) | undefined;
  // Decided at the first call: the database is open by then.
  return (...params: P) => (read ??= chooseRead(db, build))(...params);
}

function chooseRead<P extends string[]>(db: Db, build: (...params: P) => Knex.QueryBuilder): (...params: P) => Promise<Record<string, unknown> | undefined> {
  const filename = (db.client.config.connection as { filename?: string } | undefined)?.filename;
  if (dialectOf(db) !== 'sqlite' || !filename || filename === ':memory:') {
    return async (...params: P) => (await build(...params)) as Record<string, unknown> | undefined;
  }

  // Markers in place of the parameters show which bindings are the caller's.
  const markers = Array.from({ length: build.length }, (_, i) => `\u0000param${i}\u0000`) as P;
  const native = build(...markers).toSQL().toNative();
  const { sql, bindings } = inlineIntegers(native.sql, native.bindings as unknown[]);
  const slots = bindings.map((value) => markers.indexOf(value as string));
  let statement: Promise<SqliteStatement> | undefined;
  const prepare = async (): Promise<SqliteStatement> => {
    const connection = (await db.client.acquireRawConnection()) as SqliteConnection;
    connection.pragma('busy_timeout = 5000');
    // Reads through a memory map: a row off the page cache costs no read() call and no copy (this
    // connection only reads; the writer's durability settings are its own, knex.ts).
    connection.pragma(`mmap_size = ${READ_MMAP_BYTES}`);
    return connection.prepare(sql);
  };
  return async (...params: P) => {
    statement ??= prepare().catch((err: unknown) => {
      statement = undefined;
      throw err;
    });
    const row = (await statement).get(...slots.map((slot, i) => (slot >= 0 ? params[slot] : bindings[i])));
    return row as Record<string, unknown> | undefined;
  };
}

/**
 * Integer bindings of the query itself (`.first()`'s `limit ?`) written into its SQL: SQLite plans a
 * bound LIMIT several times slower than a literal one (~100 µs against ~20 µs a lookup, measured).
 */
function inlineIntegers(sql: string, bindings: unknown[]): { sql: string; bindings: unknown[] } {
  const parts = sql.split('?');
  if (parts.length !== bindings.length + 1) return { sql, bindings };
  const kept: unknown[] = [];
  let out = parts[0]!;
  bindings.forEach((value, i) => {
    if (Number.isSafeInteger(value)) out += String(value);
    else {
      out += '?';
      kept.push(value);
    }
    out += parts[i + 1]!;
  });
  return { sql: out, bindings: kept };
}
