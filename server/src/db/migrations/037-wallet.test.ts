import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import * as wallet from './037-wallet.js';

describe.each(TEST_DATABASES)('migration 037-wallet on a database with referral credit (%s)', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
    await wallet.down(database.db); // back to referral_credits
  });
  afterEach(async () => {
    await database.destroy();
  });

  it('keeps every movement, its id and its sequence as the wallet ledger, with a memo column beside the note', async () => {
    const { db } = database;
    const now = new Date(Date.UTC(2026, 10, 1));
    const userId = randomUUID();
    await db('user_profiles').insert({ id: userId, email: `${userId}@example.com`, created_at: now, updated_at: now });
    await db('referral_credits').insert([
      { user_id: userId, kind: 'earned', amount: 300, currency: 'usd', available_at: now, note: null, created_at: now },
      { user_id: userId, kind: 'spent', amount: -100, currency: 'usd', available_at: now, note: 'purchase', created_at: now },
    ]);
    const before = await db('referral_credits').select('id', 'kind', 'amount').orderBy('id');

    await wallet.up(db);
    expect(await db('wallet_movements').select('id', 'kind', 'amount').orderBy('id')).toEqual(before);
    expect(await db.schema.hasTable('referral_credits')).toBe(false);
    // New movements continue the same sequence.
    const [next] = await db('wallet_movements').insert({ user_id: userId, kind: 'adjustment', amount: 50, currency: 'usd', available_at: now, memo: 'Goodwill', created_at: now }).returning('id');
    expect(Number(typeof next === 'object' ? next.id : next)).toBeGreaterThan(Number(before.at(-1)!.id));
    expect((await db('wallet_movements').where({ kind: 'adjustment' }).first()).memo).toBe('Goodwill');
  });
});
