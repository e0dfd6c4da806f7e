import type { Db } from '../../db/knex.js';
import { DAY_MS } from '../../../../shared/constants.js';

/**
 * `daily_stats`: one value per UTC day, metric and server (`''` when the metric is not per server).
 * Traffic is added to by the panel sync as it sees usage grow; the snapshots are overwritten by the
 * hourly job, so a past day keeps its last snapshot.
 */
export const DAILY_METRICS = {
  /** Bytes used on a server that day. */
  traffic: 'traffic_bytes',
  /** VPN accounts whose status is active (the hourly snapshot; today's figure is read live from overview_counts). */
  activeAccounts: 'active_accounts',
} as const;
export type DailyMetric = (typeof DAILY_METRICS)[keyof typeof DAILY_METRICS];

/** No server: the key of a metric about the whole shop. */
export const WHOLE_SHOP = '';

export interface DailyStat {
  day: string;
  serverId: string;
  value: number;
}

/** The UTC date of a time, `YYYY-MM-DD`. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The UTC date `days` days after (or before, when negative) `day`. */
export const addDays = (day: string, days: number): string => utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

/** Adds `amount` to a day's value (creating it): one statement, so concurrent adds never lose one. */
export async function addToDailyStat(conn: Db, stat: { metric: DailyMetric; day: string; serverId: string; amount: number }, now: Date): Promise<void> {
  await conn('daily_stats')
    .insert({ metric: stat.metric, day: stat.day, server_id: stat.serverId, value: stat.amount, updated_at: now })
    .onConflict(['metric', 'day', 'server_id'])
    .merge({ value: conn.raw('?? + ??', ['daily_stats.value', 'excluded.value']), updated_at: now });
}

export function createDailyStatsRepo(db: Db) {
  return {
    /** Sets a day's value (a snapshot), replacing what an earlier snapshot of the same day wrote. */
    async setValue(stat: { metric: DailyMetric; day: string; serverId: string; value: number }, now: Date): Promise<void> {
      await db('daily_stats')
        .insert({ metric: stat.metric, day: stat.day, server_id: stat.serverId, value: stat.value, updated_at: now })
        .onConflict(['metric', 'day', 'server_id'])
        .merge(['value', 'updated_at']);
    },

    /** A metric's values from `fromDay` on (a range of the primary key). */
    async listSince(metric: DailyMetric, fromDay: string): Promise<DailyStat[]> {
      const rows = await db('daily_stats').where('metric', metric).where('day', '>=', fromDay).select('day', 'server_id', 'value');
      return rows.map((row) => ({ day: row.day as string, serverId: row.server_id as string, value: Number(row.value) }));
    },
  };
}

export type DailyStatsRepo = ReturnType<typeof createDailyStatsRepo>;
