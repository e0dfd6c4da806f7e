import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';

const created = new Date(Date.UTC(2026, 2, 3, 12));

describe.each(TEST_DATABASES)('discounts counted per day by the payments triggers (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.destroy();
  });

  const counted = async (metric: string, currency = 'eur') =>
    Number((await database.db('overview_counts').where({ metric, day: '2026-03-03', currency }).first())?.value ?? 0);

  it('counts a succeeded payment’s discount on its day and currency, and takes it off when refunded or deleted', async () => {
    const { db } = database;
    const userId = randomUUID();
    const subscriptionId = randomUUID();
    const transactionId = randomUUID();
    await db('user_profiles').insert({ id: userId, email: `${userId}@discounts.test`, role: 'user', trial_used: false, created_at: created, updated_at: created });
    await db('subscriptions').insert({ id: subscriptionId, user_id: userId, status: 'incomplete', metadata: '{}', created_at: created, updated_at: created });
    await db('transactions').insert({ id: transactionId, subscription_id: subscriptionId, user_id: userId, status: 'pending', amount: 800, discount: 200, currency: 'eur', metadata: '{}', created_at: created, updated_at: created });
    expect(await counted('discounts')).toBe(0);

    await db('transactions').where({ id: transactionId }).update({ status: 'succeeded' });
    expect([await counted('revenue'), await counted('discounts')]).toEqual([800, 200]);
    // Another currency is its own figure.
    expect(await counted('discounts', 'usd')).toBe(0);

    await db('transactions').where({ id: transactionId }).update({ status: 'refunded', amount_refunded: 800 });
    expect([await counted('revenue'), await counted('discounts')]).toEqual([0, 0]);
    await db('transactions').where({ id: transactionId }).update({ status: 'succeeded', amount_refunded: 0 });
    await db('transactions').where({ id: transactionId }).delete();
    expect([await counted('revenue'), await counted('discounts')]).toEqual([0, 0]);
  });
});
