import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import type { Db } from '../knex.js';
import { toDateOrNull } from '../values.js';

const now = new Date(Date.UTC(2026, 0, 1));
const day = (n: number) => new Date(now.getTime() + n * 24 * 3600_000);

/** Rows as the app writes them, with only what the kept columns depend on chosen. */
function rowsOf(db: Db) {
  return {
    async user(): Promise<string> {
      const id = randomUUID();
      await db('user_profiles').insert({ id, email: `${id}@paid-state.test`, role: 'user', trial_used: false, created_at: now, updated_at: now });
      return id;
    },
    async account(userId: string): Promise<string> {
      const id = randomUUID();
      await db('vpn_accounts').insert({ id, user_id: userId, username: `u_${id.slice(0, 18)}`, status: 'active', sub_token: randomUUID(), metadata: '{}', created_at: now, updated_at: now });
      return id;
    },
    async subscription(userId: string, accountId: string | null): Promise<string> {
      const id = randomUUID();
      await db('subscriptions').insert({ id, user_id: userId, vpn_account_id: accountId, status: 'active', metadata: '{}', created_at: now, updated_at: now });
      return id;
    },
    async transaction(userId: string, subscriptionId: string, status: string): Promise<string> {
      const id = randomUUID();
      await db('transactions').insert({ id, subscription_id: subscriptionId, user_id: userId, status, amount: 500, metadata: '{}', created_at: now, updated_at: now });
      return id;
    },
    async period(accountId: string | null, transactionId: string, subscriptionId: string, endsAt: Date): Promise<string> {
      const id = randomUUID();
      await db('paid_periods').insert({
        id, vpn_account_id: accountId, transaction_id: transactionId, subscription_id: subscriptionId, starts_at: now, ends_at: endsAt, created_at: now, updated_at: now,
      });
      return id;
    },
    async state(accountId: string): Promise<{ paidUntil: Date | null; confirmed: boolean }> {
      const row = await db('vpn_accounts').where({ id: accountId }).first('paid_until', 'payment_confirmed');
      return { paidUntil: toDateOrNull(row.paid_until), confirmed: Boolean(row.payment_confirmed) };
    },
    /** Every account whose kept columns differ from what its rows say (none, when the triggers are right). */
    async drifted(): Promise<unknown[]> {
      const rows: Array<Record<string, unknown>> = await db('vpn_accounts as a')
        .select('a.id', 'a.paid_until', 'a.payment_confirmed')
        .select(db.raw('(SELECT max(pp.ends_at) FROM paid_periods pp WHERE pp.vpn_account_id = a.id AND pp.voided_at IS NULL) AS read_paid_until'))
        .select(db.raw("EXISTS (SELECT 1 FROM subscriptions ps JOIN transactions pt ON pt.subscription_id = ps.id WHERE ps.vpn_account_id = a.id AND pt.status = 'succeeded') AS read_confirmed"));
      return rows.filter((r) => toDateOrNull(r.paid_until)?.getTime() !== toDateOrNull(r.read_paid_until)?.getTime() || Boolean(r.payment_confirmed) !== Boolean(r.read_confirmed));
    },
  };
}

describe.each(TEST_DATABASES)('accounts’ paid-until and payment-confirmed kept by triggers (%s)', (kind) => {
  let database: TestDatabase;
  let rows: ReturnType<typeof rowsOf>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    rows = rowsOf(database.db);
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('follows succeeded payments through inserts, status changes, a subscription moving to another account and deletes', async () => {
    const db = database.db;
    const user = await rows.user();
    const [a, b] = [await rows.account(user), await rows.account(user)];
    const sub = await rows.subscription(user, a);
    const first = await rows.transaction(user, sub, 'pending');
    expect((await rows.state(a)).confirmed).toBe(false);

    await db('transactions').where({ id: first }).update({ status: 'succeeded' });
    expect((await rows.state(a)).confirmed).toBe(true);
    const second = await rows.transaction(user, sub, 'succeeded');
    await db('transactions').where({ id: first }).update({ status: 'refunded' });
    expect((await rows.state(a)).confirmed).toBe(true); // the second still counts
    await db('transactions').where({ id: second }).del();
    expect((await rows.state(a)).confirmed).toBe(false);

    await db('transactions').where({ id: first }).update({ status: 'succeeded' });
    await db('subscriptions').where({ id: sub }).update({ vpn_account_id: b });
    expect([(await rows.state(a)).confirmed, (await rows.state(b)).confirmed]).toEqual([false, true]);
    const other = await rows.subscription(user, a);
    await db('transactions').where({ id: first }).update({ subscription_id: other });
    expect([(await rows.state(a)).confirmed, (await rows.state(b)).confirmed]).toEqual([true, false]);
    await db('transactions').whereIn('subscription_id', [sub, other]).update({ status: 'failed' }); // many rows in one statement
    expect((await rows.state(a)).confirmed).toBe(false);
    await db('transactions').where({ id: first }).update({ status: 'succeeded' });
    await db('subscriptions').where({ id: other }).del(); // its transactions go with it
    expect((await rows.state(a)).confirmed).toBe(false);
    expect(await rows.drifted()).toEqual([]);
  });

  it('follows the latest end of the periods not void through inserts, voids, moves, a change of account and deletes', async () => {
    const db = database.db;
    const user = await rows.user();
    const [a, b] = [await rows.account(user), await rows.account(user)];
    const sub = await rows.subscription(user, a);
    const [t1, t2, t3] = [await rows.transaction(user, sub, 'succeeded'), await rows.transaction(user, sub, 'succeeded'), await rows.transaction(user, sub, 'succeeded')];
    expect((await rows.state(a)).paidUntil).toBeNull();

    const p1 = await rows.period(a, t1, sub, day(30));
    expect((await rows.state(a)).paidUntil).toEqual(day(30));
    const p2 = await rows.period(a, t2, sub, day(60));
    expect((await rows.state(a)).paidUntil).toEqual(day(60));
    await db('paid_periods').where({ id: p2 }).update({ voided_at: now, void_reason: 'refunded' });
    expect((await rows.state(a)).paidUntil).toEqual(day(30));
    await db('paid_periods').where({ id: p1 }).update({ ends_at: day(20) }); // moved back
    expect((await rows.state(a)).paidUntil).toEqual(day(20));
    await db('paid_periods').where({ id: p1 }).update({ updated_at: day(1) }); // nothing read changes
    expect((await rows.state(a)).paidUntil).toEqual(day(20));

    await db('paid_periods').where({ id: p1 }).update({ vpn_account_id: b });
    expect([(await rows.state(a)).paidUntil, (await rows.state(b)).paidUntil]).toEqual([null, day(20)]);
    const waiting = await rows.period(null, t3, sub, day(90)); // paid after its account was removed: waits for a new one
    expect(await rows.drifted()).toEqual([]);
    await db('paid_periods').where({ id: waiting }).update({ vpn_account_id: a });
    expect((await rows.state(a)).paidUntil).toEqual(day(90));

    await db('transactions').where({ id: t3 }).del(); // its period goes with it
    expect((await rows.state(a)).paidUntil).toBeNull();
    await db('vpn_accounts').where({ id: b }).del(); // its periods stay, without an account
    expect(await db('paid_periods').where({ id: p1 }).first('vpn_account_id')).toEqual({ vpn_account_id: null });
    expect(await rows.drifted()).toEqual([]);
  });
});
