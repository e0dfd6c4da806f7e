import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDb, type Db } from './knex.js';
import { cacheSqliteStatements, type SqliteStatement } from './sqlite-statement-cache.js';

// better-sqlite3 ships no types (and the app only reaches it through knex): the parts these tests use.
interface Statement extends SqliteStatement {
  get(...values: unknown[]): unknown;
  all(...values: unknown[]): unknown[];
  iterate(...values: unknown[]): IterableIterator<unknown>;
}
interface Connection {
  prepare(sql: string): Statement;
  exec(sql: string): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as { new (filename: string): Connection; prototype: Connection };

/** A better-sqlite3 connection whose real prepares are counted per SQL text. */
function countedConnection(capacity?: number) {
  const conn = new Database(':memory:');
  const prepares: string[] = [];
  const prepare = conn.prepare.bind(conn);
  conn.prepare = (sql: string) => {
    prepares.push(sql);
    return prepare(sql);
  };
  cacheSqliteStatements(conn, capacity);
  conn.exec("CREATE TABLE t (id integer PRIMARY KEY, name text); INSERT INTO t VALUES (1, 'one'), (2, 'two')");
  return { conn, preparesOf: (sql: string) => prepares.filter((text) => text === sql).length };
}

describe('SQLite statement cache on a connection', () => {
  it('prepares the same SQL once and gives correct rows every time', () => {
    const { conn, preparesOf } = countedConnection();
    const sql = 'SELECT name FROM t WHERE id = ?';
    const names = [1, 2, 1, 2].map((id) => (conn.prepare(sql).get(id) as { name: string }).name);
    expect(names).toEqual(['one', 'two', 'one', 'two']);
    expect(preparesOf(sql)).toBe(1);
  });

  it('holds at most its capacity, preparing the least recently used SQL again', () => {
    const { conn, preparesOf } = countedConnection(2);
    const [a, b, c] = ['SELECT 1', 'SELECT 2', 'SELECT 3'];
    for (const sql of [a, b, a, c, a, b]) conn.prepare(sql).get();
    expect([preparesOf(a), preparesOf(b), preparesOf(c)]).toEqual([1, 2, 1]);
  });

  it('gives a statement whose mode was changed to nobody else, so the mode does not leak', () => {
    const { conn, preparesOf } = countedConnection();
    const sql = 'SELECT id, name FROM t WHERE id = ?';
    const raw = conn.prepare(sql);
    raw.raw(true);
    expect(raw.get(1)).toEqual([1, 'one']);
    expect(conn.prepare(sql).get(1)).toEqual({ id: 1, name: 'one' });
    expect(preparesOf(sql)).toBe(2);
  });

  it('gives a fresh statement while the cached one is still iterating', () => {
    const { conn } = countedConnection();
    const sql = 'SELECT id FROM t ORDER BY id';
    const seen: unknown[] = [];
    for (const row of conn.prepare(sql).iterate()) seen.push(row, conn.prepare(sql).all());
    expect(seen).toEqual([{ id: 1 }, [{ id: 1 }, { id: 2 }], { id: 2 }, [{ id: 1 }, { id: 2 }]]);
  });

  it('keeps working after the schema changes under a cached statement', () => {
    const { conn, preparesOf } = countedConnection();
    const sql = 'SELECT * FROM t WHERE id = ?';
    expect(conn.prepare(sql).get(1)).toEqual({ id: 1, name: 'one' });
    conn.exec("ALTER TABLE t ADD COLUMN plan text DEFAULT 'basic'");
    expect(conn.prepare(sql).get(1)).toEqual({ id: 1, name: 'one', plan: 'basic' });
    conn.exec("DROP TABLE t; CREATE TABLE t (id integer PRIMARY KEY, email text); INSERT INTO t VALUES (1, 'a@example.com')");
    expect(conn.prepare(sql).get(1)).toEqual({ id: 1, email: 'a@example.com' });
    expect(preparesOf(sql)).toBe(1);
  });

  it('reads the current columns from a cached PRAGMA, as knex does when it rebuilds a table', () => {
    const { conn } = countedConnection();
    const columns = () =>
      conn
        .prepare('PRAGMA table_info(`t`)')
        .all()
        .map((column) => (column as { name: string }).name);
    expect(columns()).toEqual(['id', 'name']);
    conn.exec('ALTER TABLE t ADD COLUMN plan text');
    expect(columns()).toEqual(['id', 'name', 'plan']);
  });
});

describe('SQLite statement cache under knex', () => {
  let db: Db | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await db?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Counts better-sqlite3's own prepare: the cache binds it when knex opens the connection.
  const openCounted = async () => {
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    dir = mkdtempSync(join(tmpdir(), 'vpn-stmt-cache-'));
    db = createDb(`sqlite:${join(dir, 'app.db')}`);
    await db.schema.createTable('accounts', (table) => {
      table.increments('id');
      table.string('username').notNullable();
      table.bigInteger('bytes').notNullable().defaultTo(0);
    });
    return { db, preparesOf: (sql: string) => prepare.mock.calls.filter(([text]: [string]) => text === sql).length };
  };

  it('prepares a repeated knex query once and returns the right rows', async () => {
    const { db, preparesOf } = await openCounted();
    await db('accounts').insert([{ username: 'ann' }, { username: 'bob' }]);
    const query = (id: number) => db('accounts').where({ id }).first('username');
    const names = [];
    for (const id of [1, 2, 1, 2, 1]) names.push((await query(id))?.username);
    expect(names).toEqual(['ann', 'bob', 'ann', 'bob', 'ann']);
    expect(preparesOf(query(1).toSQL().sql)).toBe(1);
  });

  it('does not carry knex safeIntegers from one query to the next with the same SQL', async () => {
    const { db } = await openCounted();
    await db('accounts').insert({ username: 'ann', bytes: 5 });
    const query = () => db('accounts').where({ id: 1 }).first('bytes');
    expect((await query().options({ safeIntegers: true }))?.bytes).toBe(5n);
    expect((await query())?.bytes).toBe(5);
  });

  it('returns the current columns after migrations add and drop columns under a cached query', async () => {
    const { db } = await openCounted();
    await db('accounts').insert({ username: 'ann' });
    const query = () => db('accounts').where({ id: 1 }).first();
    expect(await query()).toEqual({ id: 1, username: 'ann', bytes: 0 });
    await db.schema.alterTable('accounts', (table) => table.string('plan').notNullable().defaultTo('basic'));
    expect(await query()).toEqual({ id: 1, username: 'ann', bytes: 0, plan: 'basic' });
    // knex rebuilds the table to drop a column, reading its layout with PRAGMAs it has run before.
    await db.schema.alterTable('accounts', (table) => table.dropColumn('bytes'));
    await db.schema.alterTable('accounts', (table) => table.dropColumn('plan'));
    expect(await query()).toEqual({ id: 1, username: 'ann' });
  });

  it('commits and rolls back transactions that run cached statements', async () => {
    const { db, preparesOf } = await openCounted();
    const insert = (trx: Db, username: string) => trx('accounts').insert({ username });
    await db.transaction(async (trx) => {
      await insert(trx, 'ann');
      await insert(trx, 'bob');
    });
    await expect(
      db.transaction(async (trx) => {
        await insert(trx, 'eve');
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect(await db('accounts').orderBy('id').pluck('username')).toEqual(['ann', 'bob']);
    expect(preparesOf(insert(db, 'x').toSQL().sql)).toBe(1);
  });
});
