import { dialectOf, type Db } from '../../db/knex.js';
import { DAILY_METRICS, utcDay, WHOLE_SHOP } from './daily-stats.repo.js';

/** A count or sum per UTC day (`YYYY-MM-DD`); days without rows are absent. */
export type PerDay = Map<string, number>;

const MS_PER_DAY = 86_400_000;
/** Payments that brought money in: succeeded, or refunded (what was not given back counts). */
const EARNING_STATUSES = ['succeeded', 'refunded'];

/**
 * The overview's reads. Each is one statement on an index: a range of the last days (signups, trials,
 * revenue), a range of `daily_stats`, or the active accounts' part of vpn_accounts (status, updated_at).
 * Times are epoch milliseconds on SQLite and timestamptz on PostgreSQL: `dayNumber` is the UTC day in both.
 */
export function createOverviewRepo(db: Db) {
  const dayNumber = (column: string) =>
    dialectOf(db) === 'postgres' ? `((${column} at time zone 'UTC')::date - date '1970-01-01')` : `${column} / ${MS_PER_DAY}`;

  async function perDay(query: Promise<Array<Record<string, unknown>>>): Promise<PerDay> {
    const days: PerDay = new Map();
    for (const row of await query) days.set(utcDay(new Date(Number(row.day) * MS_PER_DAY)), Number(row.n ?? 0));
    return days;
  }

  return {
    /** Users created per day since `from` (user_profiles (created_at, id)). */
    signupsPerDay(from: Date): Promise<PerDay> {
      return perDay(db('user_profiles').where('created_at', '>=', from).select(db.raw(`${dayNumber('created_at')} as day`), db.raw('count(*) as n')).groupByRaw('1'));
    },

    /** Trial accounts created per day since `from` (the partial index on trial accounts). */
    trialsPerDay(from: Date): Promise<PerDay> {
      return perDay(
        db('vpn_accounts').whereNotNull('trial_user_id').where('created_at', '>=', from)
          .select(db.raw(`${dayNumber('created_at')} as day`), db.raw('count(*) as n')).groupByRaw('1'),
      );
    },

    /** Money kept per day since `from`: payments in `currency`, less their refunds (an index that holds every column read). */
    revenuePerDay(from: Date, currency: string): Promise<PerDay> {
      return perDay(
        db('transactions').where('created_at', '>=', from).whereIn('status', EARNING_STATUSES).where('currency', currency)
          .select(db.raw(`${dayNumber('created_at')} as day`), db.raw('sum(amount - amount_refunded) as n')).groupByRaw('1'),
      );
    },

    /**
     * Money kept since `from` in each currency but `currency` (payments made before the store changed its
     * currency): summed per currency, never into the store currency's figures.
     */
    async revenueInOtherCurrencies(from: Date, currency: string): Promise<Array<{ currency: string; revenue: number }>> {
      const rows: Array<Record<string, unknown>> = await db('transactions').where('created_at', '>=', from).whereIn('status', EARNING_STATUSES).whereNot('currency', currency)
        .select('currency', db.raw('sum(amount - amount_refunded) as n')).groupBy('currency').orderBy('currency');
      return rows.map((row) => ({ currency: String(row.currency), revenue: Number(row.n ?? 0) }));
    },

    /** VPN accounts active now. */
    async countActiveAccounts(): Promise<number> {
      const row = await db('vpn_accounts').where('status', 'active').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    /**
     * All users now, without counting them: the latest snapshot plus the users created since it was
     * taken (at most an hour of signups). Undefined before the first snapshot.
     */
    async countUsersSinceSnapshot(): Promise<number | undefined> {
      const row = await db('daily_stats as s')
        .where({ 's.metric': DAILY_METRICS.usersTotal, 's.server_id': WHOLE_SHOP })
        .orderBy('s.day', 'desc')
        .first(db.raw('s.value + (select count(*) from user_profiles u where u.created_at > s.updated_at) as n'));
      return row ? Number(row.n) : undefined;
    },

    /** All users, counted (the hourly snapshot's figure; a pass over an index, never on a request). */
    async countAllUsers(): Promise<number> {
      const row = await db('user_profiles').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    /** The names of the servers (a short table), by id. */
    async serverNames(): Promise<Map<string, string>> {
      const rows = await db('masterservers').select('id', 'name').orderBy('created_at');
      return new Map(rows.map((row) => [row.id as string, row.name as string]));
    },
  };
}

export type OverviewRepo = ReturnType<typeof createOverviewRepo>;
