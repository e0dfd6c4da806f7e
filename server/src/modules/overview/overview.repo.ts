import type { Db } from '../../db/knex.js';

/**
 * `overview_counts` (migration 025): figures that database triggers keep equal to a count of the rows,
 * in the transaction that changes them. Per UTC day: `signups`, `trials`, `revenue` (per currency,
 * succeeded or refunded payments less their refunds); about now (day `''`): `users`, `active_accounts`.
 */
export const COUNTED = {
  signups: 'signups',
  trials: 'trials',
  revenue: 'revenue',
  users: 'users',
  activeAccounts: 'active_accounts',
} as const;
type PerDayMetric = typeof COUNTED.signups | typeof COUNTED.trials | typeof COUNTED.revenue;

/** A figure about now rather than a day. */
const NOW = '';

export interface DailyCount {
  metric: PerDayMetric;
  day: string;
  /** A revenue's currency; '' for a count. */
  currency: string;
  value: number;
}

/**
 * The overview's reads: each is one range of `overview_counts`'s primary key (at most a few rows a day),
 * whatever the number of users, accounts or payments.
 */
export function createOverviewRepo(db: Db) {
  return {
    /** Signups, trials and revenue per day from `fromDay` (`YYYY-MM-DD`) on. */
    async dailyCountsSince(fromDay: string): Promise<DailyCount[]> {
      const rows: Array<Record<string, unknown>> = await db('overview_counts')
        .whereIn('metric', [COUNTED.signups, COUNTED.trials, COUNTED.revenue]).where('day', '>=', fromDay)
        .select('metric', 'day', 'currency', 'value');
      return rows.map((row) => ({ metric: row.metric as PerDayMetric, day: String(row.day), currency: String(row.currency), value: Number(row.value) }));
    },

    /** All users and the VPN accounts active, now. */
    async countsNow(): Promise<{ users: number; activeAccounts: number }> {
      const rows: Array<{ metric: string; value: unknown }> = await db('overview_counts')
        .whereIn('metric', [COUNTED.users, COUNTED.activeAccounts]).where('day', NOW).select('metric', 'value');
      const valueOf = (metric: string) => Number(rows.find((row) => row.metric === metric)?.value ?? 0);
      return { users: valueOf(COUNTED.users), activeAccounts: valueOf(COUNTED.activeAccounts) };
    },

    /** The names of the servers (a short table), by id. */
    async serverNames(): Promise<Map<string, string>> {
      const rows = await db('masterservers').select('id', 'name').orderBy('created_at');
      return new Map(rows.map((row) => [row.id as string, row.name as string]));
    },
  };
}

export type OverviewRepo = ReturnType<typeof createOverviewRepo>;
