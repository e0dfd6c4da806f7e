import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import * as overviewCounts from '../../db/migrations/025-overview-counts.js';
import { toDate } from '../../db/values.js';
import { addDays, createDailyStatsRepo, utcDay } from './daily-stats.repo.js';
import { createOverviewRepo } from './overview.repo.js';
import { createOverviewService } from './overview.service.js';

const TODAY = '2026-03-15';
/** A time on the UTC day `offset` days from today. */
const at = (offset: number, time = '12:00:00.000') => new Date(`${addDays(TODAY, offset)}T${time}Z`);
const EARNING = ['succeeded', 'refunded'];

/**
 * `overview_counts` (migration 025) is kept by triggers: whatever writes users, VPN accounts or payments
 * (one row, many rows in one statement, a cascade, a status rewritten to itself), every counter equals a
 * count of the rows as they are.
 */
describe.each(TEST_DATABASES)('overview counters kept by triggers (%s)', (kind) => {
  let database: TestDatabase;
  const db = () => database.db;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.destroy();
  });

  // Factories: rows as the app writes them.
  const userRow = (createdAt: Date) => {
    const id = randomUUID();
    return { id, email: `${id}@counts.test`, role: 'user', trial_used: false, created_at: createdAt, updated_at: createdAt };
  };
  const accountRow = (userId: string, createdAt: Date, options: { status?: string; trial?: boolean } = {}) => {
    const id = randomUUID();
    return {
      id,
      user_id: userId,
      username: `u_${id.slice(0, 12)}`,
      status: options.status ?? 'active',
      sub_token: randomUUID(),
      metadata: '{}',
      trial_user_id: options.trial ? userId : null,
      created_at: createdAt,
      updated_at: createdAt,
    };
  };
  async function addUser(createdAt: Date): Promise<string> {
    const row = userRow(createdAt);
    await db()('user_profiles').insert(row);
    return row.id;
  }
  async function addAccount(userId: string, createdAt: Date, options: { status?: string; trial?: boolean } = {}): Promise<string> {
    const row = accountRow(userId, createdAt, options);
    await db()('vpn_accounts').insert(row);
    return row.id;
  }
  async function addPayment(
    userId: string,
    createdAt: Date,
    payment: { status: string; amount: number; refunded?: number; currency?: string },
  ): Promise<string> {
    const subscriptionId = randomUUID();
    await db()('subscriptions').insert({ id: subscriptionId, user_id: userId, status: 'active', metadata: '{}', created_at: createdAt, updated_at: createdAt });
    const id = randomUUID();
    await db()('transactions').insert({
      id,
      subscription_id: subscriptionId,
      user_id: userId,
      status: payment.status,
      amount: payment.amount,
      amount_refunded: payment.refunded ?? 0,
      currency: payment.currency ?? 'usd',
      metadata: '{}',
      created_at: createdAt,
      updated_at: createdAt,
    });
    return id;
  }

  /** Every counter, counted afresh from the rows (in JavaScript, so no SQL of the triggers is reused). */
  async function freshCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    const add = (key: string, value: number) => (counts[key] = (counts[key] ?? 0) + value);
    for (const user of await db()('user_profiles').select('created_at')) {
      add(`signups|${utcDay(toDate(user.created_at))}|`, 1);
      add('users||', 1);
    }
    for (const account of await db()('vpn_accounts').select('created_at', 'status', 'trial_user_id')) {
      if (account.trial_user_id !== null) add(`trials|${utcDay(toDate(account.created_at))}|`, 1);
      if (account.status === 'active') add('active_accounts||', 1);
    }
    for (const payment of await db()('transactions').whereIn('status', EARNING).select('created_at', 'currency', 'amount', 'amount_refunded')) {
      add(`revenue|${utcDay(toDate(payment.created_at))}|${payment.currency}`, Number(payment.amount) - Number(payment.amount_refunded));
    }
    return Object.fromEntries(Object.entries(counts).filter(([, value]) => value !== 0));
  }
  async function counters(): Promise<Record<string, number>> {
    const rows = await db()('overview_counts').select('metric', 'day', 'currency', 'value');
    return Object.fromEntries(rows.filter((row) => Number(row.value) !== 0).map((row) => [`${row.metric}|${row.day}|${row.currency}`, Number(row.value)]));
  }
  const expectExact = async () => expect(await counters()).toEqual(await freshCounts());

  it('counts rows inserted one at a time and many in one statement', async () => {
    const first = await addUser(at(0, '00:00:00.000'));
    await addUser(at(-1, '23:59:59.999'));
    await addAccount(first, at(-3), { trial: true });
    await addAccount(first, at(-3, '23:00:00.000'), { status: 'expired' });
    await addPayment(first, at(-2), { status: 'succeeded', amount: 999 });
    await addPayment(first, at(-2), { status: 'pending', amount: 500 });
    await addPayment(first, at(-1), { status: 'succeeded', amount: 700, currency: 'eur' });
    await expectExact();
    expect(await counters()).toMatchObject({ 'users||': 2, 'active_accounts||': 1, [`revenue|${addDays(TODAY, -2)}|usd`]: 999 });

    const users = Array.from({ length: 300 }, (_, i) => userRow(at(-(i % 40), `0${i % 10}:00:00.000`)));
    for (let i = 0; i < users.length; i += 100) await db()('user_profiles').insert(users.slice(i, i + 100));
    await db()('vpn_accounts').insert(
      users.slice(0, 100).map((user, i) => accountRow(user.id, user.created_at, { trial: i % 3 === 0, status: i % 4 === 0 ? 'expired' : 'active' })),
    );
    await expectExact();
  });

  it('follows status changes, refunds and moves, and ignores rewrites that change nothing counted', async () => {
    const user = await addUser(at(-10));
    const account = await addAccount(user, at(-5), { trial: true });
    const before = await counters();

    await db()('vpn_accounts')
      .where({ id: account })
      .update({ status: 'active', usage_checked_at: at(0) }); // the panel sync rewrites the same status
    await db()('user_profiles')
      .where({ id: user })
      .update({ trial_used: true, updated_at: at(0) });
    expect(await counters()).toEqual(before);

    await db()('vpn_accounts').where({ id: account }).update({ status: 'expired' });
    await expectExact();
    await db()('vpn_accounts').where({ id: account }).update({ status: 'active', trial_user_id: null });
    await expectExact();
    await db()('vpn_accounts')
      .where({ id: account })
      .update({ created_at: at(-20), trial_user_id: user });
    await db()('user_profiles')
      .where({ id: user })
      .update({ created_at: at(-30) });
    await expectExact();
    await db()('vpn_accounts').where({ status: 'active' }).update({ status: 'disabled' }); // many rows in one statement
    await expectExact();
    expect((await counters())['active_accounts||']).toBeUndefined();

    const payment = await addPayment(user, at(-1, '23:30:00.000'), { status: 'pending', amount: 1299 });
    await db()('transactions').where({ id: payment }).update({ status: 'succeeded' });
    await expectExact();
    await db()('transactions').where({ id: payment }).update({ amount_refunded: 300 });
    await expectExact();
    await db()('transactions').where({ id: payment }).update({ status: 'refunded', amount_refunded: 1299 });
    await expectExact();
    await db()('transactions').where({ id: payment }).update({ status: 'disputed' });
    await expectExact();
    await db()('transactions')
      .where({ id: payment })
      .update({ status: 'succeeded', amount_refunded: 0, currency: 'eur', amount: 2000, created_at: at(-4) });
    await expectExact();
  });

  it('takes deleted rows off what they counted, cascades included', async () => {
    const user = await addUser(at(-200));
    await addAccount(user, at(-150), { trial: true });
    await addAccount(user, at(-100));
    const payment = await addPayment(user, at(-100), { status: 'succeeded', amount: 5000 });
    await addPayment(user, at(-99), { status: 'refunded', amount: 5000, refunded: 1000 });
    await expectExact();

    await db()('transactions').where({ id: payment }).delete();
    await expectExact();
    const others = await db()('vpn_accounts').whereNot({ user_id: user }).limit(5).pluck('id');
    await db()('vpn_accounts').whereIn('id', others).delete();
    await expectExact();
    await db()('user_profiles').where({ id: user }).delete(); // its accounts, subscriptions and payments go with it
    expect(await db()('vpn_accounts').where({ user_id: user })).toEqual([]);
    await expectExact();
  });

  it('a purge of old users and payments moves only their old days and the figures about now, never today or the last 90 days', async () => {
    const clock = () => at(0, '15:00:00.000');
    const overview = createOverviewService({
      repo: createOverviewRepo(db()),
      stats: createDailyStatsRepo(db()),
      settings: { getAppSettings: async () => ({ currency: 'usd' }) as never },
      clock,
    });
    const old = await Promise.all([addUser(at(-400)), addUser(at(-300))]);
    for (const user of old) {
      await addAccount(user, at(-250), { status: 'active' });
      await addPayment(user, at(-200), { status: 'succeeded', amount: 10_000 });
    }
    const recent = await addUser(at(0, '09:00:00.000'));
    await addPayment(recent, at(0, '10:00:00.000'), { status: 'succeeded', amount: 800 });
    const before = await overview.getOverview(90);

    await db()('user_profiles').whereIn('id', old).delete();

    const after = await overview.getOverview(90);
    expect({ ...after, totals: undefined }).toEqual({
      ...before,
      totals: undefined,
      activeAccounts: [...before.activeAccounts.slice(0, -1), before.totals.activeAccounts - 2],
    });
    expect(after.totals).toEqual({ ...before.totals, users: before.totals.users - 2, activeAccounts: before.totals.activeAccounts - 2 });
    expect(after.signups.at(-1)).toBe(before.signups.at(-1));
    expect(after.revenue.at(-1)).toBe(before.revenue.at(-1));
    await expectExact();
    // No counter of a day went below zero: what was taken off had been counted.
    expect(await db()('overview_counts').where('value', '<', 0)).toEqual([]);
  });

  it('the migration counts the rows that were there before it', async () => {
    await overviewCounts.down(db());
    const user = await addUser(at(-2));
    await addAccount(user, at(-1), { trial: true });
    await addPayment(user, at(-1), { status: 'succeeded', amount: 1234, currency: 'eur' });
    await db()('daily_stats').insert({ metric: 'users_total', day: TODAY, server_id: '', value: 7, updated_at: at(0) });
    await overviewCounts.up(db());
    await expectExact();
    expect(await db()('daily_stats').where({ metric: 'users_total' })).toEqual([]);
    await addUser(at(0)); // and the triggers keep them from then on
    await expectExact();
  });

  it('writers at the same moment, each in its own transaction, all count', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        db().transaction(async (trx) => {
          const user = userRow(at(0));
          await trx('user_profiles').insert(user);
          await trx('vpn_accounts').insert(accountRow(user.id, at(0), { trial: i % 2 === 0 }));
          const subscriptionId = randomUUID();
          await trx('subscriptions').insert({ id: subscriptionId, user_id: user.id, status: 'active', metadata: '{}', created_at: at(0), updated_at: at(0) });
          await trx('transactions').insert({
            id: randomUUID(),
            subscription_id: subscriptionId,
            user_id: user.id,
            status: 'succeeded',
            amount: 100 + i,
            amount_refunded: 0,
            currency: 'usd',
            metadata: '{}',
            created_at: at(0),
            updated_at: at(0),
          });
        }),
      ),
    );
    await expectExact();
  });
});
