import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../test/databases.js';
import { preparedAll, preparedFirst } from './prepared-read.js';

describe.each(TEST_DATABASES)('prepared reads (%s)', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await t.db.schema.createTable('prepared_read_items', (table) => {
      table.string('id').primary();
      table.string('owner').notNullable();
      table.integer('rank').notNullable();
    });
    await t.db('prepared_read_items').insert([
      { id: 'a1', owner: 'alice', rank: 2 },
      { id: 'a2', owner: 'alice', rank: 1 },
      { id: 'b1', owner: 'bob', rank: 1 },
    ]);
  });
  afterAll(() => t.destroy());

  it('reads every row of the parameter it is given, in the query order', async () => {
    const byOwner = preparedAll(t.db, (owner: string) => t.db('prepared_read_items').select('id', 'rank').where({ owner }).orderBy('rank'));
    expect(await byOwner('alice')).toEqual([
      { id: 'a2', rank: 1 },
      { id: 'a1', rank: 2 },
    ]);
    expect(await byOwner('bob')).toEqual([{ id: 'b1', rank: 1 }]);
    expect(await byOwner('nobody')).toEqual([]);
  });

  it('reads the first row, or nothing, with several parameters and a bound limit', async () => {
    const find = preparedFirst(t.db, (owner: string, id: string) => t.db('prepared_read_items').select('id').where({ owner, id }).first());
    expect(await find('alice', 'a1')).toEqual({ id: 'a1' });
    expect(await find('bob', 'a1')).toBeUndefined();
  });

  it('sees rows committed after it was first used', async () => {
    const byOwner = preparedAll(t.db, (owner: string) => t.db('prepared_read_items').select('id').where({ owner }).orderBy('id'));
    expect(await byOwner('carol')).toEqual([]);
    await t.db('prepared_read_items').insert({ id: 'c1', owner: 'carol', rank: 1 });
    expect(await byOwner('carol')).toEqual([{ id: 'c1' }]);
    await t.db.transaction(async (trx) => trx('prepared_read_items').where({ id: 'c1' }).delete());
    expect(await byOwner('carol')).toEqual([]);
  });
});
