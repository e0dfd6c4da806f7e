import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { toDate, toDateOrNull, toJson } from '../values.js';
import * as paidPeriods from './022-paid-periods.js';

const DAY_MS = 24 * 3600 * 1000;
const T0 = new Date('2026-01-01T00:00:00Z').getTime();
const at = (days: number) => new Date(T0 + days * DAY_MS);

/**
 * The backfill reads what held the paid periods before the ledger: a one-off subscription's current
 * period, and a recurring invoice's period in its transaction's metadata.
 */
describe.each(TEST_DATABASES)('migration 022: the paid-period ledger backfill (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => database?.destroy());

  it('copies one-off and recurring periods, voids refunded ones, and moves a recurring renewal back by a refunded invoice', async () => {
    const { db } = database;
    await db.schema.dropTable('paid_periods');
    await db('user_profiles').insert({ id: 'u1', email: `backfill-${kind}@example.com`, created_at: at(0), updated_at: at(0) });
    await db('plans').insert({ id: 'p1', name: 'Plan', days: 30, data_limit: 0, price: 499, created_at: at(0), updated_at: at(0) });
    for (const id of ['a1', 'a2']) {
      await db('vpn_accounts').insert({ id, user_id: 'u1', plan_id: 'p1', username: `user_${id}`, status: 'active', data_limit: 0, sub_token: `tok_${id}`, metadata: '{}', created_at: at(0), updated_at: at(0) });
    }
    const subscription = (id: string, account: string, billing: string, status: string, period: [number, number] | null) => db('subscriptions').insert({
      id, user_id: 'u1', vpn_account_id: account, plan_id: 'p1', status, billing, cancel_at_period_end: false, metadata: '{}', created_at: at(0), updated_at: at(0),
      current_period_start: period ? at(period[0]) : null, current_period_end: period ? at(period[1]) : null,
    });
    const transaction = (id: string, sub: string, status: string, metadata: Record<string, unknown> = {}) => db('transactions').insert({
      id, subscription_id: sub, user_id: 'u1', status, amount: 499, currency: 'usd', metadata: toJson(metadata), created_at: at(0), updated_at: at(1),
    });
    // Account a1: a purchase, a refunded renewal, and a renewal moved back already (as takeBackPeriod did).
    await subscription('s1', 'a1', 'one_off', 'active', [0, 30]);
    await transaction('t1', 's1', 'succeeded');
    await subscription('s2', 'a1', 'one_off', 'canceled', [30, 60]);
    await transaction('t2', 's2', 'refunded');
    await subscription('s3', 'a1', 'one_off', 'active', [30, 60]);
    await transaction('t3', 's3', 'succeeded');
    await subscription('s4', 'a1', 'one_off', 'incomplete', null);
    await transaction('t4', 's4', 'failed');
    // Account a2: a recurring subscription whose first invoice was lost in a dispute; its renewal moves back.
    await subscription('s5', 'a2', 'recurring', 'canceled', [30, 30]);
    await transaction('t5', 's5', 'refunded', { period_start: at(0).toISOString(), period_end: at(30).toISOString(), dispute: { id: 'dp', status: 'lost' } });
    await transaction('t6', 's5', 'succeeded', { period_start: at(30).toISOString(), period_end: at(61).toISOString() });

    await paidPeriods.up(db);

    const rows: Array<Record<string, unknown>> = await db('paid_periods').orderBy('transaction_id', 'asc');
    expect(rows.map((row) => ({
      tx: row.transaction_id, account: row.vpn_account_id, start: toDate(row.starts_at).getTime(), end: toDate(row.ends_at).getTime(),
      voided: toDateOrNull(row.voided_at) !== null, reason: row.void_reason ?? null,
    }))).toEqual([
      { tx: 't1', account: 'a1', start: at(0).getTime(), end: at(30).getTime(), voided: false, reason: null },
      { tx: 't2', account: 'a1', start: at(30).getTime(), end: at(60).getTime(), voided: true, reason: 'refunded' },
      { tx: 't3', account: 'a1', start: at(30).getTime(), end: at(60).getTime(), voided: false, reason: null },
      { tx: 't5', account: 'a2', start: at(0).getTime(), end: at(30).getTime(), voided: true, reason: 'dispute_lost' },
      { tx: 't6', account: 'a2', start: at(0).getTime(), end: at(31).getTime(), voided: false, reason: null },
    ]);
  });
});
