import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../test/databases.js';
import { createCommitToken, type CommitToken } from './commit-token.js';
import { createDb, type Db } from './knex.js';

describe.each(TEST_DATABASES)('commit token (%s)', (kind) => {
  let database: TestDatabase;
  let token: CommitToken;
  const db = () => database.db;
  const addUser = (on: Db = db()) =>
    on('user_profiles').insert({
      id: randomUUID(),
      email: `${randomUUID()}@token.test`,
      role: 'user',
      trial_used: false,
      created_at: new Date(),
      updated_at: new Date(),
    });
  /**
   * Two reads in a row with no commit between them. PostgreSQL's token is the whole cluster's, and the other
   * test files write to it at the same time: there, two reads in a row are equal only in a quiet moment.
   */
  async function quietPair(): Promise<[string | undefined, string | undefined]> {
    let pair: [string | undefined, string | undefined] = [undefined, undefined];
    for (let attempt = 0; attempt < (kind === 'postgres' ? 200 : 1); attempt++) {
      pair = [await token(), await token()];
      if (pair[0] === pair[1]) break;
    }
    return pair;
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    token = createCommitToken(db());
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('stays while nothing is committed: reads commit nothing', async () => {
    await db()('user_profiles').count('* as n');
    const [first, second] = await quietPair();
    expect(first).toEqual(expect.any(String));
    expect(second).toBe(first);
  });

  it('moves with every commit of the app, not before it', async () => {
    const before = await token();
    await addUser();
    const afterOne = await token();
    expect(afterOne).not.toBe(before);
    await db().transaction(async (trx) => {
      await addUser(trx);
      if (kind === 'sqlite') expect(await token()).toBe(afterOne); // written, not yet committed
    });
    expect(await token()).not.toBe(afterOne);
  });

  it('moves with a commit made by another process', async () => {
    const other = createDb(database.url, database.schema ? { searchPath: database.schema } : {});
    try {
      const before = await token();
      await addUser(other);
      expect(await token()).not.toBe(before);
    } finally {
      await other.destroy();
    }
  });
});

describe('commit token of an in-memory SQLite', () => {
  it('is none: there is no second connection to watch', async () => {
    const db = createDb('sqlite::memory:');
    try {
      expect(await createCommitToken(db)()).toBeUndefined();
    } finally {
      await db.destroy();
    }
  });
});
