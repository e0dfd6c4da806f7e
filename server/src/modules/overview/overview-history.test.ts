import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { addDays, createDailyStatsRepo, DAILY_METRICS, utcDay, WHOLE_SHOP } from './daily-stats.repo.js';
import { createOverviewRepo } from './overview.repo.js';
import { createOverviewService, type OverviewService } from './overview.service.js';

const DAY_MS = 86_400_000;

/**
 * The overview keeps the days before yesterday in memory, with the `overview_history` version (migration
 * 029) they were read at. The triggers compare days with the database's own today, so this suite runs on
 * the real date: a past day changed shows on the next request, today's writes leave the version alone.
 */
describe.each(TEST_DATABASES)('overview history kept in memory (%s)', (kind) => {
  let database: TestDatabase;
  const db = () => database.db;
  let now: Date;
  let overview: OverviewService;
  /** A time on the UTC day `offset` days from the test's today. */
  const at = (offset: number) => new Date(`${addDays(utcDay(now), offset)}T12:00:00.000Z`);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // Noon today, so "today" is the database's today too whatever the hour the suite runs at.
    now = new Date(`${utcDay(new Date())}T12:00:00.000Z`);
    overview = createOverviewService({
      repo: createOverviewRepo(db()),
      stats: createDailyStatsRepo(db()),
      settings: { getAppSettings: async () => ({ currency: 'usd' }) as never },
      clock: () => now,
    });
  });
  afterAll(async () => {
    await database.destroy();
  });

  async function addUser(createdAt: Date): Promise<string> {
    const id = randomUUID();
    await db()('user_profiles').insert({ id, email: `${id}@history.test`, role: 'user', trial_used: false, created_at: createdAt, updated_at: createdAt });
    return id;
  }
  async function addPayment(userId: string, createdAt: Date, amount: number): Promise<string> {
    const subscriptionId = randomUUID();
    await db()('subscriptions').insert({ id: subscriptionId, user_id: userId, status: 'active', metadata: '{}', created_at: createdAt, updated_at: createdAt });
    const id = randomUUID();
    await db()('transactions').insert({
      id,
      subscription_id: subscriptionId,
      user_id: userId,
      status: 'succeeded',
      amount,
      amount_refunded: 0,
      currency: 'usd',
      metadata: '{}',
      created_at: createdAt,
      updated_at: createdAt,
    });
    return id;
  }
  const version = async () => Number((await db()('overview_history').where({ id: 1 }).first()).version);
  const on = (figures: { dates: string[] }, series: number[], offset: number) => series[figures.dates.indexOf(addDays(utcDay(now), offset))];

  it('a refund of a payment from 10 days ago shows on the next request', async () => {
    const user = await addUser(at(-10));
    const payment = await addPayment(user, at(-10), 2_000);
    const before = await overview.getOverview(30);
    expect(on(before, before.revenue, -10)).toBe(2_000);
    expect(before.totals.revenue).toBe(2_000);

    const marker = await version();
    await db()('transactions').where({ id: payment }).update({ status: 'refunded', amount_refunded: 500, updated_at: now });
    expect(await version()).toBeGreaterThan(marker);
    const after = await overview.getOverview(30);
    expect(on(after, after.revenue, -10)).toBe(1_500);
    expect(after.totals.revenue).toBe(1_500);
  });

  it('a signup and a payment today show at once, and leave the history version alone', async () => {
    const before = await overview.getOverview(30);
    const marker = await version();
    const user = await addUser(now);
    await addPayment(user, now, 700);
    await createDailyStatsRepo(db()).setValue({ metric: DAILY_METRICS.activeAccounts, day: utcDay(now), serverId: WHOLE_SHOP, value: 3 }, now);
    expect(await version()).toBe(marker);
    const after = await overview.getOverview(30);
    expect(on(after, after.signups, 0)).toBe(on(before, before.signups, 0)! + 1);
    expect(after.totals).toMatchObject({ users: before.totals.users + 1, revenue: before.totals.revenue + 700, signups: before.totals.signups + 1 });
  });

  it('an old user deleted and a late snapshot of a past day show on the next request', async () => {
    const old = await addUser(at(-20));
    const before = await overview.getOverview(90);
    expect(on(before, before.signups, -20)).toBe(1);
    await db()('user_profiles').where({ id: old }).delete();
    await createDailyStatsRepo(db()).setValue({ metric: DAILY_METRICS.activeAccounts, day: addDays(utcDay(now), -5), serverId: WHOLE_SHOP, value: 42 }, now);
    const after = await overview.getOverview(90);
    expect(on(after, after.signups, -20)).toBe(0);
    expect(on(after, after.activeAccounts as number[], -5)).toBe(42);
    expect(after.totals.users).toBe(before.totals.users - 1);
  });

  it('a new day moves yesterday into the days kept, with its figures', async () => {
    const start = now;
    try {
      const user = await addUser(at(-1));
      await addPayment(user, at(-1), 300);
      const first = await overview.getOverview(7);
      const yesterday = addDays(utcDay(now), -1);
      const signupsYesterday = first.signups[first.dates.indexOf(yesterday)]!;
      expect(first.revenue[first.dates.indexOf(yesterday)]).toBe(300);

      // Two days on (as the app's clock sees them): yesterday is now before the day the requests read fresh.
      now = new Date(start.getTime() + 2 * DAY_MS);
      const later = await overview.getOverview(7);
      expect(later.dates.at(-1)).toBe(utcDay(now));
      expect(later.signups[later.dates.indexOf(yesterday)]).toBe(signupsYesterday);
      expect(later.revenue[later.dates.indexOf(yesterday)]).toBe(300);
      expect(later.dates).toHaveLength(7);
      // Asked again with nothing changed: the same answer, the kept days from memory.
      expect(await overview.getOverview(7)).toEqual(later);
    } finally {
      now = start;
    }
  });
});
