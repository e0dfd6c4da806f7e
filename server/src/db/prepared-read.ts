/**
 * A hot read with its SQL built once, for the reads every page visit makes. On a SQLite file the statement
 * is also prepared once, on a connection of its own (WAL lets it read beside the app's writer), and run
 * synchronously: the read then pays neither knex's query building and runner nor a wait for the one pooled
 * connection while it writes. On PostgreSQL the built SQL goes straight to a pooled connection (which names
 * it after a few runs: pg-named-statements.ts). An in-memory SQLite, which a second connection would not
 * see, runs it through knex as any query.
 *
 * Only for reads outside a transaction: the read sees what is committed.
 */
import type { Knex } from 'knex';
import { dialectOf, type Db } from './knex.js';

export type Row = Record<string, unknown>;
/** A query, or raw SQL (`db.raw`). */
type Built = Knex.QueryBuilder | Knex.Raw;

interface SqliteStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  pragma(sql: string): unknown;
  close(): void;
}
interface PgClient {
  query(config: { text: string; values: unknown[] }, callback: (err: Error | null, result?: { rows: Row[] }) => void): void;
}

/** Runs the built query with the caller's parameters: every row, or the first. */
interface Runner<P extends string[]> {
  all(...params: P): Promise<Row[]>;
  first(...params: P): Promise<Row | undefined>;
}

/** `build(...params)` is the query (ending in `.first()`); the result reads its first row by the same parameters. */
export function preparedFirst<P extends string[]>(db: Db, build: (...params: P) => Built): (...params: P) => Promise<Row | undefined> {
  const runner = lazyRunner(db, build);
  return (...params: P) => runner().first(...params);
}

/** `build(...params)` is the query; the result reads all its rows by the same parameters. */
export function preparedAll<P extends string[]>(db: Db, build: (...params: P) => Built): (...params: P) => Promise<Row[]> {
  const runner = lazyRunner(db, build);
  return (...params: P) => runner().all(...params);
}

// Decided at the first call: the database is open by then.
function lazyRunner<P extends string[]>(db: Db, build: (...params: P) => Built): () => Runner<P> {
  let runner: Runner<P> | undefined;
  return () => (runner ??= chooseRunner(db, build));
}

function chooseRunner<P extends string[]>(db: Db, build: (...params: P) => Built): Runner<P> {
  // Markers in place of the parameters show which bindings are the caller's.
  const markers = Array.from({ length: build.length }, (_, i) => `\u0000param${i}\u0000`) as P;
  const bindingsFor = (slots: number[], bindings: readonly unknown[], params: P) => slots.map((slot, i) => (slot >= 0 ? params[slot] : bindings[i]));
  const slotsOf = (bindings: readonly unknown[]) => bindings.map((value) => markers.indexOf(value as string));

  if (dialectOf(db) === 'postgres') {
    const native = build(...markers)
      .toSQL()
      .toNative();
    const slots = slotsOf(native.bindings);
    const all = (...params: P) => queryPg(db, native.sql, bindingsFor(slots, native.bindings, params));
    return { all, first: async (...params: P) => (await all(...params))[0] };
  }

  const filename = (db.client.config.connection as { filename?: string } | undefined)?.filename;
  if (!filename || filename === ':memory:') {
    return {
      all: async (...params: P) => (await build(...params)) as Row[],
      first: async (...params: P) => (await build(...params)) as Row | undefined,
    };
  }

  const native = build(...markers)
    .toSQL()
    .toNative();
  const { sql, bindings } = inlineIntegers(native.sql, native.bindings as unknown[]);
  const slots = slotsOf(bindings);
  let statement: Promise<SqliteStatement> | undefined;
  const prepare = async (): Promise<SqliteStatement> => (await readConnection(db)).prepare(sql);
  const prepared = () =>
    (statement ??= prepare().catch((err: unknown) => {
      statement = undefined;
      throw err;
    }));
  return {
    all: async (...params: P) => (await prepared()).all(...bindingsFor(slots, bindings, params)) as Row[],
    first: async (...params: P) => (await prepared()).get(...bindingsFor(slots, bindings, params)) as Row | undefined,
  };
}

/**
 * Reads through a memory map of the file's first 32 MB: a row off the page cache there costs no read() call and
 * no copy. What the map touches counts in the server's resident memory (as file pages, which the kernel can drop):
 * a 256 MB map grew it by 256 MB while an admin paged through a million users, a 64 MB one by 51 MB
 * (docs/performance.md); the hot customer reads touch a few MB of it.
 */
const READ_MMAP_BYTES = 32 * 1024 * 1024;
const readConnections = new WeakMap<Db, Promise<SqliteConnection>>();

/**
 * The database's one read connection (this connection only reads; the writer's durability settings are
 * its own, knex.ts), opened at its first use and closed with knex's pool: tests open and close many
 * databases in one process.
 */
function readConnection(db: Db): Promise<SqliteConnection> {
  let connection = readConnections.get(db);
  if (!connection) {
    connection = (async () => {
      const opened = (await db.client.acquireRawConnection()) as SqliteConnection;
      opened.pragma('busy_timeout = 5000');
      opened.pragma(`mmap_size = ${READ_MMAP_BYTES}`);
      (db.client as { pool?: { on(event: string, handler: () => void): void } }).pool?.on('poolDestroySuccess', () => opened.close());
      return opened;
    })();
    connection.catch(() => readConnections.delete(db));
    readConnections.set(db, connection);
  }
  return connection;
}

/** One query on a pooled connection, by the callback form that pg-named-statements.ts names. */
async function queryPg(db: Db, text: string, values: unknown[]): Promise<Row[]> {
  const client = (await db.client.acquireConnection()) as PgClient;
  try {
    return await new Promise<Row[]>((resolve, reject) => {
      client.query({ text, values }, (err, result) => (err ? reject(err) : resolve(result!.rows)));
    });
  } finally {
    db.client.releaseConnection(client);
  }
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
