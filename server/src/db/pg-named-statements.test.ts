import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/databases.js';
import { createDb, type Db } from './knex.js';
import { namedStatements } from './pg-named-statements.js';

const postgresUrl = process.env.TEST_DATABASE_URL;

interface PreparedRow {
  name: string;
  statement: string;
  executions: number;
}

/** What PostgreSQL holds prepared on the connection `trx` runs on, for statements that mention `table`. */
async function preparedOn(trx: Db, table: string): Promise<PreparedRow[]> {
  const result = await trx.raw(
    "SELECT name, statement, generic_plans + custom_plans AS executions FROM pg_prepared_statements WHERE statement LIKE '%' || ? || '%' ORDER BY prepare_time, name",
    [table],
  );
  return result.rows;
}

// Skipped without TEST_DATABASE_URL: these drive a real PostgreSQL connection (.ci/run always sets it).
describe.skipIf(!postgresUrl)('PostgreSQL named statements under knex', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = database.db;
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const createAccounts = async (table: string) => {
    await db.schema.createTable(table, (t) => {
      t.increments('id');
      t.string('username').notNullable();
    });
    await db(table).insert([{ username: 'ann' }, { username: 'bob' }]);
  };

  it('prepares a query run over and over once per connection, after its third run, and returns the right rows', async () => {
    await createAccounts('repeat_accounts');
    await db.transaction(async (trx) => {
      const names = [];
      for (const id of [1, 2, 1, 2, 1, 2]) names.push((await trx('repeat_accounts').where({ id }).first('username'))?.username);
      expect(names).toEqual(['ann', 'bob', 'ann', 'bob', 'ann', 'bob']);
      const prepared = await preparedOn(trx, 'repeat_accounts');
      expect(prepared.map((row) => [row.statement, row.executions])).toEqual([
        [trx('repeat_accounts').where({ id: 1 }).first('username').toSQL().toNative().sql, 4],
      ]);
    });
  });

  it('leaves SET, multi-statement SQL and DDL unnamed, and they still run', async () => {
    await db.transaction(async (trx) => {
      for (let i = 0; i < 4; i++) {
        await trx.raw("SET LOCAL statement_timeout = '5s'");
        const multi = await trx.raw('SELECT 1 AS a FROM pg_class LIMIT 1; SELECT 2 AS b FROM pg_class LIMIT 1');
        expect(multi.map((r: pg.QueryResult) => r.rows[0])).toEqual([{ a: 1 }, { b: 2 }]);
        await trx.raw(`CREATE TABLE unnamed_${i} (id int)`);
      }
      expect(await preparedOn(trx, 'pg_class')).toEqual([]);
      expect(await preparedOn(trx, 'unnamed_')).toEqual([]);
    });
  });

  it('plans a LIKE for its pattern every time: a prefix search is never named, and still finds its rows', async () => {
    await createAccounts('pattern_accounts');
    await db.transaction(async (trx) => {
      for (let i = 0; i < 6; i++) {
        const rows = await trx('pattern_accounts')
          .where('username', 'like', i % 2 ? 'a%' : 'b%')
          .select('username');
        expect(rows).toEqual([{ username: i % 2 ? 'ann' : 'bob' }]);
      }
      expect(await preparedOn(trx, 'pattern_accounts')).toEqual([]);
    });
  });

  it('commits and rolls back transactions that run named statements', async () => {
    await createAccounts('tx_accounts');
    const insert = (trx: Db, username: string) => trx('tx_accounts').insert({ username });
    await db.transaction(async (trx) => {
      for (const username of ['cat', 'dan', 'eve', 'fay']) await insert(trx, username);
    });
    await expect(
      db.transaction(async (trx) => {
        for (const username of ['gus', 'hal', 'ivy', 'jon']) await insert(trx, username);
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect(await db('tx_accounts').orderBy('id').pluck('username')).toEqual(['ann', 'bob', 'cat', 'dan', 'eve', 'fay']);
  });

  it('returns new columns when a migration in this process alters a table under a named query, also inside a transaction', async () => {
    await createAccounts('altered_accounts');
    await db.transaction(async (trx) => {
      const query = () => trx('altered_accounts').where({ id: 1 }).first();
      for (let i = 0; i < 4; i++) expect(await query()).toEqual({ id: 1, username: 'ann' });
      expect((await preparedOn(trx, 'altered_accounts')).some((row) => row.statement.startsWith('select *'))).toBe(true);
      await trx.schema.alterTable('altered_accounts', (t) => t.string('plan').notNullable().defaultTo('basic'));
      expect(await query()).toEqual({ id: 1, username: 'ann', plan: 'basic' });
    });
  });

  it('runs a named query again when another process alters its table, and prepares it afresh', async () => {
    await createAccounts('elsewhere_accounts');
    const query = () => db('elsewhere_accounts').where({ id: 1 }).first();
    // One connection in the pool: the named statement is on it when the other process changes the table.
    const one = openWithOneConnection(database);
    try {
      const oneQuery = () => one('elsewhere_accounts').where({ id: 1 }).first();
      for (let i = 0; i < 4; i++) expect(await oneQuery()).toEqual({ id: 1, username: 'ann' });
      await alterElsewhere(database, "ALTER TABLE elsewhere_accounts ADD COLUMN plan text NOT NULL DEFAULT 'basic'");
      expect(await oneQuery()).toEqual({ id: 1, username: 'ann', plan: 'basic' });
      expect(await oneQuery()).toEqual({ id: 1, username: 'ann', plan: 'basic' });
      await alterElsewhere(database, 'ALTER TABLE elsewhere_accounts ADD COLUMN note text');
      // In a transaction the failed statement aborts it, so the error reaches the caller once; the next run prepares afresh.
      await expect(one.transaction((trx) => trx('elsewhere_accounts').where({ id: 1 }).first())).rejects.toMatchObject({ code: '0A000' });
      expect(await one.transaction((trx) => trx('elsewhere_accounts').where({ id: 1 }).first())).toEqual({ id: 1, username: 'ann', plan: 'basic', note: null });
    } finally {
      await one.destroy();
    }
    expect(await query()).toEqual({ id: 1, username: 'ann', plan: 'basic', note: null });
  });
});

// Skipped without TEST_DATABASE_URL, as above.
describe.skipIf(!postgresUrl)('PostgreSQL named statements on a connection', () => {
  let database: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    client = new pg.Client(postgresUrl);
    await client.connect();
    await client.query(`SET search_path TO "${database.schema}"`);
  });
  afterAll(async () => {
    await client?.end();
    await database?.destroy();
  });

  // knex's way of calling: a config object and a callback.
  const run = (text: string, values: unknown[]) =>
    new Promise<pg.QueryResult>((resolve, reject) => {
      client.query({ text, values }, (err: Error | null, result: pg.QueryResult) => (err ? reject(err) : resolve(result)));
    });

  it('names at most its per-connection cap, running the rest unnamed with the right results', async () => {
    namedStatements({ namedAfter: 1, perConnection: 2, counted: 100 })(client);
    const texts = [1, 2, 3, 4].map((n) => `SELECT $1::int + ${n} AS sum`);
    for (let round = 0; round < 2; round++) {
      for (const [i, text] of texts.entries()) expect((await run(text, [10])).rows).toEqual([{ sum: 11 + i }]);
    }
    const prepared = await client.query("SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int + %' ORDER BY prepare_time");
    expect(prepared.rows.map((row) => row.statement)).toEqual(texts.slice(0, 2));
  });
});

/** A second knex handle on the same schema whose pool holds one connection. */
function openWithOneConnection(database: TestDatabase): Db {
  const handle = createDb(database.url, { searchPath: database.schema });
  handle.client.pool.max = 1;
  return handle;
}

/** DDL from a connection knex does not manage, as another server process running a migration would. */
async function alterElsewhere(database: TestDatabase, sql: string): Promise<void> {
  const other = new pg.Client(database.url);
  await other.connect();
  try {
    await other.query(`SET search_path TO "${database.schema}"`);
    await other.query(sql);
  } finally {
    await other.end();
  }
}
