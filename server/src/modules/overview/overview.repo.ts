import { dialectOf, type Db } from '../../db/knex.js';
import { DAILY_METRICS, type DailyStat } from './daily-stats.repo.js';

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
const PER_DAY: PerDayMetric[] = [COUNTED.signups, COUNTED.trials, COUNTED.revenue];
const ABOUT_NOW = [COUNTED.users, COUNTED.activeAccounts];
/** The day of a figure about now. */
const NOW = '';

export interface DailyCount {
  metric: PerDayMetric;
  day: string;
  /** A revenue's currency; '' for a count. */
  currency: string;
  value: number;
}

export interface CountsNow {
  users: number;
  activeAccounts: number;
}

export interface OverviewFigures {
  counts: DailyCount[];
  now: CountsNow;
  /** `daily_stats`: the active accounts' hourly snapshots and each server's traffic. */
  activeSnapshots: DailyStat[];
  traffic: DailyStat[];
  /** The servers' names (a short table), by id. */
  serverNames: Map<string, string>;
}

interface Row {
  source: string;
  metric: string | null;
  day: string | null;
  part: string;
  value: unknown;
}

/**
 * The overview's reads. Each part is a range of a primary key (`overview_counts`, `daily_stats`: a few
 * rows a day of the range) or the short table of servers, whatever the number of users, accounts or
 * payments; all in one statement: one round trip, and on SQLite one turn of its single connection.
 */
export function createOverviewRepo(db: Db) {
  const countsNow = (rows: Array<{ metric: string | null; value: unknown }>): CountsNow => {
    const valueOf = (metric: string) => Number(rows.find((row) => row.metric === metric)?.value ?? 0);
    return { users: valueOf(COUNTED.users), activeAccounts: valueOf(COUNTED.activeAccounts) };
  };

  // One statement, written out: it is the same on every request, and knex would build it anew each time.
  const addedAt = dialectOf(db) === 'postgres' ? 'extract(epoch from created_at)' : 'created_at';
  const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
  const figuresSql = [
    `select 'count' as source, metric, day, currency as part, value from overview_counts where metric in (${list(PER_DAY)}) and day >= ?`,
    `select 'now', metric, day, currency, value from overview_counts where metric in (${list(ABOUT_NOW)}) and day = ''`,
    `select 'stat', metric, day, server_id, value from daily_stats where metric in (${list([DAILY_METRICS.activeAccounts, DAILY_METRICS.traffic])}) and day >= ?`,
    // A server's name as its day, when it was added as its value (epoch milliseconds on SQLite, seconds on PostgreSQL).
    `select 'server', null, name, id, ${addedAt} from masterservers`,
  ].join(' union all ');

  return {
    /** Everything the overview shows of the days from `fromDay` (`YYYY-MM-DD`) on, and of now. */
    async readFigures(fromDay: string): Promise<OverviewFigures> {
      const result: unknown = await db.raw(figuresSql, [fromDay, fromDay]);
      // better-sqlite3 answers the rows, pg a result holding them.
      const rows = (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
      const of = (source: string) => rows.filter((row) => row.source === source);
      const stats = (metric: string) => of('stat').filter((row) => row.metric === metric).map((row) => ({ day: row.day!, serverId: row.part, value: Number(row.value) }));
      return {
        counts: of('count').map((row) => ({ metric: row.metric as PerDayMetric, day: row.day!, currency: row.part, value: Number(row.value) })),
        now: countsNow(of('now')),
        activeSnapshots: stats(DAILY_METRICS.activeAccounts),
        traffic: stats(DAILY_METRICS.traffic),
        serverNames: new Map(of('server').sort((a, b) => Number(a.value) - Number(b.value)).map((row) => [row.part, row.day!])),
      };
    },

    /** All users and the VPN accounts active, now. */
    async countsNow(): Promise<CountsNow> {
      return countsNow(await db('overview_counts').whereIn('metric', ABOUT_NOW).where('day', NOW).select('metric', 'value'));
    },
  };
}

export type OverviewRepo = ReturnType<typeof createOverviewRepo>;
