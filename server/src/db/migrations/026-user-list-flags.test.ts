import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import type { Db } from '../knex.js';
import * as userListFlags from './026-user-list-flags.js';

const now = new Date(Date.UTC(2026, 0, 1));

/** Rows as the app writes them, with only what the flags depend on chosen. */
function rowsOf(db: Db) {
  return {
    async user(): Promise<string> {
      const id = randomUUID();
      await db('user_profiles').insert({ id, email: `${id}@flags.test`, role: 'user', trial_used: false, created_at: now, updated_at: now });
      return id;
    },
    async account(userId: string, status: string): Promise<string> {
      const id = randomUUID();
      await db('vpn_accounts').insert({ id, user_id: userId, username: `u_${id.slice(0, 18)}`, status, sub_token: randomUUID(), metadata: '{}', created_at: now, updated_at: now });
      return id;
    },
    async subscription(userId: string, status: string): Promise<string> {
      const id = randomUUID();
      await db('subscriptions').insert({ id, user_id: userId, status, metadata: '{}', created_at: now, updated_at: now });
      return id;
    },
    async flags(userId: string): Promise<{ active: number; pastDue: number }> {
      const row = await db('user_profiles').where({ id: userId }).first('active_accounts', 'past_due_subscriptions');
      return { active: Number(row.active_accounts), pastDue: Number(row.past_due_subscriptions) };
    },
    /** Every user whose kept counts differ from a count of their rows (none, when the triggers are right). */
    async drifted(): Promise<unknown[]> {
      return db('user_profiles as u')
        .select('u.id', 'u.active_accounts', 'u.past_due_subscriptions')
        .select(db.raw("(SELECT count(*) FROM vpn_accounts a WHERE a.user_id = u.id AND a.status = 'active') AS active"))
        .select(db.raw("(SELECT count(*) FROM subscriptions s WHERE s.user_id = u.id AND s.status = 'past_due') AS past_due"))
        .then((rows: Array<Record<string, unknown>>) => rows.filter((r) => Number(r.active) !== Number(r.active_accounts) || Number(r.past_due) !== Number(r.past_due_subscriptions)));
    },
  };
}

describe.each(TEST_DATABASES)('users’ active-account and past-due counts kept by triggers (%s)', (kind) => {
  let database: TestDatabase;
  let rows: ReturnType<typeof rowsOf>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    rows = rowsOf(database.db);
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('counts active accounts through inserts, status changes, a change of owner and deletes', async () => {
    const db = database.db;
    const [a, b] = [await rows.user(), await rows.user()];
    const first = await rows.account(a, 'active');
    const second = await rows.account(a, 'active');
    const expired = await rows.account(a, 'expired');
    expect(await rows.flags(a)).toEqual({ active: 2, pastDue: 0 });

    await db('vpn_accounts').where({ id: first }).update({ status: 'expired' });
    expect((await rows.flags(a)).active).toBe(1);
    await db('vpn_accounts').where({ id: expired }).update({ status: 'active' });
    expect((await rows.flags(a)).active).toBe(2);
    await db('vpn_accounts').where({ id: second }).update({ status: 'active', updated_at: new Date() }); // no change of status
    expect((await rows.flags(a)).active).toBe(2);

    await db('vpn_accounts').where({ id: second }).update({ user_id: b });
    expect([(await rows.flags(a)).active, (await rows.flags(b)).active]).toEqual([1, 1]);
    await db('vpn_accounts').where({ id: first }).update({ user_id: b }); // an expired one moves nothing
    expect([(await rows.flags(a)).active, (await rows.flags(b)).active]).toEqual([1, 1]);
    await db('vpn_accounts').where({ id: first }).update({ user_id: a, status: 'active' }); // both at once
    expect([(await rows.flags(a)).active, (await rows.flags(b)).active]).toEqual([2, 1]);

    await db('vpn_accounts').whereIn('user_id', [a, b]).update({ status: 'disabled' }); // many rows in one statement
    expect([(await rows.flags(a)).active, (await rows.flags(b)).active]).toEqual([0, 0]);
    await db('vpn_accounts').where({ id: second }).update({ status: 'active' });
    await db('vpn_accounts').where({ id: second }).del();
    await db('vpn_accounts').where({ id: expired }).del();
    expect([(await rows.flags(a)).active, (await rows.flags(b)).active]).toEqual([0, 0]);
    expect(await rows.drifted()).toEqual([]);
  });

  it('counts past-due subscriptions through inserts, status changes, a change of owner and deletes', async () => {
    const db = database.db;
    const [a, b] = [await rows.user(), await rows.user()];
    const late = await rows.subscription(a, 'past_due');
    const paid = await rows.subscription(a, 'active');
    await rows.subscription(a, 'past_due');
    expect(await rows.flags(a)).toEqual({ active: 0, pastDue: 2 });

    await db('subscriptions').where({ id: late }).update({ status: 'active' });
    expect((await rows.flags(a)).pastDue).toBe(1);
    await db('subscriptions').where({ id: paid }).update({ status: 'past_due' });
    expect((await rows.flags(a)).pastDue).toBe(2);
    await db('subscriptions').where({ id: paid }).update({ user_id: b });
    expect([(await rows.flags(a)).pastDue, (await rows.flags(b)).pastDue]).toEqual([1, 1]);
    await db('subscriptions').where({ id: paid }).del();
    await db('subscriptions').where({ user_id: a }).update({ status: 'canceled' });
    expect([(await rows.flags(a)).pastDue, (await rows.flags(b)).pastDue]).toEqual([0, 0]);
    expect(await rows.drifted()).toEqual([]);
  });

  it('deletes a user with their accounts and subscriptions, leaving everyone else’s counts as they were', async () => {
    const db = database.db;
    const [gone, stays] = [await rows.user(), await rows.user()];
    const shared = await rows.account(gone, 'active');
    await rows.subscription(gone, 'past_due');
    await rows.account(stays, 'active');
    await rows.subscription(stays, 'past_due');
    await db('subscriptions').insert({ id: randomUUID(), user_id: stays, vpn_account_id: shared, status: 'past_due', metadata: '{}', created_at: now, updated_at: now });

    await db('user_profiles').where({ id: gone }).del();
    expect(await db('vpn_accounts').where({ user_id: gone })).toEqual([]);
    expect(await db('subscriptions').where({ user_id: gone })).toEqual([]);
    expect(await rows.flags(stays)).toEqual({ active: 1, pastDue: 2 }); // the subscription that named the deleted account is still past due
    expect(await rows.drifted()).toEqual([]);
  });
});

describe.each(TEST_DATABASES)('migration 026-user-list-flags on an install with accounts and subscriptions before it (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await userListFlags.down(database.db); // back to users without counts
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('fills in every user’s counts, and keeps them from then on', async () => {
    const db = database.db;
    const rows = rowsOf(db);
    const users = await Promise.all(Array.from({ length: 6 }, () => rows.user()));
    for (const [i, id] of users.entries()) {
      for (let n = 0; n < i % 3; n += 1) await rows.account(id, 'active');
      if (i % 2 === 0) await rows.account(id, 'expired');
      for (let n = 0; n < i % 4; n += 1) await rows.subscription(id, n % 2 === 0 ? 'past_due' : 'active');
    }
    await userListFlags.up(db);

    expect(await Promise.all(users.map((id) => rows.flags(id)))).toEqual([
      { active: 0, pastDue: 0 }, { active: 1, pastDue: 1 }, { active: 2, pastDue: 1 },
      { active: 0, pastDue: 2 }, { active: 1, pastDue: 0 }, { active: 2, pastDue: 1 },
    ]);
    await rows.account(users[0]!, 'active');
    expect(await rows.flags(users[0]!)).toEqual({ active: 1, pastDue: 0 });
    expect(await rows.drifted()).toEqual([]);
  });
});
