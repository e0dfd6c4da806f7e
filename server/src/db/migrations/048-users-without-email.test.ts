import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import * as usersWithoutEmail from './048-users-without-email.js';

const now = new Date('2026-12-01T00:00:00Z');
const user = (id: string, email: string | null) => ({ id, email, created_at: now, updated_at: now });

/** A Telegram-only customer has no address; everything user_profiles carried (unique addresses, counters, cascades) still holds. */
describe.each(TEST_DATABASES)('migration 048: users without an e-mail (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => database?.destroy());

  it('takes users with no address, keeps addresses unique, and keeps the counting triggers and cascades', async () => {
    const { db } = database;
    const users = async () => Number((await db('overview_counts').where({ metric: 'users', day: '' }).first('value'))?.value ?? 0);
    const before = await users();
    await db('user_profiles').insert([user('n1', null), user('n2', null), user('e1', 'one@example.com')]);
    expect(await users()).toBe(before + 3);
    await expect(db('user_profiles').insert(user('e2', 'one@example.com'))).rejects.toThrow(/unique/i);

    await db('plans').insert({ id: 'p1', name: 'Plan', days: 30, data_limit: 0, price: 0, created_at: now, updated_at: now });
    await db('vpn_accounts').insert({
      id: 'a1', user_id: 'n1', plan_id: 'p1', username: 'tg_only', status: 'active', data_limit: 0, sub_token: 'tok_tg_only',
      metadata: '{}', created_at: now, updated_at: now,
    });
    await db('user_profiles').where({ id: 'n1' }).del();
    expect(await db('vpn_accounts').where({ id: 'a1' }).first()).toBeUndefined();
    expect(await users()).toBe(before + 2);
  });

  it('goes down only while every user has an address, and up again', async () => {
    const { db } = database;
    await expect(usersWithoutEmail.down(db)).rejects.toThrow();
    await db('user_profiles').whereNull('email').del();
    await usersWithoutEmail.down(db);
    await expect(db('user_profiles').insert(user('n3', null))).rejects.toThrow(/null/i);
    await usersWithoutEmail.up(db);
    await db('user_profiles').insert(user('n3', null));
    expect(await db('user_profiles').where({ id: 'n3' }).first('email')).toEqual({ email: null });
  });
});
